import type { Database } from '../../core/db/client.js';
import { createAgentTasksRepository } from './agent-tasks.repository.js';
import { createAgentTasksService } from './agent-tasks.service.js';

/** The agent-task monitor (read side of the tasks the pipeline writes). */
export function createAgentTasksModule(deps: { db: Database }) {
  const tasks = createAgentTasksRepository(deps.db);
  return { repository: tasks, service: createAgentTasksService({ tasks }) };
}
