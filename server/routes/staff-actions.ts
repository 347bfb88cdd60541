import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

/** Staff workspace writes: lifecycle transitions, contract, payments, final file, approval, roles. */
export async function staffActionRoutes(_app: FastifyInstance, _ctx: AppContext) {}
