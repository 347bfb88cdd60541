import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export async function toolRoutes(_app: FastifyInstance, _ctx: AppContext) {}
