import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BUSINESS_SETTINGS_ID, BusinessSettings, BusinessSettingsBody, type BusinessSettingsFields } from '../../domain/business-settings.ts';
import { envelope } from '../../domain/schemas.ts';
import { writeAudit } from '../audit.ts';
import type { Db } from '../db/client.ts';
import { businessSettings } from '../db/schema.ts';
import { conflict } from '../errors.ts';
import { settleInTransaction } from '../services/command-ids.ts';
import { actorOf } from '../services/staff-write.ts';

type Row = typeof businessSettings.$inferSelect;

/** Row → API shape, for these routes and the sync feed alike. */
export function toBusinessSettings(row: Row): BusinessSettings {
  return {
    id: BUSINESS_SETTINGS_ID,
    accountHolder: row.accountHolder,
    bankName: row.bankName,
    accountNumber: row.accountNumber,
    bic: row.bic,
    paymentNote: row.paymentNote,
    officialEmails: row.officialEmails,
    officialDomains: row.officialDomains,
    officialPhones: row.officialPhones,
    version: row.version,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

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
      const row = await app.db.transaction(async (tx) => {
        const before = await lockSettings(tx);
        if ((before?.version ?? null) !== version) throw staleVersion(before);
        const after = await save(tx, before, fields);
        await writeAudit(tx, {
          actor: actorOf(request),
          action: 'business-settings',
          entityType: 'business-settings',
          entityId: BUSINESS_SETTINGS_ID,
          subjectUid: null,
          before: before ? fieldsOf(before) : null,
          after: fields,
        });
        await settleInTransaction(tx, request, 200, { data: toBusinessSettings(after) });
        return after;
      });
      await app.events.poke(null);
      return { data: toBusinessSettings(row) };
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
