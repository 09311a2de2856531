import type { FastifyBaseLogger } from 'fastify';
import { UNKNOWN_INTENT } from '../intents/intent-vote.js';
import { type JudgedCase, judgeCase, runTotals } from './correctness.js';
import type { EvalCaseRow, EvaluationRepository } from './evaluation.repository.js';
import { EVAL_CASES_PER_NAMESPACE, EVAL_RESULT_SOURCES } from './evaluation.schemas.js';

/** What a draft answers: the reply, its confidence and its sources, best first. */
export interface DraftResult {
  answer: string;
  confidence: number;
  sources: ReadonlyArray<{ documentId: string; title: string; score: number }>;
}

/**
 * What a run needs from other areas, passed in by container.ts: the namespace,
 * the knowledge bases it searches, the draft (rag's `draft`: retrieval and the
 * responder, nothing stored or sent) and the intent classifier (read only).
 */
export interface EvaluationPorts {
  findNamespace(
    id: string,
  ): Promise<{ id: string; departmentId: string; config: Record<string, unknown> } | null>;
  knowledgeBaseIdsOfDepartment(departmentId: string): Promise<string[]>;
  draft(input: {
    departmentId: string;
    knowledgeBaseIds: readonly string[];
    text: string;
  }): Promise<DraftResult>;
  classify(namespaceId: string, text: string): Promise<{ intent: string; confidence: number }>;
  /** The confidence line under which the assistant does not send a reply unreviewed (0.7). */
  confidenceLine: number;
}

/** The knowledge bases a namespace searches: `config.knowledgeBaseIds` when set, else its department's. */
export async function knowledgeBasesOfNamespace(
  namespace: { departmentId: string; config: Record<string, unknown> },
  ofDepartment: (departmentId: string) => Promise<string[]>,
): Promise<string[]> {
  const configured = namespace.config.knowledgeBaseIds;
  if (Array.isArray(configured) && configured.length > 0) {
    return configured.filter((id): id is string => typeof id === 'string');
  }
  return ofDepartment(namespace.departmentId);
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/**
 * Runs evaluation runs: each case of the namespace goes through the draft and
 * the classifier, is judged (correctness.ts), and the run ends `completed`
 * with the per-case results and totals. Nothing is sent and nothing but the
 * run row is written.
 */
export function createEvaluationRunner(deps: {
  evaluation: EvaluationRepository;
  ports: EvaluationPorts;
  logger: Pick<FastifyBaseLogger, 'warn'>;
}) {
  const { evaluation, ports } = deps;

  async function evaluateCase(
    item: EvalCaseRow,
    namespace: { id: string; departmentId: string },
    knowledgeBaseIds: readonly string[],
  ) {
    const expectations = {
      expectedAnswer: item.expectedAnswer,
      expectedDocumentId: item.expectedDocumentId,
      expectedIntent: item.expectedIntent,
    };
    const base = { caseId: item.id, question: item.question, ...expectations };
    try {
      const [draft, intent] = await Promise.all([
        ports.draft({ departmentId: namespace.departmentId, knowledgeBaseIds, text: item.question }),
        ports.classify(namespace.id, item.question),
      ]);
      const verdict = judgeCase(
        expectations,
        {
          draft: draft.answer,
          confidence: draft.confidence,
          sourceDocumentIds: draft.sources.map((s) => s.documentId),
          predictedIntent: intent.intent,
        },
        ports.confidenceLine,
      );
      const result = {
        ...base,
        draft: draft.answer,
        confidence: round(draft.confidence),
        sources: draft.sources
          .slice(0, EVAL_RESULT_SOURCES)
          .map((s) => ({ documentId: s.documentId, title: s.title, score: round(s.score) })),
        predictedIntent: intent.intent,
        intentConfidence: round(intent.confidence),
        ...verdict,
        error: null,
      };
      return { result, judged: { verdict, failed: false } satisfies JudgedCase };
    } catch (error) {
      // One case whose model call failed does not sink the run: it counts as an error, not correct.
      const message = error instanceof Error ? error.message : String(error);
      deps.logger.warn({ err: error, caseId: item.id }, 'evaluation: a case could not be evaluated');
      const unmet = (expected: string | null) => (expected === null ? null : false);
      const verdict = {
        fallback: false,
        answerMatches: unmet(item.expectedAnswer),
        topSourceMatches: unmet(item.expectedDocumentId),
        documentCited: unmet(item.expectedDocumentId),
        intentMatches: unmet(item.expectedIntent),
        correct: false,
      };
      const result = {
        ...base,
        draft: '',
        confidence: 0,
        sources: [],
        predictedIntent: UNKNOWN_INTENT,
        intentConfidence: 0,
        ...verdict,
        error: message.slice(0, 1000),
      };
      return { result, judged: { verdict, failed: true } satisfies JudgedCase };
    }
  }

  return {
    /**
     * Evaluates run `runId` from its first case (a run taken again after its
     * process died starts over). A run that is missing (its namespace was
     * deleted) or finished already is left alone.
     * @throws Error when the namespace is gone mid-run or storage fails; the job then retries.
     */
    async run(runId: string): Promise<void> {
      const row = await evaluation.findRun(runId);
      if (!row || (row.status !== 'queued' && row.status !== 'running')) return;
      const namespace = await ports.findNamespace(row.namespaceId);
      if (!namespace) {
        await evaluation.fail(runId, `namespace ${row.namespaceId} no longer exists`);
        return;
      }
      const cases = await evaluation.allCases(namespace.id, EVAL_CASES_PER_NAMESPACE);
      await evaluation.markRunning(runId, cases.length);
      const knowledgeBaseIds = await knowledgeBasesOfNamespace(namespace, ports.knowledgeBaseIdsOfDepartment);
      const results: unknown[] = [];
      const judged: JudgedCase[] = [];
      for (const item of cases) {
        const evaluated = await evaluateCase(item, namespace, knowledgeBaseIds);
        results.push(evaluated.result);
        judged.push(evaluated.judged);
        await evaluation.setProgress(runId, results.length);
      }
      await evaluation.complete(runId, { results, totals: runTotals(judged) });
    },

    /** Ends the run failed with the job's last error (the queue's onFailed). */
    async failAfterRetries(runId: string, error: Error): Promise<void> {
      await evaluation.fail(runId, error.message || 'the evaluation job failed');
    },
  };
}

export type EvaluationRunner = ReturnType<typeof createEvaluationRunner>;
