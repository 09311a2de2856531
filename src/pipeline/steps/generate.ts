import { randomUUID } from 'node:crypto';
import { INJECTION_REFUSAL } from '../../core/llm/non-answers.js';
import { NO_TRACING, type Tracing } from '../../core/tracing/tracing.js';
import { type AgentAdapterType, DEFAULT_AGENT_ADAPTER } from '../../modules/namespaces/agent-adapters.js';
import type { AgentAdapter, GenerateInput, GenerateOutput } from '../adapters/adapter.js';
import { estimateCostUsd, type PriceTable } from '../pricing.js';
import { buildMessages, fitToChannel } from '../prompt.js';
import type { GenerationRun } from '../tasks.repository.js';
import type { InjectedProfile } from './inject-profile.js';
import type { RagFindings } from './rag-search.js';
import type { Step, TaskContext } from './step-context.js';

export interface Generated {
  reply: string;
  adapterType: AgentAdapterType;
  traceId: string;
  provider: string;
  model: string;
  /** The run (trace) with its hits, to write: with the decision, or when the task ends otherwise. */
  run: GenerationRun;
}

/** The adapter a namespace selected (`config.agentRunner.activeAdapter`), `api` by default. */
export function activeAdapterOf(
  context: TaskContext,
  adapters: Record<string, AgentAdapter>,
): AgentAdapterType {
  const runner = context.namespace.config.agentRunner as { activeAdapter?: unknown } | undefined;
  const chosen = runner?.activeAdapter;
  return typeof chosen === 'string' && chosen in adapters
    ? (chosen as AgentAdapterType)
    : DEFAULT_AGENT_ADAPTER;
}

/**
 * `generate`: the reply from the namespace's active adapter, in the reply
 * language, written for the conversation's channel, grounded in the clean
 * passages. Answers the AgentRun (trace) with its retrieval hits, which the
 * runner writes with the delivery decision (putting its tokens and
 * estimated cost on the task), or at once when the task ends otherwise. A message that is itself a prompt
 * injection gets a fixed refusal instead (no model sees it; the run records
 * provider `guard`).
 */
export function createGenerateStep(deps: {
  adapters: Record<string, AgentAdapter>;
  timeoutMs: number;
  prices?: PriceTable;
  /** Wraps the model call in a `generation` span when tracing keys are set. */
  tracing?: Tracing;
}): Step<{ profile: InjectedProfile; rag: RagFindings }, Generated> {
  const tracing = deps.tracing ?? NO_TRACING;
  return {
    input: (context, { profile, rag }) => ({
      adapterType: activeAdapterOf(context, deps.adapters),
      language: profile.language,
      channel: context.conversation.channel,
      passages: rag.hits.map((hit) => hit.chunkId),
      turns: profile.turns.length,
    }),
    async run(context, { profile, rag }, signal) {
      const adapterType = activeAdapterOf(context, deps.adapters);
      const channel = context.conversation.channel as GenerateInput['channel'];
      let result: GenerateOutput;
      // Chosen before the call, so the generation span carries the run's traceId.
      const traceId = randomUUID();
      if (rag.userInjection.detected) {
        result = {
          text: INJECTION_REFUSAL[profile.language],
          provider: 'guard',
          model: 'injection-refusal',
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0, known: true },
          latencyMs: 0,
        };
      } else {
        const adapter = deps.adapters[adapterType];
        if (!adapter) throw new Error(`Adapter "${adapterType}" is not available`);
        const call = () =>
          adapter.generate({
            messages: buildMessages({
              systemPrompt: profile.systemPrompt,
              persona: profile.persona,
              profile: profile.profile,
              turns: profile.turns,
              language: profile.language,
              channel,
              userText: context.inbound.content,
            }),
            // Scored by the answer confidence, the value the 0.7 line reads.
            passages: rag.hits.map((hit) => ({
              id: hit.chunkId,
              title: hit.title,
              content: hit.content,
              score: hit.confidence,
              headingPath: hit.headingPath,
            })),
            language: profile.language,
            channel,
            timeoutMs: deps.timeoutMs,
            signal,
          });
        result = await tracing.span('generation', { taskId: context.task.id, traceId }, async (span) => {
          const output = await call();
          span.record({
            model: output.model,
            inputTokens: output.usage.inputTokens,
            outputTokens: output.usage.outputTokens,
            costUsd: estimateCostUsd(output.model, output.usage, deps.prices),
            extra: { provider: output.provider, adapterType },
          });
          return output;
        });
      }
      // Past the timeout the task has ended: a late answer must not put a trace on it.
      if (signal.aborted) throw new Error('the reply arrived after the step timed out');
      const reply = fitToChannel(result.text, channel);
      const costUsd = estimateCostUsd(result.model, result.usage, deps.prices);
      const run: GenerationRun = {
        run: {
          id: randomUUID(),
          traceId,
          taskId: context.task.id,
          departmentId: context.task.departmentId,
          namespaceId: context.namespace.id,
          provider: result.provider,
          model: result.model,
          inputTokens: result.usage.inputTokens,
          outputTokens: result.usage.outputTokens,
          totalTokens: result.usage.totalTokens,
          costUsd,
          usageKnown: result.usage.known,
          latencyMs: result.latencyMs,
        },
        hits: rag.hits.map((hit, rank) => ({
          chunkId: hit.chunkId,
          documentId: hit.documentId,
          rank: rank + 1,
          score: hit.score,
          vectorScore: hit.cosine,
          keywordScore: hit.keyword,
        })),
      };
      return {
        value: { reply, adapterType, traceId, provider: result.provider, model: result.model, run },
        output: {
          text: reply,
          adapterType,
          provider: result.provider,
          model: result.model,
          usage: result.usage,
          costUsd,
          latencyMs: result.latencyMs,
          traceId,
        },
      };
    },
  };
}
