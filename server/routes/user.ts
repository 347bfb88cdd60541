import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ActiveStatusBody, InitialFormBody, Profile } from '../../domain/schemas.ts';
import { users } from '../db/schema.ts';
import { HttpError } from '../errors.ts';
import { toProfile } from '../serialize.ts';

const ProfileEnvelope = z.object({ data: Profile });

export async function userRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.authenticate };

  api.get('/user', { ...auth, schema: { response: { 200: ProfileEnvelope } } }, async (request) => {
    const [row] = await app.db.select().from(users).where(eq(users.uid, request.user.uid));
    return { data: toProfile(row) };
  });

  api.put('/user/initial-form', { ...auth, schema: { body: InitialFormBody, response: { 201: ProfileEnvelope } } }, async (request, reply) => {
    const { name, ...form } = request.body.initialForm;
    const [first, ...rest] = name.split(/\s+/);
    const [row] = await app.db
      .update(users)
      .set({
        initialForm: { ...form, name },
        filledInitialForm: true,
        // The spec sends the display name with the form; it fills the profile's name when unset.
        firstName: sql`coalesce(${users.firstName}, ${first})`,
        lastName: sql`coalesce(${users.lastName}, ${rest.join(' ') || null})`,
        // Staff acting on this profile from an older view get a conflict that shows the new answers.
        version: sql`${users.version} + 1`,
      })
      .where(eq(users.uid, request.user.uid))
      .returning();
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'Profile not found');
    await app.events.poke(row.uid);
    return reply.status(201).send({ data: toProfile(row) });
  });

  api.patch(
    '/user/active-status',
    { ...auth, schema: { body: ActiveStatusBody, response: { 200: z.object({ data: z.object({ status: ActiveStatusBody.shape.status }) }) } } },
    async (request) => {
      await app.db
        .update(users)
        .set({ activityStatus: request.body.status, lastSeenAt: sql`now()` })
        .where(eq(users.uid, request.user.uid));
      return { data: { status: request.body.status } };
    },
  );
}
