import type { FastifyBaseLogger } from 'fastify';
import { type AccessStamps, NO_ACCESS_STAMPS } from '../auth/access-stamps.js';
import type { Actor } from '../auth/actor.js';
import type { TokenClaims, TokenService } from '../auth/jwt.js';
import type { Bus, Unsubscribe } from '../bus/bus.js';
import { type AccessChange, onAccessChange } from './access-changes.js';
import { createLiveActor, type LiveActor } from './live-actor.js';
import { onRevocation } from './revocations.js';

/** Close codes of the sockets (the 4000 range is the application's). */
export const CLOSE_CODES = {
  /** No `auth` message within the handshake time. */
  handshakeTimeout: 4001,
  /** A bad token, a message before `auth`, the user's sessions were revoked, or access re-checked and lost. */
  forbidden: 4003,
  /** The user's access could not be re-checked (the database did not answer): reconnect. */
  internalError: 1011,
  /** The server is shutting down. */
  goingAway: 1001,
} as const;

/** The default handshake time: the first message must come within it. */
export const HANDSHAKE_TIMEOUT_MS = 5_000;
/** Frames larger than this are refused by the WebSocket server itself. */
export const MAX_FRAME_BYTES = 16 * 1024;

/** The part of a `ws` socket the hub uses. */
export interface RealtimeSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** An authenticated connection. */
export interface Session {
  /** The user as of the last access re-check (see `withCurrentActor` for deliveries). */
  readonly actor: Actor;
  /**
   * Runs `deliver` with the user's current actor, checked against the access
   * stamps: at once in the steady state, else after the re-check that an
   * access change calls for, in call order. A session closed meanwhile skips it.
   */
  withCurrentActor(deliver: (actor: Actor) => void): void;
  /** The current actor as `withCurrentActor` sees it; null when the session closed meanwhile. */
  currentActor(): Promise<Actor | null>;
  /** Sends `{ event, payload }` while the socket is open; dropped silently otherwise. */
  send(event: string, payload: unknown): void;
  /** Sends another frame shape (the notification socket's `{ type, payload }`), on the same terms. */
  sendFrame(frame: Record<string, unknown>): void;
  close(code: number, reason: string): void;
}

/** What a socket endpoint does with an authenticated session. */
export interface SessionHandlers {
  /** A parsed JSON message after authentication (never the `auth` message). */
  onMessage(message: Record<string, unknown>): Promise<void> | void;
  onClose(): void;
  /**
   * The user's access changed and the session stays open: drop what `next`
   * no longer allows, telling the client. Runs before the request that made
   * the change answers (on its replica).
   */
  onAccessChange?(previous: Actor, next: Actor): void;
}

export interface SocketHubOptions {
  tokens: TokenService;
  /** The same resolver the HTTP routes use: null for a stale, inactive or unknown user. */
  resolveActor(claims: TokenClaims): Promise<Actor | null>;
  bus: Bus;
  /** The marks the resolver caches by (core/auth/access-stamps.ts); none unless given. */
  accessStamps?: AccessStamps;
  logger: FastifyBaseLogger;
  /** How long a socket may stay unauthenticated; 5 s unless given. */
  handshakeTimeoutMs?: number;
}

const OPEN = 1;

