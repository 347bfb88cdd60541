import { LiveDetails } from '../../../../domain/schemas.ts';
import { apiGet } from '../../../lib/api.ts';
import type { PortalDb } from '../../../lib/db.ts';

/**
 * Fetches a Track Master request's live details (the server's payment gate decides: the visits once paid in full,
 * a row count before) into the replica's liveDetails table, where Live Details and the case file read them offline.
 */
export async function fetchLiveDetails(db: PortalDb, requestId: string): Promise<void> {
  const live = await apiGet(`/tools/track-master/requests/${requestId}/live-details`, LiveDetails);
  // Signed out meanwhile: the replica is closed and keeps nothing.
  if (!db.hasBeenClosed()) await db.liveDetails.put({ ...live, fetchedAt: Date.now() });
}
