import type { FastifyBaseLogger } from 'fastify';
import type { ChatProvider } from '../../core/llm/llm.js';
import type { AgentAdapter, AgentAdapterType, AgentRunnerConfig } from './adapter.js';
import { createApiAdapter } from './api.adapter.js';
import { CLI_FORMATS } from './cli-formats.js';
import { createLocalRunnerAdapter } from './local-runner.adapter.js';

export type {
  AgentAdapter,
  AgentAdapterType,
  AgentRunnerConfig,
  GenerateInput,
  GenerateOutput,
} from './adapter.js';
export { AgentRunnerError, AgentTimeoutError } from './adapter.js';

/**
 * One adapter per identifier a namespace can select
 * (`config.agentRunner.activeAdapter`): `api` over the container's chat
 * provider, and the three local runners with their configured commands.
 * Building them starts nothing; a local runner spawns its CLI per call.
 */
export function createAdapters(deps: {
  chat: ChatProvider;
  config: AgentRunnerConfig;
  logger: FastifyBaseLogger;
}): Record<AgentAdapterType, AgentAdapter> {
  const { config, logger } = deps;
  const { claudeCode, codexCli, geminiCli } = config.agentRunner;
  return {
    api: createApiAdapter({ chat: deps.chat }),
    claude_code: createLocalRunnerAdapter({
      format: CLI_FORMATS.claude_code,
      cli: claudeCode,
      config,
      logger,
    }),
    codex_cli: createLocalRunnerAdapter({ format: CLI_FORMATS.codex_cli, cli: codexCli, config, logger }),
    gemini_cli: createLocalRunnerAdapter({ format: CLI_FORMATS.gemini_cli, cli: geminiCli, config, logger }),
  };
}
