import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { AccessStamps } from '../auth/access-stamps.js';
import type { Actor } from '../auth/actor.js';
import type { TokenClaims, TokenService } from '../auth/jwt.js';
import type { Bus } from '../bus/bus.js';
import { registerAgentTaskSocket } from './agent-task-socket.js';
import { registerNotificationSocket } from './notification-socket.js';
import { createSocketHub, MAX_FRAME_BYTES, type SocketHub } from './socket-hub.js';

export interface SocketsOptions {
  tokens: TokenService;
  resolveActor(claims: TokenClaims): Promise<Actor | null>;
  bus: Bus;
  /** The marks `resolveActor` caches by: sockets check deliveries against them (none unless given). */
  accessStamps?: AccessStamps;
  /** The department of a namespace; null when there is no such namespace. */
  namespaceDepartment(namespaceId: string): Promise<string | null>;
}

/**
 * The WebSocket endpoints (`/ws/...`), outside the API prefix: one hub
 * (handshake, revocations) shared by every socket endpoint. Answers the hub
 * so that further endpoints can be registered on it.
 */
export async function registerSockets(app: FastifyInstance, options: SocketsOptions): Promise<SocketHub> {
  await app.register(websocket, { options: { maxPayload: MAX_FRAME_BYTES } });
  const hub = await createSocketHub({
    tokens: options.tokens,
    resolveActor: options.resolveActor,
    bus: options.bus,
    accessStamps: options.accessStamps,
    logger: app.log,
  });
  // Before @fastify/websocket's own close of the server, so clients get a reason.
  app.addHook('preClose', async () => {
    await hub.close();
  });
  await registerAgentTaskSocket(app, {
    hub,
    bus: options.bus,
    namespaceDepartment: options.namespaceDepartment,
  });
  await registerNotificationSocket(app, { hub, bus: options.bus });
  return hub;
}
