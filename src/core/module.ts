import type { FastifyInstance } from 'fastify';
import type { QueueName } from './queue/queue.js';
import type { RecurringTask } from './scheduler.js';

/**
 * Registers an area's routes on the API-prefixed instance app.ts hands it,
 * with the services the module was built with (so app.ts needs no per-area
 * options). Typically `(api) => api.register(auditRoutes, { audit: service })`.
 */
export type RegisterRoutes = (api: FastifyInstance) => PromiseLike<unknown>;

/**
 * What every `src/modules/<area>/<area>.module.ts` returns, so container.ts
 * builds every area the same way and app.ts registers them all in one loop.
 *
 * Besides these fields a module exposes its services as named members:
 * `service` for the one its routes call, other names for the rest (`trust`,
 * `classifier`, `bases`, `documents`…). Other areas receive a service or a
 * repository from container.ts, never the module itself.
 */
export interface AppModule {
  /** Repositories that other areas (through container.ts) or tests read, by name. */
  readonly repositories?: Readonly<Record<string, object>>;
  /** Registers the area's HTTP routes under the API prefix; absent for areas without endpoints. */
  readonly routes?: RegisterRoutes;
  /** Registers what must live outside the API prefix (a load-balancer probe, static files). */
  readonly rootRoutes?: RegisterRoutes;
  /**
   * Queue consumers (and the timers that tick beside them) the area owns,
   * by queue name; workers/index.ts starts them in the processes that
   * consume jobs (run modes `all` and `worker`).
   */
  readonly jobs?: Readonly<Partial<Record<QueueName, () => void>>>;
  /**
   * The area's recurring tasks: the worker processes hand every area's to
   * the scheduler (workers/schedules.ts), which runs each time slot once
   * across replicas.
   */
  readonly recurring?: readonly RecurringTask[];
  /**
   * Stops the area's timers (and loops such as the channel B poller, which
   * releases its lock); container.close awaits it before the queue closes.
   */
  close?(): void | Promise<void>;
}

/**
 * Checks a module against {@link AppModule} while keeping its own precise
 * type (its named services stay typed for container.ts and tests).
 */
export function defineModule<M extends AppModule>(module: M): M {
  return module;
}
