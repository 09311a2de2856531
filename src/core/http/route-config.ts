import type { Actor } from '../auth/actor.js';
import type { TokenClaims } from '../auth/jwt.js';
import type { Permission } from '../auth/permissions.js';
import { UnauthorizedError } from '../errors/app-errors.js';

/** How the audit hook treats a route (see core/audit). */
export interface AuditConfig {
  /** Overrides the entity type derived from the path. */
  entityType?: string;
  /** Overrides the action derived from the method. */
  action?: string;
  /** Route param holding the entity id (default `id`). */
  idParam?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every route; boot fails without it so nothing is public by accident. */
    auth?: 'none' | 'user';
    /** Named permission(s); with several, holding any one of them is enough. */
    permission?: Permission | readonly Permission[];
    /** `false` skips the audit entry (reads, noisy or secret-only endpoints). */
    audit?: AuditConfig | false;
    /**
     * On `auth: 'user'` routes a browser opens as a page (the queue dashboard): a cookie that
     * may carry a token instead of the Authorization header, checked by its own verifier.
     */
    tokenCookie?: TokenCookie;
  }
  interface FastifyRequest {
    /** Set by the auth plugin on `auth: 'user'` routes. */
    actor: Actor | null;
    /** The user an unauthenticated route acted for (login), for the audit entry. */
    auditUserId?: string;
  }
}

/** A cookie that may stand in for the bearer header, and what verifies its token. */
export interface TokenCookie {
  name: string;
  verify(token: string): TokenClaims | null;
}

/** The actor of an authenticated route; routes with `auth: 'user'` always have one. */
export function requireActor(request: { actor: Actor | null }): Actor {
  if (!request.actor) throw new UnauthorizedError();
  return request.actor;
}
