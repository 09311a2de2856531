import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import cors from '@fastify/cors';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Container } from './container.js';
import { registerAuditHook } from './core/audit/audit-hook.js';
import { accessStampsOf } from './core/auth/access-stamps.js';
import authPlugin from './core/auth/auth-plugin.js';
import { handleFrameworkError, registerErrorHandling } from './core/errors/error-handler.js';
import { API_PREFIX, registerOpenApi } from './core/http/openapi.js';
import { registerRateLimit } from './core/http/rate-limit.js';
import { genReqId, registerRequestIdHeader } from './core/http/request-id.js';
import { registerRequestLog } from './core/http/request-log.js';
import { registerRouteInventory } from './core/http/route-inventory.js';
import { ErrorEnvelopeSchema } from './core/http/schemas.js';
import { registerValidation } from './core/http/validation.js';
import { registerSockets } from './core/realtime/sockets.js';
import { VERSION } from './core/version.js';
import { agentTasksRoutes } from './modules/agent-tasks/agent-tasks.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { conversationsRoutes } from './modules/conversations/conversations.routes.js';
import { departmentsRoutes } from './modules/departments/departments.routes.js';
import { employeeProfilesRoutes } from './modules/employee-profiles/employee-profiles.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { intentsRoutes } from './modules/intents/intents.routes.js';
import { documentsRoutes } from './modules/knowledge/documents.routes.js';
import { knowledgeBasesRoutes } from './modules/knowledge/knowledge-bases.routes.js';
import { AVATAR_URL_PREFIX } from './modules/me/avatar-storage.js';
import { meRoutes } from './modules/me/me.routes.js';
import { namespacesRoutes } from './modules/namespaces/namespaces.routes.js';
import { permissionsRoutes } from './modules/permissions/permissions.routes.js';
import { ragRoutes } from './modules/rag/rag.routes.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { tracesRoutes } from './modules/traces/traces.routes.js';
import { createActorResolver } from './modules/users/actor-resolver.js';
import { userOverridesRoutes } from './modules/users/user-overrides.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';

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
    return503OnClosing: true,
    // One line per request from registerRequestLog instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>();

  registerRequestIdHeader(app);
  registerRequestLog(app);
  registerErrorHandling(app);
  registerRouteInventory(app);
  registerValidation(app);
  app.addSchema(ErrorEnvelopeSchema);
  await app.register(cors, { origin: config.corsOrigins, credentials: true });
  await app.register(multipart, {
    limits: { fileSize: config.uploadMaxBytes, files: 1, fields: 20, fieldSize: 64 * 1024 },
  });
  // One resolver (and its actor cache) for the HTTP routes and the sockets' handshake.
  const resolveActor = createActorResolver(container.repositories.users, accessStampsOf(container.db));
  await app.register(authPlugin, {
    tokens: container.tokens,
    resolveActor,
    publicPrefixes: ['/docs', AVATAR_URL_PREFIX],
  });
  registerRateLimit(app, container.kv);
  // Before any route, so every route of every plugin gets the hook.
  registerAuditHook(app, container.audit, API_PREFIX);
  await registerOpenApi(app, VERSION);

  mkdirSync(container.me.avatarDir, { recursive: true });
  await app.register(fastifyStatic, {
    root: container.me.avatarDir,
    prefix: AVATAR_URL_PREFIX,
    decorateReply: false,
    index: false,
    serveDotFiles: false,
  });

  // Load balancers probe /health; the documented operation lives under the API prefix.
  await app.register(healthRoutes, { health: container.health, path: '/health', hidden: true });
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { health: container.health, path: '/health' });
      await api.register(authRoutes, { auth: container.auth, rateLimitPerMin: config.authRateLimitPerMin });
      await api.register(meRoutes, { me: container.me.service });
      await api.register(departmentsRoutes, { departments: container.departments });
      await api.register(rolesRoutes, { roles: container.roles });
      await api.register(usersRoutes, { users: container.users.service });
      await api.register(userOverridesRoutes, { overrides: container.users.overrides });
      await api.register(permissionsRoutes, { permissions: container.permissions });
      await api.register(employeeProfilesRoutes, { profiles: container.employeeProfiles });
      await api.register(auditRoutes, { audit: container.audit });
      await api.register(ragRoutes, { rag: container.rag.service });
      await api.register(knowledgeBasesRoutes, { bases: container.knowledge.bases });
      await api.register(documentsRoutes, {
        documents: container.knowledge.documents,
        files: container.knowledge.files,
        uploadMaxBytes: config.uploadMaxBytes,
      });
      await api.register(namespacesRoutes, { namespaces: container.namespaces.service });
      await api.register(intentsRoutes, {
        intents: container.intents.service,
        trust: container.intents.trust,
      });
      await api.register(agentTasksRoutes, { agentTasks: container.agentTasks.service });
      await api.register(tracesRoutes, { traces: container.traces.service });
      await api.register(conversationsRoutes, { conversations: container.conversations.service });
    },
    { prefix: API_PREFIX },
  );
  // WebSocket endpoints live outside the API prefix (/ws/...).
  await registerSockets(app, {
    tokens: container.tokens,
    resolveActor,
    bus: container.bus,
    namespaceDepartment: async (id) =>
      (await container.namespaces.repository.findById(id))?.departmentId ?? null,
  });
  return app;
}
