import type { Bus, Unsubscribe } from '../bus/bus.js';

/** Bus channel on which a user's sessions are revoked (logout-all, password change, deactivation). */
export const REVOCATION_CHANNEL = 'user.revoked';

export interface Revocation {
  userId: string;
  reason: 'logout-all' | 'password-changed' | 'deactivated' | 'password-reset';
}

/** Tells every API replica to close the user's open sockets. Call after the tokenVersion bump commits. */
export async function publishRevocation(bus: Bus, revocation: Revocation): Promise<void> {
  await bus.publish(REVOCATION_CHANNEL, revocation);
}

/** Socket registries subscribe here to close a revoked user's connections. */
export function onRevocation(bus: Bus, handler: (revocation: Revocation) => void): Promise<Unsubscribe> {
  return bus.subscribe(REVOCATION_CHANNEL, (message) => handler(message as Revocation));
}
