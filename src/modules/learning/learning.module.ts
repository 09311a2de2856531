import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../core/db/client.js';
import type { EmbeddingProvider } from '../../core/llm/llm.js';
import { defineModule } from '../../core/module.js';
import { createLearningRepository } from './learning.repository.js';
import { learningRoutes } from './learning.routes.js';
import { createLearningService, type LearningServiceDeps } from './learning.service.js';
import { createLearningEdits, type LearningEditsDeps } from './learning-edits.js';

/**
 * Learning from edits: edited approvals yield suggestions (`prepare` and
 * `recordEdit`, called by the approval decision), reviewed at /learning/suggestions.
 */
export function createLearningModule(deps: {
  db: Database;
  embeddings: EmbeddingProvider;
  logger: FastifyBaseLogger;
  ports: LearningServiceDeps['ports'] & Pick<LearningEditsDeps, 'messageContent'>;
}) {
  const learning = createLearningRepository(deps.db);
  const edits = createLearningEdits({ learning, ...deps, messageContent: deps.ports.messageContent });
  const service = createLearningService({ learning, ports: deps.ports });
  return defineModule({
    service,
    prepare: edits.prepare,
    recordEdit: edits.recordEdit,
    repositories: { learning },
    routes: (api) => api.register(learningRoutes, { learning: service }),
  });
}

export type LearningModule = ReturnType<typeof createLearningModule>;
