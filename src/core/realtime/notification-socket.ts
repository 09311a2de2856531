import type { FastifyInstance } from 'fastify';
import type { Bus } from '../bus/bus.js';
import { BadRequestError } from '../errors/app-errors.js';
import { NOTIFICATION_CHANNEL, type NotificationPayload, subscribeEvents } from './events.js';
import type { Session, SocketHub } from './socket-hub.js';

export interface NotificationSocketOptions {
  hub: SocketHub;
  bus: Bus;
  path?: string;
}

/** The `token` query parameter as the handshake takes it: absent, or a string (anything else fails it). */
function queryToken(query: unknown): string | undefined {
  if (!query || typeof query !== 'object' || !('token' in query)) return undefined;
  const token = (query as { token: unknown }).token;
  return typeof token === 'string' ? token : '';
}

/**
 * `/ws/notifications`: after the hub's handshake (the first-message `auth`,
 * or a `token` query parameter) the socket receives
 * `{ type: 'notification.created', payload }` for its own user's new rows.
 * Each replica listens to the bus channel and forwards to its own sockets of
 * `payload.userId` only, so a row written by any process reaches the owner
 * wherever they are connected. Pushes go through the hub's access check
 * like agent-task events: a user whose access was withdrawn since (inactive,
 * sessions revoked) is closed with 4003 before anything more is sent.
 */
export async function registerNotificationSocket(
  app: FastifyInstance,
  options: NotificationSocketOptions,
): Promise<void> {
  const { hub } = options;
  const sessionsByUser = new Map<string, Set<Session>>();

  const unsubscribe = await subscribeEvents(options.bus, NOTIFICATION_CHANNEL, (envelope) => {
    if (envelope.event !== 'notification.created') return;
    const payload = envelope.payload as NotificationPayload;
    for (const session of sessionsByUser.get(payload.userId) ?? []) {
      // Behind any access re-check in flight: a user found inactive meanwhile is closed instead.
      session.withCurrentActor(() => session.sendFrame({ type: envelope.event, payload }));
    }
  });
  app.addHook('onClose', async () => {
    await unsubscribe();
  });

  function forget(session: Session): void {
    const sessions = sessionsByUser.get(session.actor.userId);
    sessions?.delete(session);
    if (sessions?.size === 0) sessionsByUser.delete(session.actor.userId);
  }

  app.route({
    method: 'GET',
    url: options.path ?? '/ws/notifications',
    // Authentication is the handshake (first message or query token), not a header: see the hub.
    config: { auth: 'none', audit: false },
    schema: { hide: true },
    // A plain HTTP request (no Upgrade) gets the error envelope instead of an empty 404.
    handler: async () => {
      throw new BadRequestError('This endpoint speaks WebSocket: connect with an Upgrade request');
    },
    wsHandler: (socket, request) => {
      hub.accept(
        socket,
        (session) => {
          let sessions = sessionsByUser.get(session.actor.userId);
          if (!sessions) {
            sessions = new Set();
            sessionsByUser.set(session.actor.userId, sessions);
          }
          sessions.add(session);
          return {
            onMessage() {
              session.send('error', { message: 'This socket only pushes; it takes no messages after auth' });
            },
            onClose: () => forget(session),
          };
        },
        { queryToken: queryToken(request.query) },
      );
    },
  });
}
