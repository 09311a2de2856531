import type { DatabaseHandle } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { AnyQueueDriver } from '../../core/queue/index.js';
import { adminRoutes } from './admin.routes.js';
import { createAdminService } from './admin.service.js';
import { backupRoutes } from './backup.routes.js';
import { createBackupService } from './backup.service.js';
import { queueBoardPlugin } from './queue-board.js';

/** Operations: the queue dashboard at /admin/queues, the session that opens it in a browser, and backups. */
export function createAdminModule(deps: {
  queue: AnyQueueDriver;
  jwtSecret: string;
  database: Pick<DatabaseHandle, 'driver' | 'snapshot'>;
  dataDir: string;
  serviceVersion: string;
}) {
  const service = createAdminService({ jwtSecret: deps.jwtSecret });
  const backups = createBackupService(deps);
  return defineModule({
    service,
    backups,
    routes: async (api) => {
      await api.register(adminRoutes, { admin: service });
      await api.register(backupRoutes, { backups });
    },
    rootRoutes: (app) => app.register(queueBoardPlugin, { queue: deps.queue, cookie: service.cookie }),
  });
}
