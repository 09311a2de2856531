/**
 * The agent-runner adapters a namespace can select in
 * `config.agentRunner.activeAdapter`; validation follows this list.
 * `api` runs the pipeline against the configured LLM provider; the others
 * run a command-line agent installed on the worker's machine (Claude Code,
 * Codex CLI, Gemini CLI) in its non-interactive JSON mode.
 */
export const AGENT_ADAPTERS = ['api', 'claude_code', 'codex_cli', 'gemini_cli'] as const;

export type AgentAdapterType = (typeof AGENT_ADAPTERS)[number];

/** The same union under its first name, kept for callers written before the local runners. */
export type AgentAdapter = AgentAdapterType;

/** The local-runner adapters: every adapter except `api`. */
export const LOCAL_AGENT_ADAPTERS = [
  'claude_code',
  'codex_cli',
  'gemini_cli',
] as const satisfies readonly AgentAdapterType[];

export type LocalAgentAdapterType = (typeof LOCAL_AGENT_ADAPTERS)[number];

/** The adapter a namespace without `config.agentRunner` runs with. */
export const DEFAULT_AGENT_ADAPTER: AgentAdapterType = 'api';
