import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ContactBody, ContactReply, ContactRequest, envelope, NotCrmExistsBody, ReplyBody } from '../../domain/schemas.ts';
import { toContactReply, toContactRequest } from '../serialize/messages.ts';
import { checkExistingContact, openContactThread, ownThreads, replyAsClient, threadWithReplies } from '../services/contact-threads.ts';

const ThreadParams = z.object({ threadId: z.string().max(100) });
const ThreadWithReplies = z.object({ thread: ContactRequest, replies: z.array(ContactReply) });

/** The client's support threads (docs/api.md, "Contact"); the workflows are services/contact-threads.ts. */
export async function contactRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.authenticate };

  api.post(
    '/contact',
    { ...auth, schema: { tags: ['contact'], body: ContactBody, response: { 201: envelope(ContactRequest) } } },
    async (request, reply) => {
      const { subject, message } = request.body.contactRequest;
      return reply.status(201).send(await openContactThread(app, request, request.user.uid, { subject, message }));
    },
  );

  api.get('/contact', { ...auth, schema: { tags: ['contact'], response: { 200: envelope(z.array(ContactRequest)) } } }, async (request) => ({
    data: (await ownThreads(app.db, request.user.uid)).map(toContactRequest),
  }));

  api.get(
    '/contact/:threadId',
    { ...auth, schema: { tags: ['contact'], summary: 'One of the caller\'s threads with its replies, oldest first', params: ThreadParams, response: { 200: envelope(ThreadWithReplies) } } },
    async (request) => {
      const { thread, replies } = await threadWithReplies(app.db, request.user.uid, request.params.threadId);
      return { data: { thread: toContactRequest(thread), replies: replies.map(toContactReply) } };
    },
  );

  api.post(
    '/contact/:threadId/replies',
    { ...auth, schema: { tags: ['contact'], params: ThreadParams, body: ReplyBody, response: { 201: envelope(ContactReply) } } },
    async (request, reply) => reply.status(201).send(await replyAsClient(app, request, request.user.uid, request.params.threadId, request.body.reply.message)),
  );

  /**
   * The spec's "Check existing contact", called without a token: the same answer after the same work for any
   * valid email. Limited per client address, across instances, like every write without a token
   * (server/plugins/write-limits.ts).
   */
  api.post(
    '/user/not-crm-exists',
    {
      schema: { tags: ['contact'], body: NotCrmExistsBody, response: { 200: envelope(z.object({ received: z.literal(true) })) } },
    },
    async (request) => {
      await checkExistingContact(app.db, request.body.email);
      return { data: { received: true as const } };
    },
  );
}
