import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import { iso } from '../../core/http/schemas.js';
import type { TracesRepository } from './traces.repository.js';

/** LLM traces: one generation with the chunks retrieved for it. */
export function createTracesService(deps: { traces: TracesRepository }) {
  const { traces } = deps;
  return {
    /**
     * The run (trace) with its retrieval hits, best first.
     * @throws NotFoundError when no run has this trace id or its department is outside the actor's.
     */
    async get(actor: Actor, traceId: string) {
      const { run } = assertVisible(
        actor,
        await traces.findByTraceId(traceId),
        (found) => found.scopeDepartmentId,
        `Trace ${traceId} not found`,
      );
      const hits = await traces.hits(run.id);
      return {
        id: run.id,
        traceId: run.traceId,
        taskId: run.taskId,
        departmentId: run.departmentId,
        namespaceId: run.namespaceId,
        provider: run.provider,
        model: run.model,
        inputTokens: run.inputTokens,
        outputTokens: run.outputTokens,
        totalTokens: run.totalTokens,
        costUsd: run.costUsd,
        usageKnown: run.usageKnown,
        latencyMs: run.latencyMs,
        createdAt: iso(run.createdAt),
        retrievalHits: hits.map((hit) => ({
          id: hit.id,
          chunkId: hit.chunkId,
          documentId: hit.documentId,
          rank: hit.rank,
          score: hit.score,
          vectorScore: hit.vectorScore,
          keywordScore: hit.keywordScore,
        })),
      };
    },
  };
}

export type TracesService = ReturnType<typeof createTracesService>;
