/**
 * The agent-runner adapters a namespace can select in
 * `config.agentRunner.activeAdapter`. `api` runs the pipeline against the
 * configured LLM provider; local-runner adapters are added here when they
 * arrive, and validation follows this list.
 */
export const AGENT_ADAPTERS = ['api'] as const;

export type AgentAdapter = (typeof AGENT_ADAPTERS)[number];

/** The adapter a namespace without `config.agentRunner` runs with. */
export const DEFAULT_AGENT_ADAPTER: AgentAdapter = 'api';
