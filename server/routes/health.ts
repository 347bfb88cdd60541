import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../context.ts';

export async function healthRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get(
    '/health',
    { schema: { response: { 200: z.object({ data: z.object({ status: z.literal('ok'), database: z.string() }) }) } } },
    async () => {
      await ctx.db.execute(sql`select 1`);
      return { data: { status: 'ok' as const, database: ctx.database.kind } };
    },
  );
}
