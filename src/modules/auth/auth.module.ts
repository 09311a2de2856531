import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from '../../core/auth/jwt.js';
import type { Bus } from '../../core/bus/bus.js';
import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { OrganisationRepositories } from '../users/organisation-repositories.js';
import { createAuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';

/** Login, registration, tokens and password resets; `rateLimitPerMin` bounds the public endpoints. */
export function createAuthModule(
  deps: OrganisationRepositories & {
    db: Database;
    tokens: TokenService;
    logger: FastifyBaseLogger;
    bus: Bus;
    rateLimitPerMin: number;
  },
) {
  const auth = createAuthRepository(deps.db);
  const service = createAuthService({ ...deps, auth });
  return defineModule({
    service,
    repositories: { auth },
    routes: (api) => api.register(authRoutes, { auth: service, rateLimitPerMin: deps.rateLimitPerMin }),
  });
}
