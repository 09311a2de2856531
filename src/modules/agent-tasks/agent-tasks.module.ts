import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import { createAgentTasksRepository } from './agent-tasks.repository.js';
import { agentTasksRoutes } from './agent-tasks.routes.js';
import { createAgentTasksService } from './agent-tasks.service.js';

/** The agent-task monitor (read side of the tasks the pipeline writes). */
export function createAgentTasksModule(deps: { db: Database }) {
  const tasks = createAgentTasksRepository(deps.db);
  const service = createAgentTasksService({ tasks });
  return defineModule({
    service,
    repositories: { tasks },
    routes: (api) => api.register(agentTasksRoutes, { agentTasks: service }),
  });
}
