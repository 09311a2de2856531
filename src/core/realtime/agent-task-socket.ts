import type { FastifyInstance } from 'fastify';
import type { Actor } from '../auth/actor.js';
import { canAccessDepartment } from '../auth/department-scope.js';
import type { Bus } from '../bus/bus.js';
import { BadRequestError } from '../errors/app-errors.js';
import { AGENT_TASK_CHANNEL, type EventEnvelope, type RealtimeEvents, subscribeEvents } from './events.js';
import type { Session, SocketHub } from './socket-hub.js';

/** At most this many namespaces per socket. */
export const MAX_SUBSCRIPTIONS = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AgentTaskSocketOptions {
  hub: SocketHub;
  bus: Bus;
  /** The department of a namespace; null when there is no such namespace. */
  namespaceDepartment(namespaceId: string): Promise<string | null>;
  path?: string;
}

interface Subscriber {
  session: Session;
  namespaceIds: Set<string>;
}

/** Whether the event may go to this subscriber: its namespace is subscribed and its department visible. */
function wants(subscriber: Subscriber, envelope: EventEnvelope): boolean {
  const payload = envelope.payload as RealtimeEvents['agent-task.created'];
  if (!payload.namespaceId || !subscriber.namespaceIds.has(payload.namespaceId)) return false;
  return canAccessDepartment(subscriber.session.actor, payload.departmentId);
}

/**
 * `/ws/agent-tasks`: after the hub's handshake a client subscribes to
 * namespaces of its departments and receives their `agent-task.*` events.
 * Each replica listens to the bus channel itself and forwards to its own
 * sockets, so an event published by any worker reaches every subscriber.
 */
export async function registerAgentTaskSocket(
  app: FastifyInstance,
  options: AgentTaskSocketOptions,
): Promise<void> {
  const { hub, namespaceDepartment } = options;
  const subscribers = new Set<Subscriber>();

  const unsubscribe = await subscribeEvents(options.bus, AGENT_TASK_CHANNEL, (envelope) => {
    for (const subscriber of subscribers) {
      if (wants(subscriber, envelope)) subscriber.session.send(envelope.event, envelope.payload);
    }
  });
  app.addHook('onClose', async () => {
    await unsubscribe();
  });

  /** Subscribes when the namespace exists and lies in the actor's departments; answers the refusal otherwise. */
  async function subscribe(subscriber: Subscriber, namespaceId: unknown): Promise<void> {
    const { session } = subscriber;
    if (typeof namespaceId !== 'string' || !UUID.test(namespaceId)) {
      return session.send('error', {
        message: 'namespaceId must be a UUID',
        namespaceId: namespaceId ?? null,
      });
    }
    if (!(await visible(session.actor, namespaceId))) {
      return session.send('error', { message: `Namespace ${namespaceId} not found`, namespaceId });
    }
    if (!subscriber.namespaceIds.has(namespaceId) && subscriber.namespaceIds.size >= MAX_SUBSCRIPTIONS) {
      return session.send('error', {
        message: `At most ${MAX_SUBSCRIPTIONS} namespaces per connection`,
        namespaceId,
      });
    }
    subscriber.namespaceIds.add(namespaceId);
    session.send('subscribed', { namespaceId });
  }

  async function visible(actor: Actor, namespaceId: string): Promise<boolean> {
    const departmentId = await namespaceDepartment(namespaceId);
    return departmentId !== null && canAccessDepartment(actor, departmentId);
  }

  function unsubscribeFrom(subscriber: Subscriber, namespaceId: unknown): void {
    const { session, namespaceIds } = subscriber;
    if (namespaceId === undefined || namespaceId === null) {
      namespaceIds.clear();
      session.send('unsubscribed', { namespaceId: null });
    } else if (typeof namespaceId !== 'string') {
      session.send('error', { message: 'namespaceId must be a UUID', namespaceId });
    } else {
      namespaceIds.delete(namespaceId);
      session.send('unsubscribed', { namespaceId });
    }
  }

  app.route({
    method: 'GET',
    url: options.path ?? '/ws/agent-tasks',
    // Authentication is the first-message handshake, not a header: see the hub.
    config: { auth: 'none', audit: false },
    schema: { hide: true },
    // A plain HTTP request (no Upgrade) gets the error envelope instead of an empty 404.
    handler: async () => {
      throw new BadRequestError('This endpoint speaks WebSocket: connect with an Upgrade request');
    },
    wsHandler: (socket) => {
      hub.accept(socket, (session) => {
        const subscriber: Subscriber = { session, namespaceIds: new Set() };
        subscribers.add(subscriber);
        return {
          async onMessage(message) {
            if (message.action === 'subscribe') return subscribe(subscriber, message.namespaceId);
            if (message.action === 'unsubscribe') return unsubscribeFrom(subscriber, message.namespaceId);
            session.send('error', { message: 'action must be subscribe or unsubscribe' });
          },
          onClose: () => subscribers.delete(subscriber),
        };
      });
    },
  });
}
