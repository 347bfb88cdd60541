import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotificationPreferences, NotificationPreferencesBody } from '../../domain/notification-preferences.ts';
import { ActiveStatusBody, InitialFormBody, Profile } from '../../domain/schemas.ts';
import { toProfile } from '../serialize/rows.ts';
import { updatePreferences } from '../services/notification-preferences.ts';
import { ownProfile, reportPresence, saveInitialForm } from '../services/profiles.ts';

const ProfileEnvelope = z.object({ data: Profile });

/** The signed-in user's profile, initial form, presence and notification choices; the workflows are services/profiles.ts. */
export async function userRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.authenticate };

  api.get('/user', { ...auth, schema: { response: { 200: ProfileEnvelope } } }, async (request) => {
    const row = await ownProfile(app.db, request.user.uid);
    return { data: toProfile(row.user, row.presence) };
  });

  api.put('/user/initial-form', { ...auth, schema: { body: InitialFormBody, response: { 201: ProfileEnvelope } } }, async (request, reply) =>
    reply.status(201).send(await saveInitialForm(app, request, request.user.uid, request.body)),
  );

  api.patch(
    '/user/active-status',
    { ...auth, schema: { body: ActiveStatusBody, response: { 200: z.object({ data: z.object({ status: ActiveStatusBody.shape.status }) }) } } },
    async (request) => reportPresence(app, request, request.user.uid, request.body.status),
  );

  // Only the switches the body names change; the row reaches the user's devices through the sync feed.
  api.put(
    '/user/notification-preferences',
    { ...auth, schema: { body: NotificationPreferencesBody, response: { 200: z.object({ data: NotificationPreferences }) } } },
    async (request) => updatePreferences(app, request, request.body),
  );
}
