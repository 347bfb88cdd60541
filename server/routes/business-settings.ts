import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BusinessSettings, BusinessSettingsBody } from '../../domain/business-settings.ts';
import { envelope } from '../../domain/schemas.ts';
import { currentSettings, saveSettings, toBusinessSettings } from '../services/business-settings.ts';

const Answer = envelope(BusinessSettings.nullable());

/**
 * GET /staff/business-settings (staff) and PUT (admins): the payment instructions and official channels
 * (docs/decisions/016-business-settings-and-how-to-pay.md); the workflow is services/business-settings.ts.
 */
export async function businessSettingsRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/staff/business-settings',
    { onRequest: app.requireStaff, schema: { tags: ['staff'], summary: 'The business settings; null before an admin saved any', response: { 200: Answer } } },
    async () => {
      const row = await currentSettings(app.db);
      return { data: row ? toBusinessSettings(row) : null };
    },
  );

  api.put(
    '/staff/business-settings',
    {
      onRequest: app.requireAdmin,
      schema: {
        tags: ['staff', 'admin'],
        summary: 'Saves the payment instructions and official channels (admins; versioned, audited)',
        body: BusinessSettingsBody,
        response: { 200: envelope(BusinessSettings) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body;
      const { body } = await saveSettings(app, request, version, fields);
      return body;
    },
  );
}
