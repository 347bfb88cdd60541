import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Services } from './compose.ts';
import type { Config } from './config.ts';
import { HttpError } from './platform/errors.ts';
import { logSerializers } from './platform/log-privacy.ts';
import { faultAnswer, serviceFaultOf } from './platform/service-faults.ts';
import { authPlugin } from './plugins/auth.ts';
import { configPlugin } from './plugins/config.ts';
import { databasePlugin } from './plugins/database.ts';
import { deliveriesPlugin } from './plugins/deliveries.ts';
import { eventsPlugin } from './plugins/events.ts';
import { dropAnswersPlugin, faultsPlugin } from './plugins/faults.ts';
import { idempotencyPlugin } from './plugins/idempotency.ts';
import { identityPlugin } from './plugins/identity.ts';
import { inputTextPlugin } from './plugins/input-text.ts';
import { jsonBodyPlugin } from './plugins/json-body.ts';
import { mailerPlugin } from './plugins/mailer.ts';
import { securityHeadersPlugin } from './plugins/security-headers.ts';
import { storagePlugin } from './plugins/storage.ts';
import { trackingPlugin } from './plugins/tracking.ts';
import { uploadsPlugin } from './plugins/uploads.ts';
import { writeLimitsPlugin } from './plugins/write-limits.ts';
import { adminRoutes } from './routes/admin.ts';
import { adminDeliveryRoutes } from './routes/admin-deliveries.ts';
import { contactRoutes } from './routes/contact.ts';
import { eventRoutes } from './routes/events.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes } from './routes/health.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { pushRoutes } from './routes/push.ts';
import { requestRoutes } from './routes/requests.ts';
import { securityRoutes } from './routes/security.ts';
import { seenRoutes } from './routes/seen.ts';
import { businessSettingsRoutes } from './routes/business-settings.ts';
import { staffActionRoutes } from './routes/staff-actions.ts';
import { staffReadRoutes } from './routes/staff-read.ts';
import { staffSupportRoutes } from './routes/staff-support.ts';
import { staffSyncRoutes } from './routes/staff-sync.ts';
import { staffTrackingRoutes } from './routes/staff-tracking.ts';
import { syncRoutes } from './routes/sync.ts';
import { toolRoutes } from './routes/tools.ts';
import { trackingRoutes } from './routes/tracking.ts';
import { unsubscribeRoutes } from './routes/unsubscribe.ts';
import { userRoutes } from './routes/user.ts';
import { bootScriptHash, readFirstPaints, withFirstPaint } from './platform/first-paint.ts';

/**
 * Builds the whole app without listening (fastify/demo's app/listen split): main.ts listens, tests
 * call app.inject. Shared decorators are fastify-plugin plugins on the root; each route file is an
 * encapsulated plugin under /api that reads them (app.db, app.events, request.user, …).
 */
