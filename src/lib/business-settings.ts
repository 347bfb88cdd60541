import { useLiveQuery } from './use-live-query.ts';
import { BUSINESS_SETTINGS_ID, type BusinessSettings } from '../../domain/business-settings.ts';
import { useReplica } from './replica.ts';

/**
 * The business's payment instructions and official channels as this device knows them (the sync feed carries
 * the one row to every user): undefined while Dexie answers, null when none were configured (or not synced yet).
 */
export function useBusinessSettings(): BusinessSettings | null | undefined {
  const db = useReplica();
  return useLiveQuery(async () => (await db.businessSettings.get(BUSINESS_SETTINGS_ID)) ?? null, [db]);
}
