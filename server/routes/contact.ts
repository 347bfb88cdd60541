import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ContactBody, ContactRequest, envelope, NotCrmExistsBody } from '../../domain/schemas.ts';
import { contactRequests, users } from '../db/schema.ts';
import { HttpError } from '../errors.ts';
import { toContactRequest } from '../serialize-messages.ts';

/** See docs/decisions/002-not-crm-exists.md. Per client IP, per server instance. */
export const NOT_CRM_EXISTS_LIMIT = { max: 5, timeWindow: '1 minute' } as const;

export async function contactRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.authenticate };

  api.post(
    '/contact',
    { ...auth, schema: { tags: ['contact'], body: ContactBody, response: { 201: envelope(ContactRequest) } } },
    async (request, reply) => {
      const { subject, message } = request.body.contactRequest;
      const [row] = await app.db.insert(contactRequests).values({ userId: request.user.uid, subject, message, clientKey: request.idempotencyClaim?.key ?? null }).returning();
      await app.events.poke(row.userId);
      return reply.status(201).send({ data: toContactRequest(row) });
    },
  );

  api.get('/contact', { ...auth, schema: { tags: ['contact'], response: { 200: envelope(z.array(ContactRequest)) } } }, async (request) => {
    const rows = await app.db
      .select()
      .from(contactRequests)
      .where(eq(contactRequests.userId, request.user.uid))
      .orderBy(desc(contactRequests.createdAt), desc(contactRequests.seq));
    return { data: rows.map(toContactRequest) };
  });

  /**
   * The spec's "Check existing contact", called without a token. Whatever the email, a valid one gets
   * the same answer after the same work (one lookup), so the call cannot be used to learn who has an
   * account. Rate-limited per client IP.
   */
  api.post(
    '/user/not-crm-exists',
    {
      config: {
        rateLimit: {
          ...NOT_CRM_EXISTS_LIMIT,
          errorResponseBuilder: (_request, context) =>
            new HttpError(context.statusCode, 'RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
        },
      },
      schema: { tags: ['contact'], body: NotCrmExistsBody, response: { 200: envelope(z.object({ received: z.literal(true) })) } },
    },
    async (request) => {
      const email = request.body.email.trim().toLowerCase();
      // The result is deliberately unused in the answer: the lookup runs only so that both cases cost the same.
      await app.db.select({ uid: users.uid }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
      return { data: { received: true as const } };
    },
  );
}
