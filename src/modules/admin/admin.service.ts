import { createHmac } from 'node:crypto';
import type { Actor } from '../../core/auth/actor.js';
import { createTokenService } from '../../core/auth/jwt.js';
import type { TokenCookie } from '../../core/http/route-config.js';

/** Where the queue dashboard lives, outside the API prefix. */
export const QUEUE_BOARD_PATH = '/admin/queues';
/** The cookie a browser carries to the dashboard. */
export const QUEUE_BOARD_COOKIE = 'queue_board_session';
/** How long a dashboard session lasts: short, since the cookie is a bearer credential. */
export const QUEUE_BOARD_SESSION_SEC = 15 * 60;

/**
 * Dashboard sessions: short-lived tokens signed with a key derived from the
 * JWT secret, so a session token is no API token (and an API token is no
 * session token), while tokenVersion still revokes both.
 */
export function createAdminService(deps: { jwtSecret: string; now?: () => number }) {
  const key = createHmac('sha256', deps.jwtSecret).update('queue-board-session').digest('base64url');
  const tokens = createTokenService(key, QUEUE_BOARD_SESSION_SEC);
  const now = deps.now ?? Date.now;
  const cookie: TokenCookie = { name: QUEUE_BOARD_COOKIE, verify: tokens.verify };
  return {
    /** The route config that lets the dashboard's routes take the session cookie. */
    cookie,

    /**
     * Opens a dashboard session for the actor (who holds canEditSettings, checked by the route):
     * the token for the cookie and when it expires. The token is never put in a response body.
     */
    openQueueBoardSession(actor: Actor): { token: string; expiresAt: string; maxAgeSec: number } {
      const token = tokens.sign(actor.userId, actor.tokenVersion);
      const expiresAt = new Date(now() + QUEUE_BOARD_SESSION_SEC * 1000).toISOString();
      return { token, expiresAt, maxAgeSec: QUEUE_BOARD_SESSION_SEC };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
