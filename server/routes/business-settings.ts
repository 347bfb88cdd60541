import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BusinessSettings, BusinessSettingsBody, BusinessSettingsWrite, PaymentDetailsReview } from '../../domain/business-settings.ts';
import { envelope } from '../../domain/schemas.ts';
import { type Decision, currentSettings, decideProposal, pendingReview, saveSettings, toBusinessSettings } from '../services/business-settings.ts';

const Answer = envelope(BusinessSettings.nullable());
const ProposalParams = z.object({ proposalId: z.string().max(100, 'proposalId is too long') });

/**
 * GET /staff/business-settings (staff) and PUT (admins): the payment instructions and official channels
 * (docs/decisions/016-business-settings-and-how-to-pay.md); the workflow is services/business-settings.ts.
 * A change of the payment details is a proposal a second admin approves (docs/decisions/032-payment-details-four-eyes.md):
 * the pending one is read online by admins (GET …/proposal) and decided with POST …/proposals/:proposalId/approve,
 * /reject or /withdraw. Nothing of a proposal is in any client answer or feed.
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
      // Editing what every client is told to pay into asks for the second factor again (docs/decisions/031).
      onRequest: [app.requireAdmin, app.requireStepUp],
      schema: {
        tags: ['staff', 'admin'],
        summary: 'Saves the official channels and note, and proposes new payment details for a second admin to approve (admins; versioned, audited)',
        body: BusinessSettingsBody,
        response: { 200: envelope(BusinessSettingsWrite) },
      },
    },
    async (request) => {
      const { version, ...fields } = request.body;
      const { body } = await saveSettings(app, request, version, fields);
      return body;
    },
  );

  api.get(
    '/staff/business-settings/proposal',
    {
      onRequest: app.requireAdmin,
      schema: { tags: ['staff', 'admin'], summary: 'The pending change of the payment details, if any, and the number of admins (admins)', response: { 200: envelope(PaymentDetailsReview) } },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await pendingReview(app.db) };
    },
  );

  const decisions: Record<Decision, string> = {
    approve: 'Approves another admin’s pending change of the payment details: clients see it at once (admins; never your own)',
    reject: 'Rejects another admin’s pending change of the payment details (admins)',
    withdraw: 'Withdraws your own pending change of the payment details (admins)',
  };
  for (const [decision, summary] of Object.entries(decisions) as [Decision, string][]) {
    api.post(
      `/staff/business-settings/proposals/:proposalId/${decision}`,
      // Approving puts new payment details in front of every client: the second factor again, as for editing them.
      { onRequest: decision === 'approve' ? [app.requireAdmin, app.requireStepUp] : app.requireAdmin, schema: { tags: ['staff', 'admin'], summary, params: ProposalParams, response: { 200: envelope(BusinessSettingsWrite) } } },
      async (request) => (await decideProposal(app, request, request.params.proposalId, decision)).body,
    );
  }
}
