import type { WorkLimit } from '../../core/concurrency/work-limit.js';
import type { EmbeddingProvider } from '../../core/llm/llm.js';
import { NO_TRACING, type Tracing } from '../../core/tracing/tracing.js';
import { flaggedSourcesOf } from '../../modules/rag/flagged-sources.js';
import type { InjectionVerdict } from '../../modules/rag/injection-detection.js';
import { detectInjection } from '../../modules/rag/injection-detection.js';
import type { AnsweredChunk, InjectedChunk, Retrieval } from '../../modules/rag/retrieval.js';
import type { Step, TaskContext } from './step-context.js';

/** Chunks handed to the model at most. */
export const PASSAGE_LIMIT = 5;

export interface RagFindings {
  knowledgeBaseIds: string[];
  hits: AnsweredChunk[];
  injected: InjectedChunk[];
  /** The answer confidence (retrieval's `confidence`); 0 when none was retrieved. */
  confidence: number;
  /** The verdict on the employee's own message. */
  userInjection: InjectionVerdict;
  /** The message's embedding (retrieval used it when it searched); null for an injection. Not recorded. */
  embedding: number[] | null;
}

/** The namespace's knowledge bases: `config.knowledgeBaseIds` when set, else every base of its department. */
async function knowledgeBasesOf(
  { namespace, departmentKnowledgeBaseIds }: TaskContext,
  ofDepartment: (departmentId: string) => Promise<string[]>,
): Promise<string[]> {
  const configured = namespace.config.knowledgeBaseIds;
  if (Array.isArray(configured) && configured.length > 0) {
    return configured.filter((id): id is string => typeof id === 'string');
  }
  // The runner loads them with the task's context (one round trip less).
  return departmentKnowledgeBaseIds ? [...departmentKnowledgeBaseIds] : ofDepartment(namespace.departmentId);
}

/**
 * `rag_search`: prompt-injection detection on the employee's message, then
 * the hybrid retrieval over the namespace's knowledge bases (fenced to the
 * namespace's department). Chunks that carry an injection are left out and
 * reported. A message that is itself an injection is not searched: nothing
 * of it reaches retrieval or a model. The message is embedded first, outside
 * the CPU limit (with an API key the embedding is a model call, whose wait
 * takes no CPU place); the search then runs within it.
 */
export function createRagSearchStep(deps: {
  retrieval: Retrieval;
  embeddings: EmbeddingProvider;
  /** AGENT_TASK_CPU_CONCURRENCY: the search waits for a place among the CPU-bound steps. */
  cpu: WorkLimit;
  knowledgeBaseIdsOfDepartment: (departmentId: string) => Promise<string[]>;
  /** Wraps the search in a `rag.query` span when tracing keys are set. */
  tracing?: Tracing;
}): Step<void, RagFindings> {
  const tracing = deps.tracing ?? NO_TRACING;
  return {
    input: ({ inbound, namespace }) => ({ text: inbound.content, namespaceId: namespace.id }),
    async run(context, _previous, signal) {
      const text = context.inbound.content;
      const knowledgeBaseIds = await knowledgeBasesOf(context, deps.knowledgeBaseIdsOfDepartment);
      const userInjection = detectInjection(text);
      // confidence_check classifies with it whether or not retrieval searches.
      const embedding = userInjection.detected ? null : ((await deps.embeddings.embed([text]))[0] ?? null);
      const found = userInjection.detected
        ? { hits: [], injected: [], confidence: 0 }
        : await tracing.span('rag.query', { taskId: context.task.id }, async (span) => {
            const result = await deps.cpu.run(
              () =>
                deps.retrieval.search({
                  text,
                  knowledgeBaseIds,
                  departmentIds: [context.namespace.departmentId],
                  limit: PASSAGE_LIMIT,
                  ...(embedding ? { embedding } : {}),
                  // Read with the task's context: used when they cover the bases searched.
                  ...(context.departmentKnowledgeBases ? { bases: context.departmentKnowledgeBases } : {}),
                }),
              { priority: 'start', signal },
            );
            span.record({ extra: { hits: result.hits.length, confidence: result.confidence } });
            return result;
          });
      const value: RagFindings = {
        knowledgeBaseIds,
        hits: found.hits,
        injected: found.injected,
        confidence: found.confidence,
        embedding,
        userInjection,
      };
      return {
        value,
        output: {
          knowledgeBaseIds,
          confidence: round(found.confidence),
          hits: found.hits.map((hit) => ({
            chunkId: hit.chunkId,
            documentId: hit.documentId,
            title: hit.title,
            score: round(hit.score),
            confidence: round(hit.confidence),
            vectorScore: round(hit.cosine),
            keywordScore: round(hit.keyword),
          })),
          injectedChunks: found.injected.map((chunk) => ({
            chunkId: chunk.chunkId,
            documentId: chunk.documentId,
            reason: chunk.reason,
          })),
          flaggedSources: flaggedSourcesOf(found.injected),
          userInjection,
          searched: !userInjection.detected,
        },
      };
    },
  };
}

export function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
