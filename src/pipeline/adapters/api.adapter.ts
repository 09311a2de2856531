import type { ChatProvider } from '../../core/llm/llm.js';
import { type AgentAdapter, type GenerateInput, type GenerateOutput, withDeadline } from './adapter.js';

/**
 * The `api` adapter: the container's chat provider (the OpenAI-compatible
 * API with LLM_API_KEY, the offline extractive responder without). Past
 * `timeoutMs` or on abort the call rejects with AgentTimeoutError at once and
 * the provider's request (with its pending retries) is cancelled.
 */
export function createApiAdapter(deps: { chat: ChatProvider }): AgentAdapter {
  const { chat } = deps;
  return {
    type: 'api',
    async generate(input: GenerateInput): Promise<GenerateOutput> {
      const result = await withDeadline('api', input.timeoutMs, input.signal, (stop) =>
        chat.complete({ messages: input.messages, passages: input.passages, signal: stop }),
      );
      return {
        text: result.text,
        provider: result.provider,
        model: result.model,
        usage: result.usage,
        latencyMs: result.latencyMs,
      };
    },
  };
}
