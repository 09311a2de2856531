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
  /** Subscribed namespace → its department, as checked at subscribe (and at each access change since). */
  namespaceIds: Map<string, string>;
}

/** The namespace of an agent-task event, when this subscriber is subscribed to it. */
function subscribedNamespace(subscriber: Subscriber, envelope: EventEnvelope): string | null {
  const { namespaceId } = envelope.payload as RealtimeEvents['agent-task.created'];
  return namespaceId && subscriber.namespaceIds.has(namespaceId) ? namespaceId : null;
}

/**
 * Sends the event if the subscriber's current actor may see its department
 * and the namespace is still subscribed when the check runs (it may wait for
 * an access re-check, which can drop the subscription).
 */
function deliver(subscriber: Subscriber, namespaceId: string, envelope: EventEnvelope): void {
  const { departmentId } = envelope.payload as RealtimeEvents['agent-task.created'];
  subscriber.session.withCurrentActor((actor) => {
    if (subscriber.namespaceIds.has(namespaceId) && canAccessDepartment(actor, departmentId)) {
      subscriber.session.send(envelope.event, envelope.payload);
    }
  });
}

/**
 * After an access change: drops every subscription whose department the
 * user no longer reaches, with an `error` event naming the namespace.
 */
function dropWithdrawn(subscriber: Subscriber, actor: Actor): void {
  for (const [namespaceId, departmentId] of [...subscriber.namespaceIds]) {
    if (canAccessDepartment(actor, departmentId)) continue;
    subscriber.namespaceIds.delete(namespaceId);
    subscriber.session.send('error', {
      message: `Namespace ${namespaceId} is no longer in your departments: unsubscribed`,
      namespaceId,
    });
  }
}

/**
 * `/ws/agent-tasks`: after the hub's handshake a client subscribes to
 * namespaces of its departments and receives their `agent-task.*` events.
 * Each replica listens to the bus channel itself and forwards to its own
 * sockets, so an event published by any worker reaches every subscriber.
 * Access follows the user: an access change drops the subscriptions whose
 * department the user no longer reaches (an `error` event each), and every
 * event is checked against the user's current actor when it is delivered.
 */
export async function registerAgentTaskSocket(
  app: FastifyInstance,
  options: AgentTaskSocketOptions,
): Promise<void> {
  const { hub, namespaceDepartment } = options;
  const subscribers = new Set<Subscriber>();

  const unsubscribe = await subscribeEvents(options.bus, AGENT_TASK_CHANNEL, (envelope) => {
    for (const subscriber of subscribers) {
      const namespaceId = subscribedNamespace(subscriber, envelope);
      if (namespaceId) deliver(subscriber, namespaceId, envelope);
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
    // The actor as of now: a change made on another replica may not have reached this one's bus yet.
    const actor = await session.currentActor();
    if (!actor) return;
    const departmentId = await visibleDepartment(actor, namespaceId);
    if (!departmentId) {
      return session.send('error', { message: `Namespace ${namespaceId} not found`, namespaceId });
    }
    if (!subscriber.namespaceIds.has(namespaceId) && subscriber.namespaceIds.size >= MAX_SUBSCRIPTIONS) {
      return session.send('error', {
        message: `At most ${MAX_SUBSCRIPTIONS} namespaces per connection`,
        namespaceId,
      });
    }
    subscriber.namespaceIds.set(namespaceId, departmentId);
    session.send('subscribed', { namespaceId });
  }

  /** The namespace's department when it exists and the actor reaches it; null otherwise. */
  async function visibleDepartment(actor: Actor, namespaceId: string): Promise<string | null> {
    const departmentId = await namespaceDepartment(namespaceId);
    return departmentId !== null && canAccessDepartment(actor, departmentId) ? departmentId : null;
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
        const subscriber: Subscriber = { session, namespaceIds: new Map() };
        subscribers.add(subscriber);
        return {
          async onMessage(message) {
            if (message.action === 'subscribe') return subscribe(subscriber, message.namespaceId);
            if (message.action === 'unsubscribe') return unsubscribeFrom(subscriber, message.namespaceId);
            session.send('error', { message: 'action must be subscribe or unsubscribe' });
          },
          onClose: () => subscribers.delete(subscriber),
          onAccessChange: (_previous, next) => dropWithdrawn(subscriber, next),
        };
      });
    },
  });
}
