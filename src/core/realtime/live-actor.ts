import type { AccessStamps } from '../auth/access-stamps.js';
import type { Actor } from '../auth/actor.js';
import type { TokenClaims } from '../auth/jwt.js';

/**
 * With stamps in the shared key-value store (Redis) a socket re-reads its
 * user's stamp before a delivery at most this often. The bus message of a
 * change already marks the socket before any later event (one ordered
 * subscriber connection), so this only bounds what a message lost in a Redis
 * reconnect could leak.
 */
export const STAMP_RECHECK_MS = 1_000;

export interface LiveActorOptions {
  claims: TokenClaims;
  actor: Actor;
  /** The access stamp read before `actor` was resolved. */
  stamp: string;
  stamps: AccessStamps;
  resolveActor(claims: TokenClaims): Promise<Actor | null>;
  /** The actor changed after a re-check: drop what it no longer allows. */
  onChange(previous: Actor, next: Actor): void;
  /** The user may no longer hold the socket (inactive, token revoked), or the re-check failed. */
  onLost(error?: unknown): void;
  isClosed(): boolean;
}

/**
 * The actor of one socket, kept current: deliveries run against the actor
 * as it is now, in the order they were asked for. Steady state costs no
 * read: a delivery runs at once when the actor is known current (embedded:
 * the in-memory stamp still reads the same; Redis: no access-change message
 * since, and the stamp checked within {@link STAMP_RECHECK_MS}; no stamps:
 * no access-change message since). Otherwise deliveries queue behind one
 * re-check, which reloads the actor only when its stamp moved or a change
 * named it.
 */
export function createLiveActor(options: LiveActorOptions) {
  const { claims, stamps, resolveActor } = options;
  let actor = options.actor;
  let stamp = options.stamp;
  let checkedAt = Date.now();
  /** An access-change message named this socket's user or role: reload, whatever the stamp says. */
  let stale = false;
  /** The queue of deliveries waiting behind a re-check; null while nothing waits. */
  let tail: Promise<void> | null = null;

  function knownCurrent(): boolean {
    if (stale) return false;
    if (stamps.kind === 'memory') return stamps.read(actor.userId) === stamp;
    if (stamps.kind === 'key-value') return Date.now() - checkedAt < STAMP_RECHECK_MS;
    return true;
  }

  async function refresh(): Promise<void> {
    // The stamp before the rows: a change landing in between reloads next time.
    const current = await stamps.read(actor.userId);
    if (!stale && current === stamp) {
      checkedAt = Date.now();
      return;
    }
    stale = false;
    const next = await resolveActor(claims);
    if (options.isClosed()) return;
    if (!next) return options.onLost();
    const previous = actor;
    actor = next;
    stamp = current;
    checkedAt = Date.now();
    options.onChange(previous, next);
  }

  function enqueue(step: () => Promise<void> | void): Promise<void> {
    const run = (tail ?? Promise.resolve())
      .then(async () => {
        if (options.isClosed()) return;
        if (!knownCurrent()) await refresh();
        if (!options.isClosed()) await step();
      })
      .catch((error: unknown) => options.onLost(error));
    tail = run;
    void run.finally(() => {
      if (tail === run) tail = null;
    });
    return run;
  }

  /**
   * Runs `deliver` with the current actor: at once when it is known current
   * and nothing waits, else after the re-check, in call order.
   */
  function withCurrent(deliver: (actor: Actor) => void): void {
    if (tail === null && knownCurrent()) deliver(actor);
    else void enqueue(() => deliver(actor));
  }

  return {
    get actor(): Actor {
      return actor;
    },

    withCurrent,

    /** The current actor, as `withCurrent` would see it; null when the socket closed meanwhile. */
    current(): Promise<Actor | null> {
      return new Promise((resolve) => {
        withCurrent(resolve);
        // A delivery skipped because the socket closed: the queue ends without it (first resolve wins).
        if (tail) void tail.then(() => resolve(null));
      });
    },

    /**
     * Marks the actor stale at once (later deliveries wait) and re-resolves
     * it; resolves when the re-check is done.
     */
    recheck(): Promise<void> {
      stale = true;
      return enqueue(() => undefined);
    },
  };
}

export type LiveActor = ReturnType<typeof createLiveActor>;
