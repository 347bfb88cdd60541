import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Deal, envelope, LiveDetails, ProductRequest, RefundBody, RefundRequest, StatusCounts } from '../../domain/schemas.ts';
import { ToolNameBackendSchema } from '../../domain/tools.ts';
import { createSignedLinks } from '../files/signed-links.ts';
import { sendStoredFile } from '../files/storage.ts';
import { billing, finalFileLink, liveDetails, requestDetails, requestGroups, statusCounts, toolRequests } from '../services/client-requests.ts';
import { fileOfSignedLink } from '../services/downloads.ts';
import { ownRefund, ownRefunds, requestRefund } from '../services/refunds.ts';
import { toRefund, toRequest } from '../serialize/rows.ts';

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

/**
 * The requests, deals, refunds, final files, Live Details and billing of the signed-in user
 * (docs/api.md, "Requests and tools"). The workflows and their queries are services/client-requests.ts,
 * refunds.ts and downloads.ts; every lookup there is scoped to the caller.
 */
export async function requestRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.authenticate };
  const links = createSignedLinks(app.config.downloadSecret);

  api.get(
    '/user/product-requests',
    { ...auth, schema: { tags: ['requests'], summary: 'The user\'s requests and deals, one group per tool', response: { 200: z.object({ data: z.array(RequestGroup) }) } } },
    async (request) => ({ data: await requestGroups(app.db, links, request.user.uid) }),
  );

  api.get(
    '/user/product-requests-status-count',
    { ...auth, schema: { tags: ['requests'], response: { 200: z.object({ data: StatusCounts }) } } },
    async (request) => ({ data: await statusCounts(app.db, request.user.uid) }),
  );

  api.get(
    '/tools/:toolId/requests',
    { ...auth, schema: { tags: ['requests'], summary: 'The user\'s requests of one tool, newest first', params: ToolParams, response: { 200: z.object({ data: z.array(ProductRequest) }) } } },
    async (request) => {
      const rows = await toolRequests(app.db, request.user.uid, request.params.toolId);
      return { data: rows.map((row) => toRequest(row)) };
    },
  );

  api.get(
    '/tools/:toolId/requests/:requestId',
    { ...auth, schema: { tags: ['requests'], summary: 'One request\'s details', params: RequestParams, response: { 200: z.object({ data: RequestDetails }) } } },
    async (request) => {
      const { row, visits } = await requestDetails(app.db, request.user.uid, request.params.toolId, request.params.requestId);
      const details: z.infer<typeof RequestDetails> = {
        id: row.id,
        productRequestType: row.productRequestType as z.infer<typeof RequestDetails>['productRequestType'],
        requestDetails: toRequest(row).requestDetails,
      };
      if (visits !== undefined) details.visits = visits;
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
    async (request) => ({ data: await liveDetails(app.db, request.user.uid, request.params.toolId, request.params.requestId) }),
  );

  api.post(
    '/refund',
    { ...auth, schema: { tags: ['requests'], body: RefundBody, response: { 201: z.object({ data: RefundRequest }) } } },
    async (request, reply) => reply.status(201).send(await requestRefund(app, request, request.user.uid, request.body)),
  );

  api.get(
    '/refund',
    { ...auth, schema: { tags: ['requests'], summary: 'The caller\'s refund requests and their decisions, newest first', response: { 200: envelope(z.array(RefundRequest)) } } },
    async (request) => ({ data: (await ownRefunds(app.db, request.user.uid)).map(toRefund) }),
  );

  api.get(
    '/refund/:refundId',
    { ...auth, schema: { tags: ['requests'], summary: 'One refund request and its decision', params: RefundParams, response: { 200: envelope(RefundRequest) } } },
    async (request) => ({ data: toRefund(await ownRefund(app.db, request.user.uid, request.params.refundId)) }),
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
    async (request) => ({ data: await finalFileLink(app.db, links, request.user.uid, request.params.toolId, request.params.processId) }),
  );

  // Public on purpose: the signed token is the permission, so a plain <a href> or the service worker can fetch it.
  api.get(
    '/download/:token',
    { schema: { tags: ['requests'], summary: 'Downloads a file through a signed link (no Authorization header)', params: z.object({ token: z.string().max(200) }) } },
    async (request, reply) => sendStoredFile(app, reply, await fileOfSignedLink(app.db, links, request.params.token), 'immutable'),
  );

  api.get(
    '/user/billing',
    { ...auth, schema: { tags: ['requests'], summary: 'Settings → Billings: one row per deal, newest first', response: { 200: z.object({ data: z.array(BillingRow) }) } } },
    async (request) => ({ data: await billing(app.db, links, request.user.uid) }),
  );
}
