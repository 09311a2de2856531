import { randomUUID } from 'node:crypto';
import type { Bus, Unsubscribe } from '../bus/bus.js';

/** Bus channel on which changes of access (role, department, overrides, a role's rights) travel. */
export const ACCESS_CHANGE_CHANNEL = 'user.access-changed';

/** Whose access changed: one user, or every holder of one role. */
export type AccessChange = { userId: string } | { roleId: string };

interface AccessChangeMessage {
  change: AccessChange;
  /** The bus object that published it: its own replica has handled the change already. */
  origin: string;
}

type Listener = (change: AccessChange) => Promise<void>;

/**
 * The listeners of this process per bus object (one per container, hence
 * one per API replica), so that the publishing replica re-checks its own
 * sockets before the request that made the change answers.
 */
const localListeners = new WeakMap<Bus, Set<Listener>>();
const origins = new WeakMap<Bus, string>();

function originOf(bus: Bus): string {
  let origin = origins.get(bus);
  if (!origin) {
    origin = randomUUID();
    origins.set(bus, origin);
  }
  return origin;
}

/**
 * Tells every API replica that access changed, so their sockets re-check it.
 * Call after the change commits and after the access stamps moved, and await
 * it before answering: it resolves once this replica's sockets have
 * re-resolved their actors (subscriptions no longer allowed are dropped) and
 * the message is on the bus for the other replicas.
 */
export async function publishAccessChange(bus: Bus, change: AccessChange): Promise<void> {
  const message: AccessChangeMessage = { change, origin: originOf(bus) };
  await Promise.all([
    bus.publish(ACCESS_CHANGE_CHANNEL, message),
    ...[...(localListeners.get(bus) ?? [])].map((listener) => listener(change)),
  ]);
}

/**
 * Socket registries listen here: `handler` runs for changes published by this
 * replica (awaited by the publisher) and by any other replica (from the bus).
 * A handler must mark what it re-checks synchronously, before its first
 * await: the bus delivers in order, and an event that follows the change on
 * the bus must already find the socket marked.
 */
export async function onAccessChange(bus: Bus, handler: Listener): Promise<Unsubscribe> {
  let listeners = localListeners.get(bus);
  if (!listeners) {
    listeners = new Set();
    localListeners.set(bus, listeners);
  }
  listeners.add(handler);
  const origin = originOf(bus);
  const unsubscribe = await bus.subscribe(ACCESS_CHANGE_CHANNEL, (message) => {
    const { change, origin: from } = message as AccessChangeMessage;
    if (from !== origin) return handler(change);
  });
  return async () => {
    listeners?.delete(handler);
    await unsubscribe();
  };
}
