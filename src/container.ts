import type { FastifyBaseLogger } from 'fastify';
import { systemActor } from './core/auth/actor.js';
import { createTokenService } from './core/auth/jwt.js';
import { PERMISSIONS } from './core/auth/permissions.js';
import { createBus } from './core/bus/index.js';
import type { Config } from './core/config/config.js';
import { type DatabaseHandle, openDatabase } from './core/db/client.js';
import { alignEmbeddingDimensions } from './core/db/embedding-dimensions.js';
import { createKeyValue } from './core/kv/index.js';
import { createLlmProviders } from './core/llm/index.js';
import { createQueueDriver } from './core/queue/index.js';
import { VERSION } from './core/version.js';
import { createAuditModule } from './modules/audit/audit.module.js';
import { createAuthModule } from './modules/auth/auth.module.js';
import { createDepartmentsModule } from './modules/departments/departments.module.js';
import { createEmployeeProfilesModule } from './modules/employee-profiles/employee-profiles.module.js';
import { createHealthService } from './modules/health/health.service.js';
import { createKnowledgeModule } from './modules/knowledge/knowledge.module.js';
import { createMeModule } from './modules/me/me.module.js';
import { createNamespacesModule } from './modules/namespaces/namespaces.module.js';
import { createPermissionsService } from './modules/permissions/permissions.service.js';
import { createRagModule } from './modules/rag/rag.module.js';
import { createRolesModule } from './modules/roles/roles.module.js';
import { seedSystemRoles } from './modules/roles/system-roles.js';
import { bootstrapAdmin } from './modules/users/bootstrap-admin.js';
import { createOrganisationRepositories, createUsersModule } from './modules/users/users.module.js';

export interface ContainerOptions {
  logger: FastifyBaseLogger;
  /** An already open database (tests pass a per-file copy); opened from the config otherwise. */
  database?: DatabaseHandle;
}

/**
 * Opens the drivers, migrates, builds every module in dependency order and
 * seeds what the service needs to run. Nothing here listens or consumes jobs.
 */
export async function createContainer(config: Config, options: ContainerOptions) {
  const { logger } = options;
  const database = options.database ?? (await openDatabase(config));
  await database.migrate();
  const { db } = database;
  await alignEmbeddingDimensions(db, config.embeddingDimensions);
  const redis = { redisUrl: config.redisUrl, redisPrefix: config.redisPrefix };
  const queue = createQueueDriver(redis, db, logger);
  const kv = createKeyValue(redis, db);
  const bus = createBus(redis, logger);
  const tokens = createTokenService(config.jwt.secret, config.jwt.expiresInSec);
  const llm = createLlmProviders(config);

  const repositories = createOrganisationRepositories(db);
  const auth = createAuthModule({ db, ...repositories, tokens, logger });
  const me = createMeModule({ ...repositories, tokens, bus, dataDir: config.dataDir });
  const audit = createAuditModule({ db, users: repositories.users });
  const departments = createDepartmentsModule({ db, departments: repositories.departments });
  const roles = createRolesModule({ db, ...repositories });
  const users = createUsersModule({ db, ...repositories, bus });
  const employeeProfiles = createEmployeeProfilesModule({ db });
  const permissions = createPermissionsService();
  const knowledge = createKnowledgeModule({
    db,
    departments: repositories.departments,
    queue,
    embeddings: llm.embeddings,
    logger,
    config,
  });
  const namespaces = createNamespacesModule({
    db,
    ...repositories,
    knowledgeBases: knowledge.repositories.bases,
  });
  const rag = createRagModule({ db, llm, departments: repositories.departments });
  const health = createHealthService({
    version: VERSION,
    startedAt: Date.now(),
    llmMode: config.llm.apiKey ? 'configured' : 'offline',
    pingDatabase: () => database.ping(),
    pingQueue: () => queue.ping(),
  });

  await seedSystemRoles(repositories.roles);
  await bootstrapAdmin({ db, ...repositories, logger }, config.admin);

  return {
    config,
    logger,
    database,
    db,
    queue,
    kv,
    bus,
    tokens,
    llm,
    system: systemActor(PERMISSIONS),
    repositories,
    auth,
    me,
    audit,
    departments,
    roles,
    users,
    employeeProfiles,
    permissions,
    knowledge,
    namespaces,
    rag,
    health,
    /** Stops the queue first (in-flight jobs finish), then the bus, key-value store and database. */
    async close(): Promise<void> {
      await queue.close();
      await bus.close();
      await kv.close();
      await database.close();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;
