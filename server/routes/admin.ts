import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ExistingUserBody, NewUserBody, Profile } from '../../domain/schemas.ts';
import { createLead, linkUser } from '../services/admin-users.ts';

/**
 * Admin: Create User. POST /admin/users makes a new lead (Firebase account + profile) and emails the
 * set-password link; POST /admin/users/link approves (contacts) or withdraws approval (leads) of an
 * existing user. The workflows are services/admin-users.ts.
 */
export async function adminRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const admin = { onRequest: app.requireAdmin };

  api.post(
    '/admin/users',
    { onRequest: [app.requireAdmin, app.requireStepUp], schema: { tags: ['admin'], body: NewUserBody, response: { 201: envelope(z.object({ uid: z.string(), email: z.string() })) } } },
    async (request, reply) => reply.status(201).send(await createLead(app, request, request.body)),
  );

  api.post(
    '/admin/users/link',
    { ...admin, schema: { tags: ['admin'], body: ExistingUserBody, response: { 201: envelope(Profile) } } },
    async (request, reply) => {
      const { body } = await linkUser(app, request, request.body);
      return reply.status(201).send(body);
    },
  );
}