function parse(data: unknown): Record<string, unknown> | null {
  try {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/**
 * The first-message handshake and the session registry that every socket
 * endpoint shares. A socket must send `{ action: 'auth', token }` first and
 * within the handshake time (else close 4001); a bad token, or any other
 * first message, closes it with 4003. A token in the URL is read only when
 * the endpoint hands it over (the notification socket does; see `accept`).
 * Revocations published on the bus (logout-all, password change,
 * deactivation) close the user's sessions on every replica, since each
 * replica's hub listens on the bus for its own sockets. Access changes
 * (core/realtime/access-changes.ts) make the sessions they name re-resolve
 * their actor: the endpoint drops what is no longer allowed, and a user who
 * may no longer connect is closed with 4003. Deliveries check the actor
 * against the access stamps as well (core/realtime/live-actor.ts).
 */
export async function createSocketHub(options: SocketHubOptions) {
  const { tokens, resolveActor, logger } = options;
  const stamps = options.accessStamps ?? NO_ACCESS_STAMPS;
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
  const sessionsByUser = new Map<string, Set<Session>>();
  const liveActors = new Map<Session, LiveActor>();

  function forget(session: Session): void {
    const sessions = sessionsByUser.get(session.actor.userId);
    sessions?.delete(session);
    if (sessions?.size === 0) sessionsByUser.delete(session.actor.userId);
    liveActors.delete(session);
  }

  const stopRevocations: Unsubscribe = await onRevocation(options.bus, (revocation) => {
    for (const session of [...(sessionsByUser.get(revocation.userId) ?? [])]) {
      session.close(CLOSE_CODES.forbidden, `Session revoked (${revocation.reason})`);
    }
  });

  /** The sessions a change names; each is marked stale before this returns (see onAccessChange). */
  function recheck(change: AccessChange): Promise<void>[] {
    const sessions =
      'userId' in change
        ? [...(sessionsByUser.get(change.userId) ?? [])]
        : [...liveActors.keys()].filter((session) => session.actor.roleId === change.roleId);
    return sessions.flatMap((session) => liveActors.get(session)?.recheck() ?? []);
  }
  const stopAccessChanges: Unsubscribe = await onAccessChange(options.bus, async (change) => {
    await Promise.all(recheck(change));
  });

  /** The claims, the stamp read before resolving, and the actor; null when the handshake fails. */
  async function authenticate(message: Record<string, unknown> | null) {
    if (message?.action !== 'auth' || typeof message.token !== 'string') return null;
    if (message.token.length === 0 || message.token.length > 4096) return null;
    const claims = tokens.verify(message.token);
    if (!claims) return null;
    const stamp = await stamps.read(claims.sub);
    const actor = await resolveActor(claims);
    return actor ? { claims, stamp, actor } : null;
  }

  return {
    /**
     * Runs the handshake on a new socket, then hands every later message to
     * the handlers `onAuthenticated` returns. Messages are processed one at
     * a time in the order they arrived, so a subscribe sent right after
     * `auth` waits for the handshake instead of being refused.
     */
    accept(
      socket: RealtimeSocket,
      onAuthenticated: (session: Session) => SessionHandlers,
      options: { queryToken?: string } = {},
    ): void {
      let session: Session | null = null;
      let handlers: SessionHandlers | null = null;
      let closed = false;
      let chain: Promise<void> = Promise.resolve();

      const close = (code: number, reason: string) => {
        if (closed) return;
        closed = true;
        socket.close(code, reason);
      };
      const timer = setTimeout(
        () => close(CLOSE_CODES.handshakeTimeout, 'Authentication timed out'),
        handshakeTimeoutMs,
      );

      const handle = async (message: Record<string, unknown> | null): Promise<void> => {
        if (closed) return;
        if (!session) {
          const authenticated = await authenticate(message);
          if (closed) return;
          if (!authenticated) return close(CLOSE_CODES.forbidden, 'Authentication failed');
          clearTimeout(timer);
          const sendFrame = (frame: Record<string, unknown>) => {
            if (!closed && socket.readyState === OPEN) socket.send(JSON.stringify(frame));
          };
          const live = createLiveActor({
            ...authenticated,
            stamps,
            resolveActor,
            isClosed: () => closed,
            onChange: (previous, next) => handlers?.onAccessChange?.(previous, next),
            onLost: (error) => {
              if (error === undefined) return close(CLOSE_CODES.forbidden, 'Access revoked');
              logger.error({ err: error }, 'socket access re-check failed');
              close(CLOSE_CODES.internalError, 'Access could not be re-checked');
            },
          });
          const current: Session = {
            get actor() {
              return live.actor;
            },
            withCurrentActor: (deliver) => live.withCurrent(deliver),
            currentActor: () => live.current(),
            send: (event, payload) => sendFrame({ event, payload }),
            sendFrame,
            close,
          };
          session = current;
          let sessions = sessionsByUser.get(live.actor.userId);
          if (!sessions) {
            sessions = new Set();
            sessionsByUser.set(live.actor.userId, sessions);
          }
          sessions.add(current);
          liveActors.set(current, live);
          handlers = onAuthenticated(current);
          current.send('authenticated', {});
          return;
        }
        if (!message) return session.send('error', { message: 'Messages must be JSON objects' });
        if (message.action === 'auth') return session.send('error', { message: 'Already authenticated' });
        await handlers?.onMessage(message);
      };

      const enqueue = (message: Record<string, unknown> | null) => {
        chain = chain.then(() =>
          handle(message).catch((error: unknown) => {
            logger.error({ err: error }, 'socket message failed');
            session?.send('error', { message: 'The message could not be processed' });
          }),
        );
      };
      // A query token is the handshake's first message; anything the client sends waits behind it.
      if (options.queryToken !== undefined) enqueue({ action: 'auth', token: options.queryToken });
      socket.on('message', (data) => enqueue(parse(data)));
      socket.on('error', (error) => logger.debug({ err: error }, 'socket error'));
      socket.on('close', () => {
        closed = true;
        clearTimeout(timer);
        if (session) forget(session);
        handlers?.onClose();
      });
    },

    /** Authenticated sessions of this replica, per user (for diagnostics and tests of the hub). */
    sessionCount(): number {
      let total = 0;
      for (const sessions of sessionsByUser.values()) total += sessions.size;
      return total;
    },

    /** Stops listening for revocations and access changes and closes every session of this replica. */
    async close(): Promise<void> {
      await stopRevocations();
      await stopAccessChanges();
      for (const sessions of [...sessionsByUser.values()]) {
        for (const session of [...sessions]) session.close(CLOSE_CODES.goingAway, 'Server shutting down');
      }
      sessionsByUser.clear();
      liveActors.clear();
    },
  };
}

export type SocketHub = Awaited<ReturnType<typeof createSocketHub>>;
