import { BUSINESS_SETTINGS_ID, type BusinessSettings } from '../../domain/business-settings.ts';
import type { businessSettings } from '../db/schema.ts';

type Row = typeof businessSettings.$inferSelect;

/** Row → API shape, for routes/business-settings.ts and the sync feed (routes/sync.ts) alike. */
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
