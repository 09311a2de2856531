import type { ChatProvider } from '../../../core/llm/llm.js';
import { NO_TRACING, type Tracing } from '../../../core/tracing/tracing.js';
import { parseQuestions, questionsPrompt } from './synthetic-questions-prompt.js';

/** LLM calls in flight at once for one document: enough to overlap latency, few enough for rate limits. */
export const SYNTHETIC_QUESTIONS_CONCURRENCY = 4;

/** The knowledge base's option, as ingestion reads it. */
export interface SyntheticQuestionsOption {
  enabled: boolean;
  perChunk: number;
}

/** What a run recorded in the document's `metadata.ingestion.syntheticQuestions`. */
export type SyntheticQuestionsRecord =
  | { status: 'skipped'; reason: string }
  | {
      status: 'generated' | 'failed';
      perChunk: number;
      model: string;
      /** Chunks that got questions (all of them when generated). */
      chunksWithQuestions: number;
      questionCount: number;
      inputTokens: number;
      outputTokens: number;
      costUsd: number;
      /** Why generation stopped, when it failed. */
      error?: string;
    };

/** Questions per chunk (null where none were generated) and the record for the document's metadata. */
export interface SyntheticQuestionsResult {
  questions: Array<string[] | null>;
  record: SyntheticQuestionsRecord | null;
}

export interface SyntheticQuestionsDeps {
  /** The option of a knowledge base (null when it is gone). */
  optionOf(knowledgeBaseId: string): Promise<SyntheticQuestionsOption | null>;
  /** The configured chat model; null when no LLM is configured (LLM_API_KEY unset). */
  writer: ChatProvider | null;
  /** Each LLM call is an `ingestion.synthetic-qa` span. */
  tracing?: Tracing;
  /** USD cost of a call, for the span and the record; 0 when unknown. */
  priceOf?: (model: string, usage: { inputTokens: number; outputTokens: number }) => number;
  logger: { warn(object: object, message?: string): void };
}

/** What container.ts hands the knowledge module for the option: the model, tracing and prices. */
export type SyntheticQuestionsWiring = Omit<SyntheticQuestionsDeps, 'optionOf' | 'logger'>;

export const NO_LLM_REASON = 'no LLM is configured (LLM_API_KEY is not set)';

export function createSyntheticQuestions(deps: SyntheticQuestionsDeps) {
  const { writer, logger } = deps;
  const tracing = deps.tracing ?? NO_TRACING;
  const priceOf = deps.priceOf ?? (() => 0);

  return {
    /**
     * Asks the LLM for `option.perChunk` likely questions for each chunk that
     * `wanted` lets through (held-back chunks are never sent), one call per
     * chunk, {@link SYNTHETIC_QUESTIONS_CONCURRENCY} at a time, each call an
     * `ingestion.synthetic-qa` span with model, tokens, cost and the document
     * id. Never throws for the LLM: the first failure stops further calls,
     * is logged and recorded, and the chunks answered so far keep their
     * questions. Option off: nothing happens and nothing is recorded. No LLM
     * configured: nothing is asked and the record says so.
     */
    async generate(input: {
      documentId: string;
      knowledgeBaseId: string;
      chunks: readonly string[];
      wanted?: (index: number) => boolean;
    }): Promise<SyntheticQuestionsResult> {
      const { documentId, chunks } = input;
      const questions: Array<string[] | null> = chunks.map(() => null);
      const option = await deps.optionOf(input.knowledgeBaseId);
      if (!option?.enabled) return { questions, record: null };
      if (!writer) return { questions, record: { status: 'skipped', reason: NO_LLM_REASON } };

      const perChunk = Math.min(5, Math.max(1, Math.round(option.perChunk)));
      const totals = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
      let model = writer.model;
      // Written by the lanes below; a holder, so the checks after them are not narrowed away.
      const state: { failure: string | null } = { failure: null };
      let next = 0;

      const ask = async (index: number) => {
        const passage = chunks[index] ?? '';
        questions[index] = await tracing.span(
          'ingestion.synthetic-qa',
          { documentId, model: writer.model, extra: { chunk_index: index, questions_asked: perChunk } },
          async (span) => {
            const result = await writer.complete({ messages: questionsPrompt(passage, perChunk) });
            const costUsd = priceOf(result.model, result.usage);
            const found = parseQuestions(result.text, perChunk);
            span.record({
              model: result.model,
              inputTokens: result.usage.inputTokens,
              outputTokens: result.usage.outputTokens,
              costUsd,
              extra: { questions_generated: found.length },
            });
            model = result.model;
            totals.inputTokens += result.usage.inputTokens;
            totals.outputTokens += result.usage.outputTokens;
            totals.costUsd += costUsd;
            return found.length > 0 ? found : null;
          },
        );
      };

      // A small pool: each lane takes the next chunk until all are asked or one call has failed.
      const lane = async () => {
        while (state.failure === null && next < chunks.length) {
          const index = next++;
          if (input.wanted && !input.wanted(index)) continue;
          try {
            await ask(index);
          } catch (error) {
            state.failure ??= error instanceof Error ? error.message : String(error);
          }
        }
      };
      await Promise.all(Array.from({ length: SYNTHETIC_QUESTIONS_CONCURRENCY }, lane));

      const failure = state.failure;
      const answered = questions.filter((q): q is string[] => q !== null);
      const record: SyntheticQuestionsRecord = {
        status: failure === null ? 'generated' : 'failed',
        perChunk,
        model,
        chunksWithQuestions: answered.length,
        questionCount: answered.reduce((sum, q) => sum + q.length, 0),
        ...totals,
        costUsd: Math.round(totals.costUsd * 1e10) / 1e10,
        ...(failure === null ? {} : { error: failure.slice(0, 500) }),
      };
      if (failure !== null) {
        logger.warn(
          { documentId, err: failure, chunksWithQuestions: answered.length },
          'synthetic questions: the LLM failed; the document is indexed without the missing questions',
        );
      }
      return { questions, record };
    },
  };
}

export type SyntheticQuestions = ReturnType<typeof createSyntheticQuestions>;
