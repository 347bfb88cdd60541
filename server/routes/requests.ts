import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Deal, envelope, LiveDetails, ProductRequest, RefundBody, RefundRequest, StatusCounts } from '../../domain/schemas.ts';
import { texts } from '../../domain/texts.ts';
import { findTool, toolByBackendName, ToolNameBackendSchema, tools, type ToolDefinition } from '../../domain/tools.ts';
import { deals, files, productRequests, refunds, visits } from '../db/schema.ts';
import type { Db } from '../db/client.ts';
import { HttpError, notFound } from '../errors.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused, settleInTransaction } from '../services/command-ids.ts';
import { isFullyPaid, toDeal, toRefund, toRequest, toVisit } from '../serialize.ts';
import { createSignedLinks } from '../signed-links.ts';
import { UUID, sendStoredFile } from '../storage.ts';

const REFUNDABLE = new Set(['In Progress', 'Done']);
/** Live Details shows at least this many placeholder rows before payment in full. */
const MIN_PLACEHOLDER_ROWS = 3;

const ToolParams = z.object({ toolId: z.string().max(100) });
const RequestParams = z.object({ toolId: z.string().max(100), requestId: z.string().max(100) });
const FileParams = z.object({ toolId: z.string().max(100), processId: z.string().max(100) });

const RequestGroup = z.object({ productRequestType: ToolNameBackendSchema, requests: z.array(ProductRequest), deals: z.array(Deal) });
const RequestDetails = z.object({
  id: z.string(),
  productRequestType: ToolNameBackendSchema,
  requestDetails: ProductRequest.shape.requestDetails,
  /** Track Master only: how many visits the tracking link has recorded so far. */
  visits: z.number().optional(),
});
const BillingRow = z.object({
  id: z.string(),
  tool: ToolNameBackendSchema,
  toolName: z.string(),
  date: z.string(),
  invoice: z.string().nullable(),
});

const RefundParams = z.object({ refundId: z.string().max(100) });

const missingRequest = () => notFound('Request not found');
const refundPending = () =>
  new HttpError(409, 'REFUND_PENDING', texts.refundPending);

/**
 * Whether `err` is PostgreSQL's unique violation on `constraint`. drizzle wraps driver errors in a
 * DrizzleQueryError whose `cause` is the driver's error; node-postgres and PGlite both give it `code`
 * and `constraint` (for a unique index, the index's name).
 */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint: name } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return name === constraint;
  }
  return false;
}

/**
 * The requests, deals, refunds, final files, Live Details and billing of the signed-in user
 * (docs/api.md, "Requests and tools"). Every lookup is scoped to the caller: someone else's id is 404.
 */
