import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** Staff workspace reads: queue, client page, request page, team, file download (docs/api.md, "Staff"). */
export async function staffReadRoutes(_app: FastifyInstance, _ctx: AppContext) {}
