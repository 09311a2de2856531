import type { Static } from 'typebox';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import type { Database } from '../../core/db/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import type { RunTotals } from './correctness.js';
import { EVAL_QUEUE, evalRunJobId } from './evaluation.jobs.js';
import type {
  EvalCaseRow,
  EvalRunRow,
  EvalRunSummaryRow,
  EvaluationRepository,
} from './evaluation.repository.js';
import { EVAL_CASES_PER_NAMESPACE, type EvalCaseResult } from './evaluation.schemas.js';
import { type EvaluationPorts, knowledgeBasesOfNamespace } from './evaluation-runner.js';

export interface EvalCaseInput {
  question: string;
  expectedAnswer?: string;
  expectedDocumentId?: string;
  expectedIntent?: string;
}

export interface EvaluationServiceDeps {
  db: Database;
  evaluation: EvaluationRepository;
  queue: QueueDriver;
  ports: Pick<EvaluationPorts, 'findNamespace' | 'knowledgeBaseIdsOfDepartment'> & {
    /** The document's knowledge base, or null when there is no such document. */
    knowledgeBaseOfDocument(documentId: string): Promise<string | null>;
  };
}

/** A case row as the API answers it. */
export function toEvalCase(row: EvalCaseRow) {
  return {
    id: row.id,
    namespaceId: row.namespaceId,
    question: row.question,
    expectedAnswer: row.expectedAnswer,
    expectedDocumentId: row.expectedDocumentId,
    expectedIntent: row.expectedIntent,
    createdBy: row.createdBy,
    createdAt: iso(row.createdAt),
  };
}

/** A run as lists answer it: state, progress and totals, without per-case results. */
export function toEvalRunSummary(row: EvalRunSummaryRow) {
  return {
    id: row.id,
    namespaceId: row.namespaceId,
    status: row.status as 'queued' | 'running' | 'completed' | 'failed',
    caseCount: row.caseCount,
    processed: row.processed,
    // Written by the runner from correctness.ts's runTotals.
    totals: (row.totals ?? null) as RunTotals | null,
    error: row.error,
    requestedBy: row.requestedBy,
    createdAt: iso(row.createdAt),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

/** A run with its per-case results, as `GET …/eval-runs/:runId` answers it. */
export function toEvalRun(row: EvalRunRow) {
  return { ...toEvalRunSummary(row), results: row.results as Static<typeof EvalCaseResult>[] };
}

/** The evaluation endpoints: a namespace's golden questions and the runs that answer them. */
export function createEvaluationService(deps: EvaluationServiceDeps) {
  const { db, evaluation, queue, ports } = deps;

  /** The namespace when it is in the actor's departments; NotFoundError otherwise. */
  async function visibleNamespace(actor: Actor, id: string) {
    return assertVisible(
      actor,
      await ports.findNamespace(id),
      (n) => n.departmentId,
      `Namespace ${id} not found`,
    );
  }

  return {
    /**
     * Adds a case to the namespace.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     * @throws ValidationError when expectedDocumentId is not a document of a knowledge base the namespace searches.
     * @throws ConflictError when the namespace already holds {@link EVAL_CASES_PER_NAMESPACE} cases.
     */
    async createCase(actor: Actor, namespaceId: string, input: EvalCaseInput) {
      const namespace = await visibleNamespace(actor, namespaceId);
      if (input.expectedDocumentId) {
        const searched = await knowledgeBasesOfNamespace(namespace, ports.knowledgeBaseIdsOfDepartment);
        const base = await ports.knowledgeBaseOfDocument(input.expectedDocumentId);
        if (!base || !searched.includes(base)) {
          throw new ValidationError([
            {
              field: 'body.expectedDocumentId',
              message: `document ${input.expectedDocumentId} is not in a knowledge base the namespace searches`,
            },
          ]);
        }
      }
      const row = await db.transaction(async (tx) => {
        await evaluation.lockNamespace(namespace.id, tx);
        if ((await evaluation.countCases(namespace.id, tx)) >= EVAL_CASES_PER_NAMESPACE) {
          throw new ConflictError(
            `Namespace ${namespace.id} already has ${EVAL_CASES_PER_NAMESPACE} evaluation cases; delete some first`,
          );
        }
        return evaluation.insertCase(
          {
            namespaceId: namespace.id,
            question: input.question,
            expectedAnswer: input.expectedAnswer ?? null,
            expectedDocumentId: input.expectedDocumentId ?? null,
            expectedIntent: input.expectedIntent?.trim() ?? null,
            createdBy: actor.userId,
          },
          tx,
        );
      });
      return toEvalCase(row);
    },

    /**
     * The namespace's cases, oldest first (the order runs evaluate them in).
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     */
    async listCases(actor: Actor, namespaceId: string, query: { limit?: number; offset?: number }) {
      const namespace = await visibleNamespace(actor, namespaceId);
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await evaluation.listCases(namespace.id, { limit, offset });
      return { items: rows.map(toEvalCase), total, limit, offset };
    },

    /**
     * Deletes a case; runs that evaluated it keep its result.
     * @throws NotFoundError when the namespace or the case is missing, or the namespace is outside the actor's departments.
     */
    async deleteCase(actor: Actor, namespaceId: string, caseId: string): Promise<void> {
      const namespace = await visibleNamespace(actor, namespaceId);
      if (!(await evaluation.deleteCase(namespace.id, caseId))) {
        throw new NotFoundError(`Evaluation case ${caseId} not found`);
      }
    },

    /**
     * Queues a run over every case of the namespace; the job is added after
     * the run row is committed (a lost job is added again by the sweep).
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     * @throws ConflictError when the namespace has no cases, or a run of it is queued or running.
     */
    async startRun(actor: Actor, namespaceId: string) {
      const namespace = await visibleNamespace(actor, namespaceId);
      const row = await db.transaction(async (tx) => {
        await evaluation.lockNamespace(namespace.id, tx);
        const active = await evaluation.activeRun(namespace.id, tx);
        if (active) {
          throw new ConflictError(
            `Evaluation run ${active.id} of namespace ${namespace.id} is still ${active.status}`,
          );
        }
        const caseCount = Math.min(await evaluation.countCases(namespace.id, tx), EVAL_CASES_PER_NAMESPACE);
        if (caseCount === 0) throw new ConflictError(`Namespace ${namespace.id} has no evaluation cases`);
        return evaluation.insertRun({ namespaceId: namespace.id, requestedBy: actor.userId, caseCount }, tx);
      });
      await queue.add(EVAL_QUEUE, 'evaluate', { runId: row.id }, { jobId: evalRunJobId(row.id) });
      return toEvalRunSummary(row);
    },

    /**
     * One run with its per-case results and totals.
     * @throws NotFoundError when the namespace or the run is missing, or the namespace is outside the actor's departments.
     */
    async getRun(actor: Actor, namespaceId: string, runId: string) {
      const namespace = await visibleNamespace(actor, namespaceId);
      const row = await evaluation.findRun(runId);
      if (!row || row.namespaceId !== namespace.id)
        throw new NotFoundError(`Evaluation run ${runId} not found`);
      return toEvalRun(row);
    },

    /**
     * The namespace's runs, newest first, without per-case results.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     */
    async listRuns(actor: Actor, namespaceId: string, query: { limit?: number; offset?: number }) {
      const namespace = await visibleNamespace(actor, namespaceId);
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await evaluation.listRuns(namespace.id, { limit, offset });
      return { items: rows.map(toEvalRunSummary), total, limit, offset };
    },
  };
}

export type EvaluationService = ReturnType<typeof createEvaluationService>;
