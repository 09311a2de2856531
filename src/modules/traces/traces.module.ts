import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import { createTracesRepository } from './traces.repository.js';
import { tracesRoutes } from './traces.routes.js';
import { createTracesService } from './traces.service.js';

/** LLM traces (the runs the pipeline's generate step writes). */
export function createTracesModule(deps: { db: Database }) {
  const traces = createTracesRepository(deps.db);
  const service = createTracesService({ traces });
  return defineModule({
    service,
    repositories: { traces },
    routes: (api) => api.register(tracesRoutes, { traces: service }),
  });
}
