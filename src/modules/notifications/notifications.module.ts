import type { Bus } from '../../core/bus/bus.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { DriverLogger } from '../../core/logger.js';
import { defineModule } from '../../core/module.js';
import { createNotificationRetention } from './notification-retention.js';
import { createNotificationsRepository } from './notifications.repository.js';
import { notificationsRoutes } from './notifications.routes.js';
import { createNotificationsService } from './notifications.service.js';

/** The inbox: rows, the producers' notify/publish path, and the retention purge. */
export function createNotificationsModule(deps: {
  db: Database;
  bus: Bus;
  kv: KeyValue;
  logger: DriverLogger;
}) {
  const repository = createNotificationsRepository(deps.db);
  const service = createNotificationsService({ notifications: repository, bus: deps.bus });
  const retention = createNotificationRetention({ ...deps, purge: () => service.purgeRead() });
  return defineModule({
    repository,
    service,
    retention,
    routes: (api) => api.register(notificationsRoutes, { notifications: service }),
    recurring: [{ name: retention.name, everyMs: retention.everyMs, run: () => retention.purge() }],
  });
}

export type NotificationsModule = ReturnType<typeof createNotificationsModule>;
