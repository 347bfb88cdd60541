import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClientExport, clientExportFileName } from '../../domain/client-export.ts';
import { envelope } from '../../domain/schemas.ts';
import { ClientFile, QueuePage, QueueQuery, RequestFile, TeamMember } from '../../domain/staff.ts';
import type { users } from '../db/schema.ts';
import { createSignedLinks } from '../files/signed-links.ts';
import { contentDisposition, sendStoredFile } from '../files/storage.ts';
import { clientName } from '../serialize/rows.ts';
import { exportClientData } from '../services/client-export.ts';
import { storedFileById } from '../services/downloads.ts';
import { openClientFile, openRequestFile } from '../services/staff-pages.ts';
import { noNul, queuePage } from '../services/staff-queue.ts';
import { teamMembers, userByEmail } from '../services/team.ts';

const ClientParams = z.object({ uid: z.string().min(1, 'uid is required').max(128, 'uid must be at most 128 characters').refine(...noNul('uid')) });
const RequestParams = z.object({ requestId: z.string().max(100, 'requestId must be at most 100 characters') });
const FileParams = z.object({ fileId: z.string().max(100, 'fileId must be at most 100 characters') });
const LookupQuery = z.strictObject({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .min(1, 'email is required')
    .max(254, 'email must be at most 254 characters')
    .refine(...noNul('email')),
});

/**
 * Staff workspace reads: queue, client page, request page, team, file download, a client's data export (docs/api.md,
 * "Staff"). Everything here is read-only (opening a page records it for the offline replica; an export writes its
 * audit row); the writes live in staff-actions.ts and staff-support.ts, the queries in services/staff-queue.ts,
 * staff-pages.ts, team.ts and client-export.ts.
 */
export async function staffReadRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { onRequest: app.requireStaff };
  const admin = { onRequest: app.requireAdmin };
  const links = createSignedLinks(app.config.downloadSecret);

  api.get(
    '/staff/queue',
    {
      ...staff,
      schema: { tags: ['staff'], summary: 'One queue tab, oldest first (threads: the longest wait first), paged by an opaque cursor; counts for every tab', querystring: QueueQuery, response: { 200: envelope(QueuePage) } },
    },
    async (request) => ({ data: await queuePage(app.db, request.query) }),
  );

  api.get(
    '/staff/clients/:uid',
    { ...staff, schema: { tags: ['staff'], summary: "A client's whole file", params: ClientParams, response: { 200: envelope(ClientFile) } } },
    async (request) => ({ data: await openClientFile(app.db, links, request.user.uid, request.params.uid) }),
  );

  api.get(
    '/staff/clients/:uid/export',
    {
      // Step-up: a stolen, still signed-in device must not carry a client's whole file away.
      onRequest: [app.requireStaff, app.requireStepUp],
      schema: {
        tags: ['staff'],
        summary: "Downloads the data the portal holds on a client as one JSON file (step-up; audited): profile, requests with payments, refunds and status history, threads, notifications, file details, sessions; never a secret",
        params: ClientParams,
        response: { 200: ClientExport },
      },
    },
    async (request, reply) => {
      const document = await exportClientData(app, request, request.params.uid);
      return reply
        .header('content-disposition', contentDisposition(clientExportFileName(request.params.uid, new Date(document.exportedAt))))
        .header('cache-control', 'no-store')
        .send(document);
    },
  );

  api.get(
    '/staff/requests/:requestId',
    { ...staff, schema: { tags: ['staff'], summary: "A request's whole file and the actions allowed on it now", params: RequestParams, response: { 200: envelope(RequestFile) } } },
    async (request) => ({ data: await openRequestFile(app.db, links, request.user.uid, request.params.requestId) }),
  );

  api.get(
    '/staff/files/:fileId',
    { ...staff, schema: { tags: ['staff'], summary: 'Downloads any stored file (evidence, final report, invoice, general file)', params: FileParams } },
    async (request, reply) => sendStoredFile(app, reply, await storedFileById(app.db, request.params.fileId)),
  );

  api.get(
    '/staff/team',
    { ...admin, schema: { tags: ['staff'], summary: 'Every staff member and admin, by email (admins only)', response: { 200: envelope(z.array(TeamMember)) } } },
    async () => ({ data: (await teamMembers(app.db)).map(toTeamMember) }),
  );

  api.get(
    '/staff/users/lookup',
    { ...admin, schema: { tags: ['staff'], summary: 'Finds a user by email (any case), to grant the staff role (admins only)', querystring: LookupQuery, response: { 200: envelope(TeamMember) } } },
    async (request) => ({ data: toTeamMember(await userByEmail(app.db, request.query.email)) }),
  );
}

function toTeamMember(row: typeof users.$inferSelect): z.infer<typeof TeamMember> {
  // Effective roles, as everywhere else: an admin is staff whatever is_staff says.
  return { uid: row.uid, email: row.email, name: clientName(row), isAdmin: row.isAdmin, isStaff: row.isStaff || row.isAdmin, disabled: row.disabledAt !== null, version: row.version };
}
