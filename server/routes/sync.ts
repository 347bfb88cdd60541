import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SyncPage, SyncQuery, emptySyncPage } from '../../domain/sync.ts';
import { hasNewer } from '../sync/change-heads.ts';
import { createSignedLinks } from '../files/signed-links.ts';
import { feedSources, nextChanges, readChangesOf } from '../sync/feed-sources.ts';

/**
 * GET /api/sync?cursor=&limit=: the user's rows whose `seq` is above the cursor, oldest first, at
 * most `limit` of them. Every synced row gets its `seq` from one sequence under an advisory lock
 * (migrations/0001_change_seq.sql), so rows commit in seq order and "seq > cursor" never skips one
 * (docs/decisions/001-delta-sync-and-idempotency.md). The tables and their owners are declared once
 * (server/sync/feed-sources.ts); this route only runs the two steps over them.
 *
 * A pull with nothing new runs no statement of its own (the feed's head comes with the caller's roles). Otherwise
 * two steps: first the (table, seq) pairs of the next `limit + 1` changes across all tables, then, only for the
 * tables that have any, the rows in (cursor, last seq taken]. A row updated between the two steps moves above that
 * bound and comes in the next pull, so nothing is lost.
 */
export async function syncRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const links = createSignedLinks(app.config.downloadSecret);

  api.get(
    '/sync',
    {
      onRequest: app.authenticate,
      schema: { tags: ['sync'], querystring: SyncQuery, response: { 200: z.object({ data: SyncPage }) } },
      serializerCompiler: () => serializeSyncPage,
    },
    async (request, reply) => {
      const uid = request.user.uid;
      const { cursor, limit } = request.query;
      reply.header('cache-control', 'no-store');

      // The common answer, nothing new, comes from the feed's head read with the caller's roles (server/sync/change-heads.ts);
      // the rest runs only when rows come.
      if (!hasNewer(request.feedHead, cursor)) return { data: emptySyncPage(cursor) };
      const next = await nextChanges(app.db, uid, cursor, limit);
      const page = emptySyncPage(cursor, next.hasMore);
      if (next.upper === null) return { data: page };

      page.cursor = next.upper;
      const changes = await readChangesOf(feedSources, app.db, uid, cursor, next.upper, next.tables, { links });
      const lists = page as unknown as Record<string, unknown>;
      for (const [name, rows] of changes) lists[name] = name === 'profile' ? (rows[0] ?? null) : rows;
      return { data: page };
    },
  );
}

/**
 * The page as sent: checked against SyncPage (the documented response) except for the requests' rows, the bulk of a
 * catch-up, which go out as syncRequests built them. Checking 5,000 of them per page was the largest item of the
 * server's profile during a pull (docs/decisions/017), and it is done again where the rows enter the
 * client's replica: the client reads every row with zod (readSyncPage) and sets aside one it cannot read, whereas a row
 * failing here failed the whole page, and every pull after it, with a 500. The requests' rows are made field by field
 * from a fixed column list (server/sync/requests.ts, toRequest), so nothing else can leak into them; a server test
 * checks that what is sent is exactly what the full schema gives.
 */
const SentSyncPage = z.object({ data: SyncPage.extend({ requests: z.array(z.unknown()) }) });

export function serializeSyncPage(body: unknown): string {
  return JSON.stringify(SentSyncPage.encode(body as z.output<typeof SentSyncPage>));
}
