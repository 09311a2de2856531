import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { ChatProvider, EmbeddingProvider } from '../../core/llm/llm.js';
import { defineModule } from '../../core/module.js';
import { exampleMarksFor } from './example-marks.js';
import { createIntentClassifier } from './intent-classifier.js';
import { createIntentExamplesRepository } from './intent-examples.repository.js';
import { createModelIntentChooser } from './intent-model-fallback.js';
import { createIntentSeeder } from './intent-seeding.js';
import { createIntentTrustRepository } from './intent-trust.repository.js';
import { createIntentTrustService } from './intent-trust.service.js';
import { intentsRoutes } from './intents.routes.js';
import { createIntentsService } from './intents.service.js';

/** Intent examples, the nearest-example classifier, trust records and the seeding command. */
export function createIntentsModule(deps: {
  db: Database;
  embeddings: EmbeddingProvider;
  /** With both, the classifier keeps example vectors in memory (see intent-classifier.ts). */
  kv?: KeyValue;
  driver?: 'pglite' | 'postgres';
  /** INTENT_MODEL_FALLBACK with a configured model: the chat model asked about uncertain classifications. */
  modelFallback?: ChatProvider | null;
}) {
  const repositories = {
    examples: createIntentExamplesRepository(deps.db),
    trust: createIntentTrustRepository(deps.db),
  };
  const { kv, driver } = deps;
  const marks = kv && driver ? exampleMarksFor(deps.db, driver, kv) : undefined;
  const classifier = createIntentClassifier({
    examples: repositories.examples,
    embeddings: deps.embeddings,
    ...(marks ? { marks } : {}),
    ...(deps.modelFallback ? { chooser: createModelIntentChooser(deps.modelFallback) } : {}),
  });
  const service = createIntentsService({ ...deps, ...repositories, classifier });
  const trust = createIntentTrustService(repositories);
  const seeder = createIntentSeeder({ examples: repositories.examples, service });
  return defineModule({
    service,
    trust,
    classifier,
    seeder,
    repositories,
    routes: (api) => api.register(intentsRoutes, { intents: service, trust }),
  });
}

export type IntentsModule = ReturnType<typeof createIntentsModule>;
