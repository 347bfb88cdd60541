import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { HttpError } from './errors.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerFaults } from './plugins/faults.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { adminRoutes } from './routes/admin.ts';
import { contactRoutes } from './routes/contact.ts';
import { eventRoutes } from './routes/events.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes } from './routes/health.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { requestRoutes } from './routes/requests.ts';
import { staffActionRoutes } from './routes/staff-actions.ts';
import { staffReadRoutes } from './routes/staff-read.ts';
import { syncRoutes } from './routes/sync.ts';
import { toolRoutes } from './routes/tools.ts';
import { userRoutes } from './routes/user.ts';

/** Builds the whole app without listening (fastify/demo's app/listen split): tests call app.inject. */
export async function buildApp(ctx: AppContext, opts: { logger?: boolean } = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ? { level: 'info' } : false,
    bodyLimit: 1024 * 1024,
    // Firebase uids run to 128 characters; the default cap of 100 would answer 414 before our validation.
    routerOptions: { maxParamLength: 200 },
    trustProxy: ctx.config.TRUST_PROXY ? ctx.config.TRUST_PROXY.split(',').map((a) => a.trim()) : false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler(app));

  await app.register(helmet, { contentSecurityPolicy: { directives: cspDirectives(ctx) } });
  // Brotli/gzip for the app's code and the API's JSON: on a slow mobile link, bytes are the first cost.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(rateLimit, { global: false });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: ctx.storage.maxBytes, files: 10, fields: 50, fieldSize: 64 * 1024 },
    // The body becomes { field: value } with files as Buffers, so validation and idempotency see it whole.
    onFile: async (part) => {
      const buffer = await part.toBuffer();
      (part as unknown as { value: unknown }).value = { filename: part.filename, mimetype: part.mimetype, data: buffer };
    },
  });
  await app.register(swagger, {
    openapi: { info: { title: 'Client portal API', version: '1.0.0' }, servers: [{ url: '/' }] },
    transform: jsonSchemaTransform,
  });

  registerAuth(app, { db: ctx.db, identity: ctx.identity });
  const afterIdempotency = ctx.config.TEST_FAULTS === '1' ? registerFaults(app, ctx.db) : () => undefined;
  registerIdempotency(app, ctx.db);
  afterIdempotency();

  await app.register(
    async (api) => {
      for (const routes of [healthRoutes, userRoutes, toolRoutes, requestRoutes, notificationRoutes, contactRoutes, fileRoutes, adminRoutes, staffReadRoutes, staffActionRoutes, syncRoutes, eventRoutes]) {
        await routes(api, ctx);
      }
      api.get('/docs', { schema: { hide: true } }, async () => app.swagger());
    },
    { prefix: '/api' },
  );

  await serveApp(app, ctx);
  return app;
}

function cspDirectives(ctx: AppContext) {
  const emulator = ctx.config.FIREBASE_AUTH_EMULATOR_HOST ? [`http://${ctx.config.FIREBASE_AUTH_EMULATOR_HOST}`] : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // Chakra (emotion) injects its styles at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", 'https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', ...emulator],
    frameSrc: ['https://www.youtube-nocookie.com'],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
}

function errorHandler(app: FastifyInstance) {
  return (error: FastifyError, request: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const message = error.validation
        .map((v) => {
          const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
          return field ? `${field}: ${v.message}` : v.message;
        })
        .join('; ');
      return reply.status(400).send({ error: { code: 'VALIDATION_FAILED', message: message || 'Invalid request' } });
    }
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) } });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({ error: { code: error.code ?? 'BAD_REQUEST', message: error.message } });
    }
    app.log.error({ err: error, url: request.url }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' } });
  };
}

/** Serves the built PWA: hashed assets cached for a year, index.html never, SPA fallback for routes. */
async function serveApp(app: FastifyInstance, ctx: AppContext) {
  const root = path.resolve(ctx.config.STATIC_DIR);
  const indexPath = path.join(root, 'index.html');
  const hasBuild = existsSync(indexPath);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      // index.html goes through injectClientConfig (the not-found handler below), never straight from disk.
      allowedPath: (pathName) => pathName !== '/index.html',
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const html = () => injectClientConfig(readFileSync(indexPath, 'utf8'), ctx);
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api') && hasBuild;
    if (!isPage) {
      return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}` } });
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(html());
  });
  if (hasBuild) app.get('/', (_req, reply) => reply.type('text/html').header('cache-control', 'no-cache').send(html()));
}

/** The client reads its runtime settings from a meta tag, so one build runs against any environment. */
export function injectClientConfig(indexHtml: string, ctx: AppContext): string {
  const clientConfig = {
    projectId: ctx.config.FIREBASE_PROJECT_ID,
    apiKey: ctx.config.FIREBASE_WEB_API_KEY,
    authDomain: `${ctx.config.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    authEmulatorHost: ctx.config.FIREBASE_AUTH_EMULATOR_HOST ?? null,
  };
  const json = JSON.stringify(clientConfig).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return indexHtml.replace('<meta name="portal-config" content="{}" />', `<meta name="portal-config" content="${json}" />`);
}
