import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../domain/schemas.ts';
import { ApprovalBody, ContractBody, PaymentBody, RoleBody, StaffClient, StaffDeal, StaffRequest, TransitionBody, Version } from '../../domain/staff.ts';
import { createSignedLinks } from '../files/signed-links.ts';
import { formatBytes } from '../files/storage.ts';
import { HttpError } from '../platform/errors.ts';
import { UploadedFile } from '../plugins/uploads.ts';
import { recordPayment } from '../services/payments.ts';
import { deliverFinalFile, signContract, transitionRequest } from '../services/request-lifecycle.ts';
import { approveClient, setStaffRole } from '../services/staff-users.ts';

const RequestParams = z.strictObject({ requestId: z.string().max(100) });
const UserParams = z.strictObject({
  uid: z
    .string()
    .trim()
    .min(1, 'uid is required')
    .max(128, 'uid must be at most 128 characters')
    .regex(/^[^\u0000-\u001f]+$/, 'uid must not contain control characters'),
});

/** Multipart text parts arrive as strings, so the version is coerced; the rules are Version's. A text part or two files are refused. */
const FinalFileBody = z.object({
  file: UploadedFile.or(z.never({ error: 'file is required: send one file part named "file"' })),
  version: z.coerce.number({ error: 'version is required' }).pipe(Version),
});

const PaymentAnswer = envelope(z.object({ request: StaffRequest, deal: StaffDeal }));

/**
 * Staff workspace writes: lifecycle transitions, contract, payments, final file, approval, roles. Each route parses
 * its input and calls its service (services/request-lifecycle.ts, payments.ts, staff-users.ts), which runs it
 * through staffWrite: row lock, version, lifecycle, change, audit row and notification in one transaction, then the poke.
 */
export async function staffActionRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const staff = { onRequest: app.requireStaff };
  const links = createSignedLinks(app.config.downloadSecret);

  api.post(
    '/staff/requests/:requestId/transition',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Moves a request to another status, as the lifecycle table allows (price, start, complete, reject)',
        params: RequestParams,
        body: TransitionBody,
        response: { 200: envelope(StaffRequest) },
      },
    },
    async (request) => {
      const { body } = await transitionRequest(app, request, request.params.requestId, request.body);
      return body;
    },
  );

  api.post(
    '/staff/requests/:requestId/contract',
    {
      ...staff,
      schema: { tags: ['staff'], summary: 'Marks the contract as signed', params: RequestParams, body: ContractBody, response: { 200: envelope(StaffRequest) } },
    },
    async (request) => {
      const { body } = await signContract(app, request, request.params.requestId, request.body);
      return body;
    },
  );

  api.post(
    '/staff/requests/:requestId/payments',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Records a payment: a deal with its invoice PDF; never more than what is left to pay',
        params: RequestParams,
        body: PaymentBody,
        response: { 201: PaymentAnswer },
      },
    },
    async (request, reply) => {
      const { body } = await recordPayment(app, request, request.params.requestId, request.body, links);
      return reply.status(201).send(body);
    },
  );

  api.post(
    '/staff/requests/:requestId/final-file',
    {
      ...staff,
      // @fastify/multipart stops a part at the size cap while the body is read, before the handler runs.
      errorHandler: (error: FastifyError) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, 'FILE_TOO_LARGE', `The file must be at most ${formatBytes(app.storage.maxBytes)}`);
        if (error.code === 'FST_FILES_LIMIT') throw new HttpError(413, 'TOO_MANY_FILES', 'Send one file part named "file"');
        throw error;
      },
      schema: {
        tags: ['staff'],
        summary: 'Uploads (or replaces) the final report: multipart, one file part `file` and a text part `version`',
        consumes: ['multipart/form-data'],
        params: RequestParams,
        body: FinalFileBody,
        response: { 201: envelope(StaffRequest) },
      },
    },
    async (request, reply) => {
      const { filename, stored } = request.body.file;
      const { body } = await deliverFinalFile(app, request, request.params.requestId, request.body.version, { ...stored, name: filename });
      return reply.status(201).send(body);
    },
  );

  api.post(
    '/staff/clients/:uid/approval',
    {
      ...staff,
      schema: {
        tags: ['staff'],
        summary: 'Approves a lead: they become a client and can order services',
        params: UserParams,
        body: ApprovalBody,
        response: { 200: envelope(StaffClient) },
      },
    },
    async (request) => {
      const { body } = await approveClient(app, request, request.params.uid, request.body.version);
      return body;
    },
  );

  api.put(
    '/staff/users/:uid/role',
    {
      onRequest: [app.requireAdmin, app.requireStepUp],
      schema: {
        tags: ['staff', 'admin'],
        summary: 'Grants or revokes the staff role (admins only, step-up); it applies from the user\'s next request',
        params: UserParams,
        body: RoleBody,
        response: { 200: envelope(StaffClient) },
      },
    },
    async (request) => {
      const { body } = await setStaffRole(app, request, request.params.uid, request.body);
      return body;
    },
  );
}
