import { z } from 'zod';
import { storable } from './text.ts';
import { trimmed } from './schemas.ts';

/**
 * Track Master tracking links: `/t/{slug}` on the portal's own host. A slug is 16 random bytes in
 * base64url (22 characters, 128 bits), so links cannot be guessed or enumerated.
 */
export const TRACKING_SLUG_LENGTH = 22;
export const TrackingSlug = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'not a tracking link');

/** The path a tracking link is served at; the client and staff prefix it with the portal's origin. */
export function trackingPath(slug: string): string {
  return `/t/${slug}`;
}

/** Where the visitor is sent: an http(s) address chosen by staff, or null for the portal's neutral page. */
export const TrackingDestination = z
  .url({ protocol: /^https?$/, error: 'destination must be an http or https address' })
  .max(2000, 'destination must be at most 2000 characters')
  .check(storable('destination'));

/** POST /api/staff/requests/:id/tracking-links */
export const NewTrackingLinkBody = z.strictObject({
  label: trimmed('label', 80),
  destination: TrackingDestination.nullable().default(null),
});
export type NewTrackingLinkBody = z.infer<typeof NewTrackingLinkBody>;

/** PATCH /api/staff/tracking-links/:id: enable or disable. */
export const TrackingLinkPatch = z.strictObject({ disabled: z.boolean({ error: 'disabled must be true or false' }) });
export type TrackingLinkPatch = z.infer<typeof TrackingLinkPatch>;

/** A link as its client sees it (in the sync feed): enough to copy it and follow its counts. */
export const TrackingLink = z.object({
  id: z.string(),
  productRequestId: z.string(),
  slug: TrackingSlug,
  label: z.string(),
  disabled: z.boolean(),
  /** Visits counted as people: link-preview fetches by messaging apps are counted apart. */
  visits: z.number().int().min(0),
  previews: z.number().int().min(0),
  lastVisitAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TrackingLink = z.infer<typeof TrackingLink>;

/** A link as staff see it: the client's shape plus where it sends visitors and who made it. */
export const StaffTrackingLink = TrackingLink.extend({
  destination: z.string().nullable(),
  createdBy: z.string().nullable(),
  version: z.number().int(),
});
export type StaffTrackingLink = z.infer<typeof StaffTrackingLink>;

/** Which tracking links the client sees: an explanation shown next to them, in plain words. */
export const trackingLinkAdvice =
  'Send this link to the scammer in the conversation you already have with them, for example as a "receipt" or "proof of payment". ' +
  'When they open it we record where it was opened from, then send them on to an ordinary page. Never open it yourself: your own visit would be recorded too.';

/** The client's notification when staff make a link: where to find it; `ref` names the request (TM-0042). */
export function trackingLinkReadyText(label: string, ref: string | null): string {
  return `Your tracking link "${label}" is ready. Open Live Details of your Track Master request${ref ? ` ${ref}` : ''} to copy it.`;
}
