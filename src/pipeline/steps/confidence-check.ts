import type { WorkLimit } from '../../core/concurrency/work-limit.js';
import { createEmbeddingMemo } from '../../core/llm/embedding-memo.js';
import type { EmbeddingProvider } from '../../core/llm/llm.js';
import { NO_TRACING, type Tracing } from '../../core/tracing/tracing.js';
import { flaggedSourcesOf } from '../../modules/rag/flagged-sources.js';
import { type Decision, type DecisionInput, decideDelivery, matchBoundaryPhrase } from '../hitl-decision.js';
import type { Generated } from './generate.js';
import type { RagFindings } from './rag-search.js';
import { round } from './rag-search.js';
import type { Step, StepOutcome, TaskContext } from './step-context.js';

/** Persona boundaries whose vectors a process keeps (a namespace's persona has a few). */
export const BOUNDARY_VECTORS_KEPT = 256;

/** Embedding similarity from which a message counts as touching a persona boundary. */
export const BOUNDARY_SIMILARITY = 0.8;

/** The role an escalation is addressed to when the persona names none. */
export const DEFAULT_ESCALATION_ROLE = 'dept_head';

/** The slice of the intents module the step uses. */
export interface IntentsPort {
  classifier: {
    classify(
      namespaceId: string,
      text: string,
      embedding?: number[],
    ): Promise<{
      intent: string;
      confidence: number;
      alternatives: Array<{ intent: string; confidence: number }>;
    }>;
  };
}

export interface Checked {
  intent: string;
  /** The retrieval confidence the decision used. */
  confidence: number;
  decision: Decision;
}

/**
 * `confidence_check`: classifies the message's intent (with its embedding:
 * the one retrieval used, else computed together with the persona boundaries), looks up the intent's
 * trust record and whether the employee met the intent before (read with the task's context), checks
 * trigger words, injection and persona boundaries (phrase match, or
 * embedding similarity of {@link BOUNDARY_SIMILARITY} or more), and decides
 * with retrieval's answer confidence (its best passage's). The boundaries are embedded
 * first (a model call with an API key, outside the CPU limit); the
 * classification and the decision run within it, ahead of new tasks'
 * searches, so a task back from the model finishes first.
 */
export function createConfidenceCheckStep(deps: {
  embeddings: EmbeddingProvider;
  /** AGENT_TASK_CPU_CONCURRENCY: the classification and decision wait for a place among the CPU-bound steps. */
  cpu: WorkLimit;
  intents: IntentsPort;
  triggerWords: readonly string[];
  random: () => number;
  /** Wraps the classification in an `intent.classify` span when tracing keys are set. */
  tracing?: Tracing;
}): Step<{ rag: RagFindings; generated: Generated }, Checked> {
  const tracing = deps.tracing ?? NO_TRACING;
  const boundaryEmbeddings = createEmbeddingMemo(deps.embeddings, BOUNDARY_VECTORS_KEPT);
  return {
    input: ({ inbound, namespace }, { rag, generated }) => ({
      text: inbound.content,
      reply: generated.reply,
      namespaceId: namespace.id,
      confidence: round(rag.confidence),
    }),
    async run(context, { rag, generated }, signal) {
      const { inbound, namespace } = context;
      const text = inbound.content;
      const boundaries = (namespace.persona.boundaries ?? []).filter(
        (b): b is string => typeof b === 'string' && b.trim().length > 0,
      );
      // Retrieval embedded the message already (else it is embedded here); the boundaries' vectors
      // are kept, so the provider is asked only for a boundary it has not embedded yet.
      const embedded = await boundaryEmbeddings.embed(boundaries, rag.embedding ? null : text);
      const embedding = rag.embedding ?? embedded.fresh ?? undefined;
      const vectors = { embedding, boundaryVectors: embedded.kept };
      return deps.cpu.run(() => decide(context, { rag, generated }, boundaries, vectors), {
        priority: 'finish',
        signal,
      });
    },
  };

  /** The classification and the decision, with the message's and the boundaries' vectors at hand. */
  async function decide(
    { inbound, namespace, standings, task }: TaskContext,
    { rag, generated }: { rag: RagFindings; generated: Generated },
    boundaries: string[],
    { embedding, boundaryVectors }: { embedding: number[] | undefined; boundaryVectors: number[][] },
  ): Promise<StepOutcome<Checked>> {
    const text = inbound.content;
    const classification = await tracing.span(
      'intent.classify',
      { taskId: task.id, traceId: generated.traceId },
      async (span) => {
        const found = await deps.intents.classifier.classify(namespace.id, text, embedding);
        span.record({ extra: { intent: found.intent, confidence: found.confidence } });
        return found;
      },
    );
    const { intent } = classification;
    const trust = standings.trust.get(intent) ?? null;
    const firstInteraction = !standings.met.has(intent);

    const matched = matchBoundary(text, boundaries, embedding, boundaryVectors);
    const escalateToRole =
      typeof namespace.persona.escalateToRole === 'string' && namespace.persona.escalateToRole.trim()
        ? namespace.persona.escalateToRole.trim()
        : DEFAULT_ESCALATION_ROLE;
    const [injectedChunk] = rag.injected;
    const injection: DecisionInput['injection'] = rag.userInjection.detected
      ? { detected: true, reason: rag.userInjection.reason, source: 'user' }
      : injectedChunk
        ? {
            detected: true,
            reason: `chunk ${injectedChunk.chunkId}: ${injectedChunk.reason}`,
            source: 'context',
            // Structured for the reviewer: the approval's reasons carry every left-out chunk.
            flaggedSources: flaggedSourcesOf(rag.injected),
          }
        : { detected: false };

    const decision = decideDelivery({
      confidence: rag.confidence,
      intent,
      userText: text,
      replyText: generated.reply,
      triggerWords: deps.triggerWords,
      firstInteraction,
      trust,
      injection,
      boundary: matched ? { boundary: matched.boundary, escalateToRole } : null,
      random: deps.random,
    });
    return {
      value: { intent, confidence: rag.confidence, decision },
      output: {
        intent,
        intentConfidence: round(classification.confidence),
        alternatives: classification.alternatives,
        confidence: round(rag.confidence),
        trust,
        firstInteraction,
        injection,
        boundary: matched,
        route: decision.route,
        reasons: decision.reasons,
        draw: decision.draw,
      },
    };
  }
}

/** The boundary the message touches: a phrase match first, else the most similar boundary at or above the bar. */
function matchBoundary(
  text: string,
  boundaries: readonly string[],
  embedding: number[] | undefined,
  boundaryVectors: number[][],
): { boundary: string; by: 'phrase' | 'similarity'; similarity?: number } | null {
  const phrase = matchBoundaryPhrase(text, boundaries);
  if (phrase) return { boundary: phrase, by: 'phrase' };
  if (!embedding) return null;
  let best: { boundary: string; similarity: number } | null = null;
  boundaries.forEach((boundary, i) => {
    const vector = boundaryVectors[i];
    if (!vector) return;
    const similarity = cosine(embedding, vector);
    if (similarity >= BOUNDARY_SIMILARITY && (!best || similarity > best.similarity))
      best = { boundary, similarity };
  });
  const found = best as { boundary: string; similarity: number } | null;
  return found ? { boundary: found.boundary, by: 'similarity', similarity: round(found.similarity) } : null;
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
