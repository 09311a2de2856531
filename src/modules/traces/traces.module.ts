import type { Database } from '../../core/db/client.js';
import { createTracesRepository } from './traces.repository.js';
import { createTracesService } from './traces.service.js';

/** LLM traces (the runs the pipeline's generate step writes). */
export function createTracesModule(deps: { db: Database }) {
  const traces = createTracesRepository(deps.db);
  return { repository: traces, service: createTracesService({ traces }) };
}
