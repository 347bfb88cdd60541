import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export async function fileRoutes(_app: FastifyInstance, _ctx: AppContext) {}
