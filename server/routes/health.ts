import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError } from '../platform/errors.ts';
import { RETRY_AFTER_SECONDS } from '../platform/service-faults.ts';
import { healthChecks, problemOf } from '../services/health-checks.ts';

const Checks = z.object({
  database: z.object({ reachable: z.boolean(), writable: z.boolean() }),
  storage: z.object({ writable: z.boolean() }),
});

/**
 * GET /api/health: 200 when the database answers and accepts a write and the file storage accepts a
 * file; 503 with the same checks (in error.details) and a message saying which one failed otherwise.
 * `status` and `database` (the database's kind) keep their meaning for the callers that wait for a
 * started server (docs/decisions/023-database-faults.md).
 */
export async function healthRoutes(app: FastifyInstance) {
  const check = healthChecks(app.db, app.database.kind, app.storage);
  app.get(
    '/health',
    { schema: { response: { 200: z.object({ data: z.object({ status: z.literal('ok'), database: z.string(), checks: Checks }) }) } } },
    async (_request, reply) => {
      const checks = await check();
      const problem = problemOf(checks);
      if (problem) {
        reply.header('retry-after', String(RETRY_AFTER_SECONDS.unavailable));
        throw new HttpError(503, 'UNAVAILABLE', problem, { status: 'unavailable', database: app.database.kind, checks });
      }
      return { data: { status: 'ok' as const, database: app.database.kind, checks } };
    },
  );
}
