import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import { createLostEvalRuns, EVAL_QUEUE, startEvaluationWorker } from './evaluation.jobs.js';
import { createEvaluationRepository } from './evaluation.repository.js';
import { evaluationRoutes } from './evaluation.routes.js';
import { createEvaluationService, type EvaluationServiceDeps } from './evaluation.service.js';
import { createEvaluationRunner, type EvaluationPorts } from './evaluation-runner.js';

/** Evaluation per namespace: golden questions, runs in the background through draft and classifier. */
export function createEvaluationModule(deps: {
  db: Database;
  queue: QueueDriver;
  logger: FastifyBaseLogger;
  ports: EvaluationPorts & EvaluationServiceDeps['ports'];
}) {
  const evaluation = createEvaluationRepository(deps.db);
  const runner = createEvaluationRunner({ evaluation, ports: deps.ports, logger: deps.logger });
  const service = createEvaluationService({ db: deps.db, evaluation, queue: deps.queue, ports: deps.ports });
  const lostRuns = createLostEvalRuns({ evaluation, queue: deps.queue });
  return defineModule({
    service,
    runner,
    lostRuns,
    // Adds again the job of an evaluation run left queued or running without one.
    recurring: [{ name: lostRuns.name, everyMs: lostRuns.everyMs, run: (slot) => lostRuns.requeue(slot) }],
    repositories: { evaluation },
    routes: (api) => api.register(evaluationRoutes, { evaluation: service }),
    jobs: { [EVAL_QUEUE]: () => startEvaluationWorker(deps.queue, runner) },
  });
}
