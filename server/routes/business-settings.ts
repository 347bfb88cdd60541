import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BUSINESS_SETTINGS_ID, BusinessSettings, BusinessSettingsBody, type BusinessSettingsFields } from '../../domain/business-settings.ts';
import { envelope } from '../../domain/schemas.ts';
import type { Db } from '../db/client.ts';
import { businessSettings } from '../db/schema.ts';
import { conflict } from '../platform/errors.ts';
import { toBusinessSettings } from '../services/business-settings.ts';
import { staffWrite } from '../services/staff-write.ts';

type Row = typeof businessSettings.$inferSelect;

const Answer = envelope(BusinessSettings.nullable());

/**
 * GET /staff/business-settings (staff) and PUT (admins): the payment instructions and official channels
 * (docs/decisions/016-business-settings-and-how-to-pay.md). The PUT carries the version it was edited from (null
 * before any settings exist): a stale one is 409 with the current row. Change and audit row commit together; then
 * every connected app is poked, because every user's feed carries the row.
 */
export async function businessSettingsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/staff/business-settings',
    { onRequest: app.requireStaff, schema: { tags: ['staff'], summary: 'The business settings; null before an admin saved any', response: { 200: Answer } } },
    async () => {
      const [row] = await app.db.select().from(businessSettings).where(eq(businessSettings.id, BUSINESS_SETTINGS_ID));
      return { data: row ? toBusinessSettings(row) : null };
    },
  );

  api.put(
    '/staff/business-settings',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['staff', 'admin'],
        summary: 'Saves the payment instructions and official channels (admins; versioned, audited)',
        body: BusinessSettingsBody,
        response: { 200: envelope(BusinessSettings) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body;
      const { body } = await staffWrite(app, request, {
        lock: lockSettings,
        check: (_tx, before) => {
          if ((before?.version ?? null) !== version) throw staleVersion(before);
        },
        change: async (tx, before, actor) => ({
          done: await save(tx, before, fields),
          audit: {
            actor,
            action: 'business-settings',
            entityType: 'business-settings',
            entityId: BUSINESS_SETTINGS_ID,
            subjectUid: null,
            before: before ? fieldsOf(before) : null,
            after: fields,
          },
        }),
        status: 200,
        answer: (row) => ({ data: toBusinessSettings(row) }),
        // Every user's feed carries the row.
        poke: () => 'everyone',
      });
      return body;
    },
  );
}

async function lockSettings(tx: Db): Promise<Row | undefined> {
  const [row] = await tx.select().from(businessSettings).where(eq(businessSettings.id, BUSINESS_SETTINGS_ID)).for('update');
  return row;
}

/**
 * Two admins saving their first settings at once: both read no row, and the primary key lets one insert
 * win; the other's insert does nothing and is answered 409 like any stale edit.
 */
async function save(tx: Db, before: Row | undefined, fields: BusinessSettingsFields): Promise<Row> {
  if (before) {
    const [row] = await tx
      .update(businessSettings)
      .set({ ...fields, version: sql`${businessSettings.version} + 1`, updatedAt: sql`now()` })
      .where(eq(businessSettings.id, BUSINESS_SETTINGS_ID))
      .returning();
    return row;
  }
  const [row] = await tx
    .insert(businessSettings)
    .values({ id: BUSINESS_SETTINGS_ID, ...fields })
    .onConflictDoNothing()
    .returning();
  if (!row) throw staleVersion(await lockSettings(tx));
  return row;
}

function fieldsOf(row: Row): BusinessSettingsFields {
  const { accountHolder, bankName, accountNumber, bic, paymentNote, officialEmails, officialDomains, officialPhones } = row;
  return { accountHolder, bankName, accountNumber, bic, paymentNote, officialEmails, officialDomains, officialPhones };
}

function staleVersion(current: Row | undefined) {
  return conflict('VERSION_CONFLICT', 'Someone else changed the business settings since you opened them. Look at them again, then retry.', {
    current: current ? toBusinessSettings(current) : null,
  });
}
