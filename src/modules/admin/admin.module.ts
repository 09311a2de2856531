import { defineModule } from '../../core/module.js';
import type { AnyQueueDriver } from '../../core/queue/index.js';
import { adminRoutes } from './admin.routes.js';
import { createAdminService } from './admin.service.js';
import { queueBoardPlugin } from './queue-board.js';

/** Operations: the queue dashboard at /admin/queues and the session that opens it in a browser. */
export function createAdminModule(deps: { queue: AnyQueueDriver; jwtSecret: string }) {
  const service = createAdminService({ jwtSecret: deps.jwtSecret });
  return defineModule({
    service,
    routes: (api) => api.register(adminRoutes, { admin: service }),
    rootRoutes: (app) => app.register(queueBoardPlugin, { queue: deps.queue, cookie: service.cookie }),
  });
}
