import type { FastifyBaseLogger } from 'fastify';
import type { TokenService } from '../../core/auth/jwt.js';
import type { Database } from '../../core/db/client.js';
import type { OrganisationRepositories } from '../users/users.module.js';
import { createAuthRepository } from './auth.repository.js';
import { createAuthService } from './auth.service.js';

export function createAuthModule(
  deps: OrganisationRepositories & { db: Database; tokens: TokenService; logger: FastifyBaseLogger },
) {
  return createAuthService({ ...deps, auth: createAuthRepository(deps.db) });
}
