import { z } from 'zod';
import type { PortalDb } from '../../../lib/db.ts';
import { saveBlob } from '../../../lib/save-file.ts';
import { LAST_SYNC_KEY } from '../../../lib/sync/pull.ts';
import { type CaseData, caseFileSections } from './case-file-content.ts';
import { sectionsPdf } from '../shared/pdf-document.ts';

/** Reads the whole case from the replica in one transaction, so the document is one consistent moment. */
export async function readCase(db: PortalDb, now = new Date()): Promise<CaseData> {
  return db.transaction('r', [db.profile, db.requests, db.deals, db.refunds, db.files, db.trackingLinks, db.contactRequests, db.contactReplies, db.meta], async () => ({
    profile: await db.profile.get(db.uid),
    requests: await db.requests.toArray(),
    deals: await db.deals.toArray(),
    refunds: await db.refunds.toArray(),
    files: await db.files.toArray(),
    trackingLinks: await db.trackingLinks.toArray(),
    threads: await db.contactRequests.toArray(),
    replies: await db.contactReplies.toArray(),
    lastSyncedAt: z.number().nullable().catch(null).parse((await db.meta.get(LAST_SYNC_KEY))?.value ?? null),
    generatedAt: now,
  }));
}

/** Builds the case file from the device's copy (no network) and hands it to the browser as a PDF. */
export async function downloadCaseFile(db: PortalDb): Promise<void> {
  const data = await readCase(db);
  const bytes = await sectionsPdf('Case file: online fraud', caseFileSections(data));
  const day = data.generatedAt.toISOString().slice(0, 10);
  saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), `case-file-${day}.pdf`);
}
