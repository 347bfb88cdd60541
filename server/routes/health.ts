import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/health',
    { schema: { response: { 200: z.object({ data: z.object({ status: z.literal('ok'), database: z.string() }) }) } } },
    async () => {
      await app.db.execute(sql`select 1`);
      return { data: { status: 'ok' as const, database: app.database.kind } };
    },
  );
}
