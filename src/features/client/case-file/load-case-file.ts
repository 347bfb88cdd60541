import { z } from 'zod';
import { type PortalDb, requestsOfTool } from '../../../lib/db.ts';
import { saveBlob } from '../../../lib/save-file.ts';
import { LAST_SYNC_KEY } from '../../../lib/sync/pull.ts';
import { type CaseData, caseFileSections } from './case-file-content.ts';
import { fetchLiveDetails } from '../shared/live-details.ts';
import { sectionsPdf } from '../shared/pdf-document.ts';

/** Reads the whole case from the replica in one transaction, so the document is one consistent moment. */
export async function readCase(db: PortalDb, now = new Date()): Promise<CaseData> {
  const tables = [db.profile, db.requests, db.deals, db.refunds, db.files, db.trackingLinks, db.liveDetails, db.contactRequests, db.contactReplies, db.meta];
  return db.transaction('r', tables, async () => ({
    profile: await db.profile.get(db.uid),
    requests: await db.requests.toArray(),
    deals: await db.deals.toArray(),
    refunds: await db.refunds.toArray(),
    files: await db.files.toArray(),
    trackingLinks: await db.trackingLinks.toArray(),
    liveDetails: await db.liveDetails.toArray(),
    threads: await db.contactRequests.toArray(),
    replies: await db.contactReplies.toArray(),
    lastSyncedAt: z.number().nullable().catch(null).parse((await db.meta.get(LAST_SYNC_KEY))?.value ?? null),
    generatedAt: now,
  }));
}

/**
 * Brings the Track Master visits of every sent Track Master request onto the device, into the same table Live
 * Details keeps them in. Called by the case file page when online; a failure leaves the last copy, which the file
 * then prints with its date.
 */
export async function refreshTrackMasterVisits(db: PortalDb): Promise<void> {
  const requests = (await requestsOfTool(db, 'TRACK_MASTER').toArray()).filter((r) => !r.pending);
  await Promise.allSettled(requests.map((request) => fetchLiveDetails(db, request.id)));
}

/** Builds the case file from the device's copy (no network) and hands it to the browser as a PDF. */
export async function downloadCaseFile(db: PortalDb): Promise<void> {
  const data = await readCase(db);
  const bytes = await sectionsPdf('Case file: online fraud', caseFileSections(data));
  const day = data.generatedAt.toISOString().slice(0, 10);
  saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), `case-file-${day}.pdf`);
}
