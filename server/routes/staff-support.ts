import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ReplyBody } from '../../domain/schemas.ts';
import { NoteBody, RefundDecisionBody, StaffNote, StaffRefund, StaffThread, ThreadStatusBody } from '../../domain/staff.ts';
import { decideRefund } from '../services/refund-decisions.ts';
import { addStaffNote } from '../services/staff-notes.ts';
import { changeThreadStatus, replyToThreadAsStaff } from '../services/support-threads.ts';

const ThreadParams = z.strictObject({ threadId: z.string().max(100, 'threadId must be at most 100 characters') });
const RefundParams = z.strictObject({ refundId: z.string().max(100, 'refundId must be at most 100 characters') });

/**
 * Staff support writes: replies to a client's thread, closing and reopening it, refund decisions, and
 * internal notes (docs/api.md, "Staff workspace"). Each route parses its input and calls its service
 * (services/support-threads.ts, refund-decisions.ts, staff-notes.ts), which runs it through staffWrite.
 */
export async function staffSupportRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { onRequest: app.requireStaff };

  api.post(
    '/staff/threads/:threadId/replies',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: "Answers a client's support thread; it leaves the queue's Awaiting our reply tab. Send an Idempotency-Key",
        params: ThreadParams,
        body: ReplyBody,
        response: { 201: envelope(StaffThread) },
      },
    },
    async (request, reply) => {
      const { body } = await replyToThreadAsStaff(app, request, request.params.threadId, request.body.reply.message);
      return reply.status(201).send(body);
    },
  );

  api.post(
    '/staff/threads/:threadId/status',
    {
      ...staff,
      schema: { tags: ['staff'], summary: 'Closes or reopens a support thread', params: ThreadParams, body: ThreadStatusBody, response: { 200: envelope(StaffThread) } },
    },
    async (request) => {
      const { body } = await changeThreadStatus(app, request, request.params.threadId, request.body);
      return body;
    },
  );

  api.post(
    '/staff/refunds/:refundId/decision',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Approves (with the amount returned, at most what was paid) or declines (with the reason) a refund request',
        params: RefundParams,
        body: RefundDecisionBody,
        response: { 200: envelope(StaffRefund) },
      },
    },
    async (request) => {
      const { body } = await decideRefund(app, request, request.params.refundId, request.body);
      return body;
    },
  );

  api.post(
    '/staff/notes',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Adds an internal note on a client or one of their requests; staff only, never shown to the client. Send an Idempotency-Key',
        body: NoteBody,
        response: { 201: envelope(StaffNote) },
      },
    },
    async (request, reply) => {
      const { body } = await addStaffNote(app, request, request.body);
      return reply.status(201).send(body);
    },
  );
}