export async function requestRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.authenticate };
  const links = createSignedLinks(app.config.downloadSecret);

  function toolOr404(toolId: string): ToolDefinition {
    const tool = findTool(toolId);
    if (!tool) throw notFound(`Unknown tool ${toolId}`);
    return tool;
  }

  async function ownRequest(uid: string, tool: ToolDefinition, requestId: string) {
    if (!UUID.test(requestId)) throw missingRequest();
    const [row] = await app.db
      .select()
      .from(productRequests)
      .where(and(eq(productRequests.id, requestId), eq(productRequests.userId, uid), eq(productRequests.toolId, tool.id)));
    if (!row) throw missingRequest();
    return row;
  }

  api.get(
    '/user/product-requests',
    { ...auth, schema: { tags: ['requests'], summary: 'The user\'s requests and deals, one group per tool', response: { 200: z.object({ data: z.array(RequestGroup) }) } } },
    async (request) => {
      const uid = request.user.uid;
      const [requestRows, dealRows] = await Promise.all([
        app.db.select().from(productRequests).where(eq(productRequests.userId, uid)).orderBy(desc(productRequests.createdAt), desc(productRequests.seq)),
        app.db.select().from(deals).where(eq(deals.userId, uid)).orderBy(desc(deals.createdAt), desc(deals.seq)),
      ]);
      return {
        data: tools.map((tool) => ({
          productRequestType: tool.ToolNameBackend,
          requests: requestRows.filter((r) => r.productRequestType === tool.ToolNameBackend).map((row) => toRequest(row)),
          deals: dealRows.filter((d) => d.productRequestType === tool.ToolNameBackend).map((d) => toDeal(d, links)),
        })),
      };
    },
  );

  api.get(
    '/user/product-requests-status-count',
    { ...auth, schema: { tags: ['requests'], response: { 200: z.object({ data: StatusCounts }) } } },
    async (request) => {
      const rows = await app.db
        .select({ status: productRequests.status, n: count() })
        .from(productRequests)
        .where(eq(productRequests.userId, request.user.uid))
        .groupBy(productRequests.status);
      const n = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { data: { done: n('Done'), inProgress: n('In Progress'), pending: n('Pending'), waitingForActions: n('Waiting for actions') } };
    },
  );

  api.get(
    '/tools/:toolId/requests',
    { ...auth, schema: { tags: ['requests'], summary: 'The user\'s requests of one tool, newest first', params: ToolParams, response: { 200: z.object({ data: z.array(ProductRequest) }) } } },
    async (request) => {
      const tool = toolOr404(request.params.toolId);
      const rows = await app.db
        .select()
        .from(productRequests)
        .where(and(eq(productRequests.userId, request.user.uid), eq(productRequests.toolId, tool.id)))
        .orderBy(desc(productRequests.createdAt), desc(productRequests.seq));
      return { data: rows.map((row) => toRequest(row)) };
    },
  );

  api.get(
    '/tools/:toolId/requests/:requestId',
    { ...auth, schema: { tags: ['requests'], summary: 'One request\'s details', params: RequestParams, response: { 200: z.object({ data: RequestDetails }) } } },
    async (request) => {
      const tool = toolOr404(request.params.toolId);
      const row = await ownRequest(request.user.uid, tool, request.params.requestId);
      const details: z.infer<typeof RequestDetails> = {
        id: row.id,
        productRequestType: row.productRequestType as z.infer<typeof RequestDetails>['productRequestType'],
        requestDetails: toRequest(row).requestDetails,
      };
      if (tool.id === 'track-master') {
        // People only: a messaging app's preview fetch is not a visit (server/tracking/preview-bots.ts).
        const [{ n }] = await app.db.select({ n: count() }).from(visits).where(and(eq(visits.requestId, row.id), isNull(visits.preview)));
        details.visits = Number(n);
      }
      return { data: details };
    },
  );

  api.get(
    '/tools/:toolId/requests/:requestId/live-details',
    {
      ...auth,
      schema: {
        tags: ['requests'],
        summary: 'Track Master visits: a placeholder row count before payment in full, the visits after',
        params: RequestParams,
        response: { 200: z.object({ data: LiveDetails }) },
      },
    },
    async (request) => {
      const tool = toolOr404(request.params.toolId);
      if (tool.id !== 'track-master') throw notFound('Live details exist for Track Master requests only');
      const row = await ownRequest(request.user.uid, tool, request.params.requestId);
      // Nothing of the visits leaks before payment in full, only how many rows to draw: the people's
      // visits, not the previews of messaging apps (those are shown apart once paid).
      if (!isFullyPaid(row)) {
        const [{ n }] = await app.db.select({ n: count() }).from(visits).where(and(eq(visits.requestId, row.id), isNull(visits.preview)));
        return { data: { id: row.id, data: Math.max(MIN_PLACEHOLDER_ROWS, Number(n)) } };
      }
      const visitRows = await app.db.select().from(visits).where(eq(visits.requestId, row.id)).orderBy(desc(visits.time), desc(visits.id));
      const data = visitRows.map(toVisit);
      return { data: { id: row.id, data } };
    },
  );

  api.post(
    '/refund',
    { ...auth, schema: { tags: ['requests'], body: RefundBody, response: { 201: z.object({ data: RefundRequest }) } } },
    async (request, reply) => {
      const uid = request.user.uid;
      const { tool: toolName, processId, refundRequestType, reason } = request.body.refundRequest;
      const tool = toolByBackendName(toolName);
      // The schema lets only catalogue names through; were one missing, no request of it could be found either.
      if (!tool) throw missingRequest();
      const row = await ownRequest(uid, tool, processId);
      const commandId = commandIdOf(request);
      let answer: { data: RefundRequest };
      try {
        answer = await app.db.transaction(async (tx) => {
          // A rerun of this key answers the refund its first attempt stored, before the checks that refund now fails.
          const { row: refund } = await insertOnce(
            commandId,
            (key) => firstRefund(tx, uid, key),
            async () => {
              await checkRefundable(tx, row);
              const values = { userId: uid, requestId: row.id, tool: tool.ToolNameBackend, refundRequestType, reason, commandId };
              return (await tx.insert(refunds).values(values).onConflictDoNothing(commandIdConflict(refunds.userId, refunds.commandId)).returning())[0];
            },
          );
          if (refund.requestId !== row.id) throw keyReused();
          const data = { data: toRefund(refund) };
          await settleInTransaction(tx, request, 201, data);
          return data;
        });
      } catch (err) {
        // Two sends racing past checkRefundable: the unique index refunds_one_undecided lets one in,
        // and when the one let in carries this very key, it is this command's answer.
        if (!isUniqueViolation(err, 'refunds_one_undecided')) throw err;
        const raced = commandId === null ? undefined : await firstRefund(app.db, uid, commandId);
        if (!raced) throw refundPending();
        answer = { data: toRefund(raced) };
      }
      await app.events.poke(uid);
      return reply.status(201).send(answer);
    },
  );

  api.get(
    '/refund',
    { ...auth, schema: { tags: ['requests'], summary: 'The caller\'s refund requests and their decisions, newest first', response: { 200: envelope(z.array(RefundRequest)) } } },
    async (request) => {
      const rows = await app.db
        .select()
        .from(refunds)
        .where(eq(refunds.userId, request.user.uid))
        .orderBy(desc(refunds.createdAt), desc(refunds.seq));
      return { data: rows.map(toRefund) };
    },
  );

  api.get(
    '/refund/:refundId',
    { ...auth, schema: { tags: ['requests'], summary: 'One refund request and its decision', params: RefundParams, response: { 200: envelope(RefundRequest) } } },
    async (request) => {
      const { refundId } = request.params;
      if (!UUID.test(refundId)) throw notFound('Refund not found');
      const [row] = await app.db
        .select()
        .from(refunds)
        .where(and(eq(refunds.id, refundId), eq(refunds.userId, request.user.uid)));
      if (!row) throw notFound('Refund not found');
      return { data: toRefund(row) };
    },
  );

  api.get(
    '/:toolId/:processId/file',
    {
      ...auth,
      schema: {
        tags: ['requests'],
        summary: 'A signed, 15-minute link to the final file of a fully paid request',
        params: FileParams,
        response: { 200: z.object({ data: z.string() }) },
      },
    },
    async (request) => {
      const tool = toolOr404(request.params.toolId);
      const row = await ownRequest(request.user.uid, tool, request.params.processId);
      if (!isFullyPaid(row)) throw new HttpError(403, 'NOT_FULLY_PAID', texts.notFullyPaid);
      if (!row.finalFileId) throw new HttpError(404, 'FILE_NOT_READY', 'The final file is not ready yet.');
      return { data: links.link(row.finalFileId) };
    },
  );

  // Public on purpose: the signed token is the permission, so a plain <a href> or the service worker can fetch it.
  api.get(
    '/download/:token',
    { schema: { tags: ['requests'], summary: 'Downloads a file through a signed link (no Authorization header)', params: z.object({ token: z.string().max(200) }) } },
    async (request, reply) => {
      const verdict = links.verify(request.params.token);
      if (!verdict.ok) {
        if (verdict.reason === 'not-found') throw notFound('File not found');
        throw verdict.reason === 'expired'
          ? new HttpError(410, 'LINK_EXPIRED', 'This download link has expired. Open the download again to get a new one.')
          : new HttpError(403, 'INVALID_LINK', 'This download link is not valid.');
      }
      const [file] = await app.db.select().from(files).where(eq(files.id, verdict.fileId));
      if (!file) throw notFound('File not found');
      return sendStoredFile(app, reply, file, 'immutable');
    },
  );

  api.get(
    '/user/billing',
    { ...auth, schema: { tags: ['requests'], summary: 'Settings → Billings: one row per deal, newest first', response: { 200: z.object({ data: z.array(BillingRow) }) } } },
    async (request) => {
      const rows = await app.db.select().from(deals).where(eq(deals.userId, request.user.uid)).orderBy(desc(deals.createdAt), asc(deals.id));
      return {
        data: rows.map((row) => {
          const deal = toDeal(row, links);
          return {
            id: deal.id,
            tool: deal.productRequestType,
            toolName: toolByBackendName(deal.productRequestType)?.header ?? deal.productRequestType,
            date: deal.Created_Time,
            invoice: deal.invoice,
          };
        }),
      };
    },
  );
}

/** The refund this user's Idempotency-Key already stored, if any. */
async function firstRefund(db: Db, uid: string, commandId: string) {
  const [row] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.userId, uid), eq(refunds.commandId, commandId)));
  return row;
}

/** Only In Progress or Done requests, and one undecided refund per request: the client waits for the decision, then may ask again. */
async function checkRefundable(db: Db, row: typeof productRequests.$inferSelect) {
  if (!REFUNDABLE.has(row.status)) {
    throw new HttpError(409, 'NOT_REFUNDABLE', `Only requests that are In Progress or Done can be refunded; this request is ${row.status}.`);
  }
  const [pending] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.requestId, row.id), eq(refunds.status, 'requested')))
    .limit(1);
  if (pending) throw refundPending();
}
