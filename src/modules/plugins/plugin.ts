/**
 * The plugin interface: what a built-in plugin and an operator plugin loaded
 * from PLUGINS_DIR both export. Plain data and functions only, so a plugin
 * written in plain JavaScript needs nothing from this code base
 * (docs/plugins.md, examples/plugins/).
 */

/** The three points of the pipeline where a plugin can act. */
export const PLUGIN_HOOKS = ['before_generate', 'after_confidence_check', 'after_delivery'] as const;
export type PluginHookName = (typeof PLUGIN_HOOKS)[number];

/** The slice of a logger a plugin gets (pino's). */
export interface PluginLogger {
  info(object: Record<string, unknown>, message?: string): void;
  warn(object: Record<string, unknown>, message?: string): void;
  error(object: Record<string, unknown>, message?: string): void;
}

/** What every hook call gets. */
export interface PluginContext<C = Record<string, unknown>> {
  /** The namespace's configuration of this plugin, validated against its schema. */
  config: C;
  namespace: { id: string; departmentId: string };
  /** The task the call serves; null for an approval decided after its task was deleted. */
  taskId: string | null;
  /** The clock: use it instead of `new Date()`, so behaviour in time can be tested. */
  now(): Date;
  /** Aborts when the hook runs past its time limit; pass it to fetch and timers. */
  signal: AbortSignal;
  logger: PluginLogger;
}

/** The inbound message, as `before_generate` and `after_confidence_check` see it. */
export interface PluginMessage {
  text: string;
  channel: string;
  /** The reply language: en, uk or ru. */
  language: string;
}

export interface BeforeGenerateInput {
  message: PluginMessage;
}

/** Text added to the prompt's system part, after the namespace's own prompt. */
export interface BeforeGenerateResult {
  /** Instructions for the assistant ("sign every reply with…"). */
  instructions?: string;
  /** Facts to draw on ("the office is closed on Friday"). */
  context?: string;
}

export interface AfterConfidenceCheckInput {
  message: PluginMessage;
  /** The reply as it stands (after earlier plugins). */
  reply: string;
  intent: string;
  /** Retrieval confidence, 0 to 1. */
  confidence: number;
  /** The delivery decision as it stands: where the reply goes and every reason. */
  decision: { route: 'auto_send' | 'hitl' | 'escalate'; reasons: ReadonlyArray<{ type: string }> };
}

/** What a plugin may change after the decision; nothing returned changes nothing. */
export interface AfterConfidenceCheckResult {
  /** Replaces the reply text. */
  reply?: string;
  /** Sends the reply to a human with this reason (an auto-send becomes HITL). */
  hitl?: string;
  /**
   * Sends the reply without review (a fixed text the operator wrote, such as
   * an out-of-hours message). A persona escalation is never overridden.
   */
  send?: boolean;
}

/** The reply of a task was routed: sent, waiting for a human, or escalated. */
export interface TaskRoutedEvent {
  type: 'task.routed';
  taskId: string;
  namespaceId: string;
  departmentId: string;
  route: 'auto_send' | 'hitl' | 'escalate';
  approvalId: string | null;
  messageId: string | null;
  intent: string | null;
  confidence: number | null;
  reply: string | null;
  occurredAt: string;
}

/** A human decided an approval. */
export interface ApprovalDecidedEvent {
  type: 'approval.decided';
  approvalId: string;
  taskId: string | null;
  namespaceId: string;
  departmentId: string;
  /** approved, edited, rejected or escalated. */
  status: string;
  decidedById: string | null;
  /** The text delivered (edited or original) for approved and edited; null otherwise. */
  content: string | null;
  reason: string | null;
  occurredAt: string;
}

export type PluginEvent = TaskRoutedEvent | ApprovalDecidedEvent;
export type PluginEventType = PluginEvent['type'];
export const PLUGIN_EVENT_TYPES: readonly PluginEventType[] = ['task.routed', 'approval.decided'];

export interface AfterDeliveryInput {
  event: PluginEvent;
}

/** A problem with a configuration that its JSON Schema cannot express. */
export interface ConfigProblem {
  /** Dotted path inside the config (`timeZone`, `terms.0.replacement`). */
  path: string;
  message: string;
}

/**
 * A plugin. `hooks` lists the functions it has; what a hook returns is
 * recorded as the output of its tool call (`plugin:<id>`); what it throws, or
 * a hook that runs past its time limit, is recorded as a failed tool call
 * and changes nothing.
 */
export interface PluginDefinition<C = Record<string, unknown>> {
  /** Lower-case letters, digits, `-`, `_` and `.`; unique. */
  id: string;
  name: string;
  description: string;
  version: string;
  /** JSON Schema (draft 7) of the namespace configuration. */
  configSchema: Record<string, unknown>;
  /** Config keys that are write-only: never answered by the API (shown as "[set]"), never logged. */
  secretFields?: readonly string[];
  /** What the schema cannot check (a time zone Intl knows, a field needed only with another). */
  validateConfig?(config: C): ConfigProblem[];
  hooks: {
    before_generate?(
      context: PluginContext<C>,
      input: BeforeGenerateInput,
    ): Promise<BeforeGenerateResult | undefined> | BeforeGenerateResult | undefined;
    after_confidence_check?(
      context: PluginContext<C>,
      input: AfterConfidenceCheckInput,
    ): Promise<AfterConfidenceCheckResult | undefined> | AfterConfidenceCheckResult | undefined;
    after_delivery?(
      context: PluginContext<C>,
      input: AfterDeliveryInput,
    ): Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined;
  };
}

/** A plugin enabled on a namespace, with that namespace's configuration. */
export interface ActivePlugin {
  definition: PluginDefinition;
  config: Record<string, unknown>;
}
