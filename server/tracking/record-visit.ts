import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { trackingLinks, visits } from '../db/schema.ts';
import type { IpLookup } from './ip-lookup.ts';
import { type CapturedRequest, describeVisit } from './visit-details.ts';

export type VisitRow = typeof visits.$inferSelect;

/**
 * Writes one captured visit: the link's counter (visits for a person, previews for a messaging app's
 * preview fetcher) and the visit row, in one transaction. The counter's UPDATE moves the link's seq
 * (migrations/0008), which is how the client's delta pull and the staff feed learn of the visit.
 *
 * A link disabled since the request was answered (the capture cache may be up to its TTL old) records
 * nothing: the UPDATE finds no enabled link and the visit is dropped. Returns the visit, or null.
 * The seed calls this too, so the demo's visits went through the same code as real ones.
 */
export async function recordVisit(db: Db, lookup: IpLookup, linkId: string, request: CapturedRequest): Promise<VisitRow | null> {
  const fields = describeVisit(request, lookup.locate(request.ip));
  const person = fields.preview === null;
  return db.transaction(async (tx) => {
    const [link] = await tx
      .update(trackingLinks)
      .set({
        visits: person ? sql`${trackingLinks.visits} + 1` : trackingLinks.visits,
        previews: person ? trackingLinks.previews : sql`${trackingLinks.previews} + 1`,
        // The latest person's visit; a preview fetch is not "the scammer was here".
        lastVisitAt: person ? sql`greatest(${trackingLinks.lastVisitAt}, ${fields.time}::timestamptz)` : trackingLinks.lastVisitAt,
      })
      .where(sql`${trackingLinks.id} = ${linkId} AND NOT ${trackingLinks.disabled}`)
      .returning({ requestId: trackingLinks.requestId, userId: trackingLinks.userId });
    if (!link) return null;
    const [visit] = await tx
      .insert(visits)
      .values({ ...fields, requestId: link.requestId, userId: link.userId, linkId, isNew: true, archive: false })
      .returning();
    return visit;
  });
}

/** The enabled-or-not link behind a slug, with what the capture route needs to answer and record. */
export async function findLinkBySlug(db: Db, slug: string) {
  const [row] = await db
    .select({ id: trackingLinks.id, destination: trackingLinks.destination, disabled: trackingLinks.disabled })
    .from(trackingLinks)
    .where(eq(trackingLinks.slug, slug));
  return row ?? null;
}