export async function buildApp(services: Services, opts: { logger?: boolean; logStream?: { write(line: string): void } } = {}): Promise<FastifyInstance> {
  const logEveryRequest = (services.config.LOG_REQUESTS ?? (services.config.NODE_ENV === 'production' ? 'errors' : 'all')) === 'all';
  const app = Fastify({
    logger: opts.logger || opts.logStream ? { level: 'info', serializers: logSerializers, ...(opts.logStream ? { stream: opts.logStream } : {}) } : false,
    logController: new LogController({ disableRequestLogging: !logEveryRequest }),
    bodyLimit: 1024 * 1024,
    // Firebase uids run to 128 characters; the default cap of 100 would answer 414 before our validation.
    routerOptions: { maxParamLength: 200 },
    trustProxy: services.config.TRUST_PROXY ? services.config.TRUST_PROXY.split(',').map((a) => a.trim()) : false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler());
  if (!logEveryRequest) app.addHook('onResponse', logFailedRequest);

  await registerServices(app, services);
  await app.register(trackingPlugin);
  await registerHttpPlugins(app);
  await registerRequestPlugins(app);
  await app.register(apiRoutes, { prefix: '/api' });
  // Track Master links live on the portal's own host, outside /api, and before the PWA's static files
  // and SPA fallback: a registered route wins over both, so /t/{slug} never serves index.html.
  await app.register(trackingRoutes);
  await serveApp(app);
  return app;
}

/** The opened services as root decorators: app.config, app.database and app.db, app.identity, app.events, app.storage; and app.mailer and app.deliveries, made from the config. */
export async function registerServices(app: FastifyInstance, services: Services) {
  await app.register(configPlugin, { config: services.config });
  await app.register(databasePlugin, { database: services.database });
  await app.register(identityPlugin, { identity: services.identity });
  await app.register(eventsPlugin, { events: services.events });
  await app.register(storagePlugin, { storage: services.storage });
  await app.register(mailerPlugin);
  await app.register(deliveriesPlugin, { options: { email: services.config.email.enabled, emailDelaySeconds: services.config.email.delaySeconds } });
}

async function registerHttpPlugins(app: FastifyInstance) {
  await app.register(securityHeadersPlugin, { helmet: { contentSecurityPolicy: { directives: cspDirectives(app.config) } } });
  // Brotli/gzip for the app's code and the API's JSON: on a slow mobile link, bytes are the first cost.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  await app.register(jsonBodyPlugin);
  await app.register(uploadsPlugin);
  await app.register(swagger, {
    openapi: { info: { title: 'Client portal API', version: '1.0.0' }, servers: [{ url: '/' }] },
    transform: jsonSchemaTransform,
  });
}

/**
 * Auth, then the request hooks on every route. Hooks run in the order they are added, so the order
 * here is the order of work: faults decide before a key is claimed, and drop an answer only after
 * idempotency stored it (server/plugins/faults.ts).
 */
async function registerRequestPlugins(app: FastifyInstance) {
  await app.register(authPlugin);
  await app.register(writeLimitsPlugin);
  await app.register(inputTextPlugin);
  const faults = app.config.TEST_FAULTS === '1';
  if (faults) await app.register(faultsPlugin);
  await app.register(idempotencyPlugin);
  if (faults) await app.register(dropAnswersPlugin);
}

const routePlugins = [
  healthRoutes,
  userRoutes,
  toolRoutes,
  requestRoutes,
  notificationRoutes,
  pushRoutes,
  unsubscribeRoutes,
  seenRoutes,
  securityRoutes,
  contactRoutes,
  fileRoutes,
  adminRoutes,
  adminDeliveryRoutes,
  staffReadRoutes,
  staffActionRoutes,
  staffSupportRoutes,
  staffSyncRoutes,
  staffTrackingRoutes,
  businessSettingsRoutes,
  syncRoutes,
  eventRoutes,
];

/** Each route file is its own encapsulated plugin: its hooks and error handlers stay with its routes. */
async function apiRoutes(api: FastifyInstance) {
  // Personal data by default: no shared cache and no browser cache may keep an answer. The few answers
  // that may be cached (downloads, invoices) set their own header, which this leaves alone.
  api.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  for (const routes of routePlugins) await api.register(routes);
  api.get('/docs', { schema: { hide: true } }, async () => api.swagger());
}

function cspDirectives(config: Config) {
  const emulator = config.FIREBASE_AUTH_EMULATOR_HOST ? [`http://${config.FIREBASE_AUTH_EMULATOR_HOST}`] : [];
  return {
    defaultSrc: ["'self'"],
    // The one inline script: the boot script of a page with a static first paint (server/platform/first-paint.ts).
    scriptSrc: ["'self'", bootScriptHash],
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

/** With request logging off, a request answered 4xx or 5xx still gets its line (and its request id). */
async function logFailedRequest(request: FastifyRequest, reply: FastifyReply) {
  if (reply.statusCode >= 400) request.log.warn({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request failed');
}

function errorHandler() {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
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
    if (isMalformedMultipart(error)) {
      return reply.status(400).send({ error: { code: 'BAD_UPLOAD', message: 'The upload could not be read: the form was malformed or cut short. Please try again.' } });
    }
    // The database gone or the disk full: 503 or 507 with Retry-After, which the outbox retries, never a 500.
    const fault = serviceFaultOf(error);
    if (fault) {
      const { error: answer, retryAfterSeconds } = faultAnswer(fault);
      request.log.warn({ err: error, req: request }, fault);
      return reply
        .status(answer.statusCode)
        .header('retry-after', String(retryAfterSeconds))
        .send({ error: { code: answer.code, message: answer.message } });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({ error: { code: error.code ?? 'BAD_REQUEST', message: error.message } });
    }
    // The request's own logger: the line carries its request id, and the address goes through the redacting serializer.
    request.log.error({ err: error, req: request }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' } });
  };
}

/**
 * The multipart parser's own errors (busboy's "Multipart: Boundary not found", "Unexpected end of
 * multipart data", "… terminated early …") carry no status: they are the sender's broken form, not ours.
 */
function isMalformedMultipart(error: Error): boolean {
  return !('statusCode' in error && error.statusCode) && /^(Multipart: |Boundary required|Unexpected end of multipart data|.* terminated early due to unexpected end of multipart data)/.test(error.message);
}

/** Serves the built PWA: hashed assets cached for a year, index.html never, SPA fallback for routes. */
async function serveApp(app: FastifyInstance) {
  const root = path.resolve(app.config.STATIC_DIR);
  const indexPath = path.join(root, 'index.html');
  const hasBuild = existsSync(indexPath);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      // The build writes each asset's .br and .gz beside it (vite.config.ts): sent as they are, not compressed per request.
      preCompressed: true,
      // index.html goes through injectClientConfig (the not-found handler below), never straight from disk.
      allowedPath: (pathName) => pathName !== '/index.html',
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const paints = readFirstPaints(root);
  const html = (url: string) => withFirstPaint(injectClientConfig(readFileSync(indexPath, 'utf8'), app.config), url, paints);
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api') && hasBuild;
    if (!isPage) {
      return reply.status(404).send({ error: { code: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}` } });
    }
    return reply.type('text/html').header('cache-control', 'no-cache').send(html(request.url));
  });
  if (hasBuild) app.get('/', (request, reply) => reply.type('text/html').header('cache-control', 'no-cache').send(html(request.url)));
}

/** The client reads its runtime settings from a meta tag, so one build runs against any environment. */
export function injectClientConfig(indexHtml: string, config: Config): string {
  const clientConfig = {
    projectId: config.FIREBASE_PROJECT_ID,
    apiKey: config.FIREBASE_WEB_API_KEY,
    authDomain: `${config.FIREBASE_PROJECT_ID}.firebaseapp.com`,
    authEmulatorHost: config.FIREBASE_AUTH_EMULATOR_HOST ?? null,
  };
  const json = JSON.stringify(clientConfig).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return indexHtml.replace('<meta name="portal-config" content="{}" />', `<meta name="portal-config" content="${json}" />`);
}
