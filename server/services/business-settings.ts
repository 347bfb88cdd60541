import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BUSINESS_SETTINGS_ID, type BusinessSettings, type BusinessSettingsFields } from '../../domain/business-settings.ts';
import type { Db } from '../db/client.ts';
import { businessSettings } from '../db/schema.ts';
import { conflict } from '../platform/errors.ts';
import { staffWrite } from './staff-write.ts';

type Row = typeof businessSettings.$inferSelect;

/**
 * The payment instructions and official channels (docs/decisions/016-business-settings-and-how-to-pay.md). A save
 * carries the version it was edited from (null before any settings exist): a stale one is 409 with the current row.
 * Change and audit row commit together; then every connected app is poked, because every user's feed carries the row.
 */

/** The settings; null before an admin saved any. */
export async function currentSettings(db: Db): Promise<Row | undefined> {
  const [row] = await db.select().from(businessSettings).where(eq(businessSettings.id, BUSINESS_SETTINGS_ID));
  return row;
}

export function saveSettings(app: FastifyInstance, request: FastifyRequest, version: number | null, fields: BusinessSettingsFields) {
  return staffWrite(app, request, {
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
}

/** Row → API shape, for the settings' routes and the sync feed (routes/sync.ts) alike. */
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
