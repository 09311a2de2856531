import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import fastifyCors from '@fastify/cors';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Container } from './container.js';
import { registerAuditHook } from './core/audit/audit-hook.js';
import { accessStampsOf } from './core/auth/access-stamps.js';
import authPlugin from './core/auth/auth-plugin.js';
import {
  handleClientError,
  handleFrameworkError,
  MAX_PARAM_LENGTH,
  registerErrorHandling,
} from './core/errors/error-handler.js';
import { corsOptions } from './core/http/cors.js';
import { API_PREFIX, registerOpenApi } from './core/http/openapi.js';
import { registerRateLimit } from './core/http/rate-limit.js';
import { genReqId, registerRequestIdHeader } from './core/http/request-id.js';
import { registerRequestLog } from './core/http/request-log.js';
import { registerRouteInventory } from './core/http/route-inventory.js';
import { ErrorEnvelopeSchema } from './core/http/schemas.js';
import { CSP, registerSecurityHeaders } from './core/http/security-headers.js';
import { AVATAR_URL_PREFIX } from './core/http/user-fields.js';
import { registerValidation } from './core/http/validation.js';
import { registerHttpMetrics } from './core/metrics/http-metrics.js';
import { registerSockets } from './core/realtime/sockets.js';
import { VERSION } from './core/version.js';
import { QUEUE_BOARD_PATH } from './modules/admin/admin.service.js';
import { CONSOLE_PATH } from './modules/console/console.routes.js';
import { createActorResolver } from './modules/users/actor-resolver.js';

/** Builds the HTTP application on a container. Never listens: main.ts does, tests use `inject`. */
export async function buildApp(container: Container): Promise<FastifyInstance> {
  const { config } = container;
  const app = Fastify<Server>({
    loggerInstance: container.logger,
    trustProxy: config.trustProxy,
    // genReqId reads X-Request-Id itself: the header is taken only when it is sane.
    requestIdHeader: false,
    genReqId,
    frameworkErrors: handleFrameworkError,
    clientErrorHandler: handleClientError,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    return503OnClosing: true,
    // One line per request from registerRequestLog instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerRequestIdHeader(app);
  registerSecurityHeaders(app, {
    [CONSOLE_PATH]: CSP.console,
    '/docs': CSP.docs,
    [QUEUE_BOARD_PATH]: CSP.queueBoard,
  });
  registerRequestLog(app);
  registerHttpMetrics(app, container.metrics.httpRequestDuration);
  registerErrorHandling(app);
  registerRouteInventory(app);
  registerValidation(app);
  app.addSchema(ErrorEnvelopeSchema);
  // CORS is off unless CORS_ORIGIN lists origins (docs/security.md).
  const cors = corsOptions(config.corsOrigins);
  if (cors) await app.register(fastifyCors, cors);
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 20, fieldSize: 64 * 1024 },
  });
  // One resolver (and its actor cache) for the HTTP routes and the sockets' handshake.
  const resolveActor = createActorResolver(container.repositories.users, accessStampsOf(container.db));
  await app.register(authPlugin, {
    tokens: container.tokens,
    resolveActor,
    // The queue dashboard gives its plugin-made routes their auth config itself (modules/admin/queue-board.ts).
    publicPrefixes: ['/docs', AVATAR_URL_PREFIX, QUEUE_BOARD_PATH],
  });
  registerRateLimit(app, container.kv);
  // Before any route, so every route of every plugin gets the hook.
  registerAuditHook(app, container.audit.service, API_PREFIX);
  await registerOpenApi(app, VERSION);

  mkdirSync(container.me.avatarDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: container.me.avatarDir,
    prefix: AVATAR_URL_PREFIX,
    decorateReply: false,
    index: false,
    serveDotFiles: false,
  });

  // Every area registers its own routes (core/module.ts): first what lives outside the API prefix.
  for (const area of container.modules) if (area.rootRoutes) await area.rootRoutes(app);
  await app.register(
    async (api) => {
      for (const area of container.modules) if (area.routes) await area.routes(api);
    },
    { prefix: API_PREFIX },
  );
  // WebSocket endpoints live outside the API prefix (/ws/...).
  await registerSockets(app, {
    tokens: container.tokens,
    resolveActor,
    bus: container.bus,
    accessStamps: accessStampsOf(container.db),
    namespaceDepartment: async (id) =>
      (await container.namespaces.repositories.namespaces.findById(id))?.departmentId ?? null,
  });
  return app;
}
