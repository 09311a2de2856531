import type { namespaces } from '../../core/db/schema/index.js';
import type { ConversationRow, Turn } from '../../modules/conversations/conversations.repository.js';
import type { MessageRow } from '../../modules/conversations/messages.repository.js';
import type { KnowledgeBaseSnapshot } from '../../modules/rag/hybrid-search.js';
import type { UserRow } from '../senders.repository.js';

type NamespaceRow = typeof namespaces.$inferSelect;

import type { AgentTaskRow } from '../tasks.repository.js';

/** Everything a step may read about the task it serves, loaded once by the runner. */
export interface TaskContext {
  task: AgentTaskRow;
  conversation: ConversationRow;
  /** The inbound message the task answers. */
  inbound: MessageRow;
  namespace: NamespaceRow;
  /** The employee who wrote the message. */
  user: UserRow;
  /** Ids of the knowledge bases of the namespace's department, when loaded with the context. */
  departmentKnowledgeBaseIds?: readonly string[];
  /** Those bases' versions and weights as the task started, for retrieval (see `HybridQuery.bases`). */
  departmentKnowledgeBases?: readonly KnowledgeBaseSnapshot[];
  /** The sender's profile facts (null: no profile), when loaded with the context. */
  profile?: ProfileFacts | null;
  /** The turns before the message, oldest first, when loaded with the context. */
  turns?: Turn[];
  /** The namespace's intent trust records and the intents the sender met in it, as the task started. */
  standings: IntentStandings;
  /** The roles that grant canApprove, as the task started (the approvers of a reply that waits). */
  approverRoleIds?: readonly string[];
}

/** What the delivery decision weighs an intent with (confidence_check). */
export interface IntentStandings {
  /** By intent name; an intent without a record is not autonomous. */
  trust: ReadonlyMap<string, { isAutonomous: boolean; samplingRate: number }>;
  /** Intents the sender met before in this namespace (first interactions are sent to a human). */
  met: ReadonlySet<string>;
}

/** The employee profile fields the prompt uses. */
export interface ProfileFacts {
  summary: string;
  currentProjects: string[];
  frequentIntents: string[];
  accessLevel: string;
}

/** Languages a reply is written in. */
export type ReplyLanguage = 'en' | 'uk' | 'ru';

/** What a step answers: its value for the next steps, and what its AgentToolCall row records as output. */
export interface StepOutcome<T> {
  value: T;
  /** Stored as the tool call's outputData. */
  output: Record<string, unknown>;
}

/**
 * One pipeline step. `input` is recorded as the tool call's inputData (also
 * when the step fails); `run` does the work and stops when `signal` aborts
 * (the step ran past AGENT_TASK_TIMEOUT_MS).
 */
export interface Step<In, Out> {
  input(context: TaskContext, previous: In): Record<string, unknown>;
  run(context: TaskContext, previous: In, signal: AbortSignal): Promise<StepOutcome<Out>>;
}
