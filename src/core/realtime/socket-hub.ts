import type { FastifyBaseLogger } from 'fastify';
import type { Actor } from '../auth/actor.js';
import type { TokenClaims, TokenService } from '../auth/jwt.js';
import type { Bus, Unsubscribe } from '../bus/bus.js';
import { onRevocation } from './revocations.js';

/** Close codes of the sockets (the 4000 range is the application's). */
export const CLOSE_CODES = {
  /** No `auth` message within the handshake time. */
  handshakeTimeout: 4001,
  /** A bad token, a message before `auth`, or the user's sessions were revoked. */
  forbidden: 4003,
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
  readonly actor: Actor;
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
}

export interface SocketHubOptions {
  tokens: TokenService;
  /** The same resolver the HTTP routes use: null for a stale, inactive or unknown user. */
  resolveActor(claims: TokenClaims): Promise<Actor | null>;
  bus: Bus;
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
 * replica's hub listens on the bus for its own sockets.
 */
export async function createSocketHub(options: SocketHubOptions) {
  const { tokens, resolveActor, logger } = options;
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS;
  const sessionsByUser = new Map<string, Set<Session>>();

  function forget(session: Session): void {
    const sessions = sessionsByUser.get(session.actor.userId);
    sessions?.delete(session);
    if (sessions?.size === 0) sessionsByUser.delete(session.actor.userId);
  }

  const unsubscribe: Unsubscribe = await onRevocation(options.bus, (revocation) => {
    for (const session of [...(sessionsByUser.get(revocation.userId) ?? [])]) {
      session.close(CLOSE_CODES.forbidden, `Session revoked (${revocation.reason})`);
    }
  });

  async function authenticate(message: Record<string, unknown> | null): Promise<Actor | null> {
    if (message?.action !== 'auth' || typeof message.token !== 'string') return null;
    if (message.token.length === 0 || message.token.length > 4096) return null;
    const claims = tokens.verify(message.token);
    return claims ? resolveActor(claims) : null;
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
          const actor = await authenticate(message);
          if (closed) return;
          if (!actor) return close(CLOSE_CODES.forbidden, 'Authentication failed');
          clearTimeout(timer);
          const sendFrame = (frame: Record<string, unknown>) => {
            if (!closed && socket.readyState === OPEN) socket.send(JSON.stringify(frame));
          };
          const current: Session = {
            actor,
            send: (event, payload) => sendFrame({ event, payload }),
            sendFrame,
            close,
          };
          session = current;
          let sessions = sessionsByUser.get(actor.userId);
          if (!sessions) {
            sessions = new Set();
            sessionsByUser.set(actor.userId, sessions);
          }
          sessions.add(current);
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

    /** Stops listening for revocations and closes every session of this replica. */
    async close(): Promise<void> {
      await unsubscribe();
      for (const sessions of [...sessionsByUser.values()]) {
        for (const session of [...sessions]) session.close(CLOSE_CODES.goingAway, 'Server shutting down');
      }
      sessionsByUser.clear();
    },
  };
}

export type SocketHub = Awaited<ReturnType<typeof createSocketHub>>;
