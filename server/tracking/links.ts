import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import type { NewTrackingLinkBody, StaffTrackingLink, TrackingLink } from '../../domain/tracking.ts';
import { requestRef } from '../../domain/tools.ts';
import { TrackingSlug, trackingLinkReadyText } from '../../domain/tracking.ts';
import type { Db } from '../db/client.ts';
import { trackingLinks } from '../db/schema.ts';
import { conflict, notFound } from '../platform/errors.ts';
import { commandIdConflict, insertOnce, keyReused } from '../services/command-ids.ts';
import { type Actor, type RequestRow, type StaffChange } from '../services/staff-write.ts';
import { UUID } from '../files/storage.ts';

type TrackingLinkRow = typeof trackingLinks.$inferSelect;

/** 16 bytes from the CSPRNG in base64url: 22 characters, 128 bits, so links cannot be guessed or enumerated. */
export function newSlug(): string {
  return randomBytes(16).toString('base64url');
}

export function isSlug(value: string): boolean {
  return TrackingSlug.safeParse(value).success;
}

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** A link as its client's feed carries it: no destination, no author, no version (staff matters). */
export function toTrackingLink(row: TrackingLinkRow): TrackingLink {
  return {
    id: row.id,
    productRequestId: row.requestId,
    slug: row.slug,
    label: row.label,
    disabled: row.disabled,
    visits: row.visits,
    previews: row.previews,
    lastVisitAt: iso(row.lastVisitAt),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

export function toStaffTrackingLink(row: TrackingLinkRow): StaffTrackingLink {
  return { ...toTrackingLink(row), destination: row.destination, createdBy: row.createdBy, version: row.version };
}

/** A request's links, newest first (the staff request file). */
export async function linksOfRequest(db: Db, requestId: string): Promise<TrackingLinkRow[]> {
  return db.select().from(trackingLinks).where(eq(trackingLinks.requestId, requestId)).orderBy(desc(trackingLinks.createdAt), desc(trackingLinks.id));
}

/**
 * Only a Track Master request that is In Progress gets a link: before, the case is not started; after
 * (Done, Rejected), nothing would look at the visits.
 */
export function checkTrackingLinkRequest(request: RequestRow): void {
  if (request.productRequestType !== 'TRACK_MASTER') {
    throw conflict('NOT_TRACK_MASTER', 'Tracking links exist for Track Master requests only.');
  }
  if (request.status !== 'In Progress') {
    throw conflict('ILLEGAL_STATUS', `Tracking links can be created while the request is In Progress; it is ${request.status}.`);
  }
}

/**
 * Creates a link on a locked request that checkTrackingLinkRequest let through. A replay of the same
 * Idempotency-Key (insertOnce) finds the first link instead of adding a second one, with no second audit
 * row or notification.
 */
export async function createTrackingLink(
  tx: Db,
  request: RequestRow,
  body: NewTrackingLinkBody,
  actor: Actor,
  commandId: string | null,
): Promise<StaffChange<TrackingLinkRow>> {
  const { row, created } = await insertOnce(
    commandId,
    async (key) => (await tx.select().from(trackingLinks).where(and(eq(trackingLinks.createdBy, actor.uid), eq(trackingLinks.commandId, key))))[0],
    async () =>
      (
        await tx
          .insert(trackingLinks)
          .values({
            requestId: request.id,
            userId: request.userId,
            slug: newSlug(),
            label: body.label,
            destination: body.destination,
            createdBy: actor.uid,
            commandId,
          })
          .onConflictDoNothing(commandIdConflict(trackingLinks.createdBy, trackingLinks.commandId))
          .returning()
      )[0],
  );
  // A key that created a link on another request was not this request's (its claim was pruned since).
  if (row.requestId !== request.id) throw keyReused();
  if (!created) return { done: row };
  return {
    done: row,
    audit: {
      actor,
      action: 'tracking-link',
      entityType: 'tracking-link',
      entityId: row.id,
      subjectUid: row.userId,
      requestId: row.requestId,
      before: null,
      after: { label: row.label, destination: row.destination, disabled: row.disabled },
    },
    // The client has something to do with it: pass it on. Said once, not again on a replay.
    notify: { userId: row.userId, message: trackingLinkReadyText(row.label, requestRef(request)) },
  };
}

/** The link, locked until the transaction ends, so two staff writes on it run one after the other. */
export async function lockTrackingLink(tx: Db, id: string): Promise<TrackingLinkRow> {
  if (!UUID.test(id)) throw notFound('Tracking link not found');
  const [row] = await tx.select().from(trackingLinks).where(eq(trackingLinks.id, id)).for('update');
  if (!row) throw notFound('Tracking link not found');
  return row;
}

/**
 * Disables or enables a link. Setting the state it already has changes nothing and writes no audit
 * row (a double click, or a colleague who did it first), and answers the link as it is.
 */
export async function setTrackingLinkDisabled(tx: Db, row: TrackingLinkRow, disabled: boolean, actor: Actor): Promise<StaffChange<TrackingLinkRow>> {
  if (row.disabled === disabled) return { done: row };
  const [updated] = await tx
    .update(trackingLinks)
    .set({ disabled, version: row.version + 1 })
    .where(eq(trackingLinks.id, row.id))
    .returning();
  return {
    done: updated,
    audit: {
      actor,
      action: 'tracking-link',
      entityType: 'tracking-link',
      entityId: row.id,
      subjectUid: row.userId,
      requestId: row.requestId,
      before: { disabled: row.disabled },
      after: { disabled: updated.disabled },
    },
  };
}
