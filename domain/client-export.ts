import { z } from 'zod';
import { ContactReply, ContactRequest, NotificationItem, ProductRequest, Profile, RefundRequest, StatusChange, UserFile } from './schemas.ts';
import { SessionItem } from './security.ts';

/**
 * GET /api/staff/clients/:uid/export: the data the portal holds on one client, as one JSON document (docs/api.md,
 * Staff). The server serializes the answer through this schema, which keeps only the fields named here, so a column
 * added to a table later reaches the export only once it is named. Nothing secret is named: no second-factor secret,
 * recovery code, hash or passkey key, no token or signed link, no command id (the Idempotency-Key a write came with).
 */

const ExportedPayment = z.object({
  id: z.string(),
  amount: z.number(),
  method: z.string().nullable(),
  reference: z.string().nullable(),
  paidAt: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  recordedAt: z.string(),
});

const ExportedRefund = RefundRequest.omit({ commandId: true });

const ExportedRequest = ProductRequest.omit({ commandId: true, statusHistory: true }).extend({
  statusHistory: z.array(StatusChange),
  payments: z.array(ExportedPayment),
  refunds: z.array(ExportedRefund),
});

const ExportedThread = ContactRequest.omit({ commandId: true }).extend({
  replies: z.array(ContactReply.omit({ commandId: true })),
});

/** Every stored file of the client (their uploads, final reports, invoices): what it is, never its bytes. */
const ExportedFile = UserFile.extend({
  /** general, attachment (evidence of a request), final (a report), invoice. */
  kind: z.string(),
  requestId: z.string().nullable(),
});

/** One sign-in on one device, ended ones included. */
const ExportedSession = SessionItem.omit({ id: true, current: true }).extend({ endedAt: z.string().nullable() });

export const ClientExport = z.object({
  exportedAt: z.string(),
  client: Profile.omit({ activityStatus: true }).extend({
    phone: z.string().nullable(),
    country: z.string().nullable(),
    disabled: z.boolean(),
  }),
  requests: z.array(ExportedRequest),
  threads: z.array(ExportedThread),
  notifications: z.array(NotificationItem),
  files: z.array(ExportedFile),
  sessions: z.array(ExportedSession),
});
export type ClientExport = z.infer<typeof ClientExport>;

/** The file name the export downloads as: client-<uid>-export-YYYY-MM-DD.json (the uid kept to file-safe characters). */
export function clientExportFileName(uid: string, exportedAt: Date): string {
  return `client-${uid.replace(/[^A-Za-z0-9_-]/g, '_')}-export-${exportedAt.toISOString().slice(0, 10)}.json`;
}
