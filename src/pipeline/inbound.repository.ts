import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../core/db/client.js';
import { agentTasks, conversations, messages, namespaces, users } from '../core/db/schema/index.js';
import { rowFromJson } from '../core/db/sql-helpers.js';
import {
  type ConversationRow,
  type MessageRow,
  type NamespaceRow,
  routedNamespaceOf,
  type SenderLookup,
  senderQuery,
  type UserRow,
} from './conversations.repository.js';
import type { AgentTaskRow, NewAgentTask } from './tasks.repository.js';

/**
 * Where an inbound message goes: its sender's user (null when none is
 * found), the sender's conversation that is not closed, and the namespace
 * to answer from.
 */
export interface InboundRoute {
  sender: UserRow | null;
  conversation: ConversationRow | null;
  /** The conversation's namespace, else the routed one of its department (or the sender's, without a conversation). */
  namespace: NamespaceRow | null;
}

/** An inbound message to store with its task, in the conversation found or in one to open. */
export interface InboundWrite {
  conversation:
    | { opens: false; id: string }
    | {
        opens: true;
        id: string;
        channel: string;
        channelUserId: string;
        userId: string;
        departmentId: string;
      };
  /** The namespace the task answers from; an open conversation without one gets it too. */
  namespaceId: string | null;
  message: {
    channel: string;
    content: string;
    channelMessageId: string | null;
    metadata: Record<string, unknown>;
  };
  task: NewAgentTask & { id: string; jobId: string; departmentId: string };
}

/**
 * What storing answered: the message and its task; `repeated` when the
 * channel message id is stored already; `raced` when a concurrent message
 * opened the sender's conversation first (read the route again). Nothing is
 * written in the last two cases.
 */
export type InboundStored = { message: MessageRow; task: AgentTaskRow } | 'repeated' | 'raced';

/**
 * The inbound message's two statements: the route read (sender,
 * conversation, namespace), then the message,
 * its task and the conversation (opened, or its last message time) written
 * in one statement of data-modifying CTEs, atomic without a transaction.
 */
export function createInboundRepository(db: Database) {
  return {
    /**
     * The sender's user row, their open conversation on the channel and the
     * namespace its message goes to, in one query; the sender's department
     * routes a message that opens a conversation.
     */
    async route(channel: string, channelUserId: string, sender: SenderLookup): Promise<InboundRoute> {
      // The status is a literal, so that the partial unique index on open conversations serves the lookup.
      const [row] = rowsOf<{
        sender: Record<string, unknown> | null;
        conversation: Record<string, unknown> | null;
        namespace: Record<string, unknown> | null;
      }>(
        await db.execute(sql`WITH sender AS (${senderQuery(sender)}),
          open AS (
            SELECT * FROM conversations
            WHERE channel = ${channel} AND channel_user_id = ${channelUserId} AND status <> 'closed'
            LIMIT 1
          )
          SELECT (SELECT row_to_json(sender) FROM sender) AS sender,
            (SELECT row_to_json(open) FROM open) AS conversation,
            (SELECT row_to_json(n) FROM namespaces n WHERE n.id = coalesce((SELECT namespace_id FROM open),
              ${routedNamespaceOf(sql`coalesce((SELECT department_id FROM open), (SELECT department_id FROM sender))`)})) AS namespace`),
      );
      return {
        sender: row?.sender ? rowFromJson(users, row.sender) : null,
        conversation: row?.conversation ? rowFromJson(conversations, row.conversation) : null,
        namespace: row?.namespace ? rowFromJson(namespaces, row.namespace) : null,
      };
    },

    /**
     * Stores the message and its task, opening the conversation or moving
     * its last message time (and giving it the namespace when it had none).
     * A conversation is opened only when the channel message id is new, so a
     * repeated delivery leaves nothing behind.
     */
    async store(write: InboundWrite): Promise<InboundStored> {
      const { conversation: target, message, task } = write;
      const opens = target.opens ? target : null;
      const [row] = rowsOf<{
        message: Record<string, unknown> | null;
        task: Record<string, unknown> | null;
        placed: boolean;
        repeated: boolean;
      }>(
        await db.execute(sql`WITH opened AS (
            INSERT INTO conversations (id, channel, channel_user_id, user_id, department_id, namespace_id, status,
              last_message_at)
            SELECT ${target.id}::uuid, ${opens?.channel ?? null}, ${opens?.channelUserId ?? null},
              ${opens?.userId ?? null}::uuid, ${opens?.departmentId ?? null}::uuid, ${write.namespaceId}::uuid,
              'open', now()
            WHERE ${target.opens}::boolean AND NOT EXISTS (SELECT 1 FROM messages m
              WHERE m.channel = ${message.channel} AND m.channel_message_id = ${message.channelMessageId})
            ON CONFLICT DO NOTHING
            RETURNING id
          ),
          placed AS (
            SELECT id FROM opened UNION ALL SELECT ${target.id}::uuid WHERE NOT ${target.opens}::boolean
          ),
          message AS (
            INSERT INTO messages (conversation_id, channel, direction, content, channel_message_id, metadata)
            SELECT placed.id, ${message.channel}, 'inbound', ${message.content}, ${message.channelMessageId},
              ${JSON.stringify(message.metadata)}::jsonb
            FROM placed
            ON CONFLICT DO NOTHING
            RETURNING *
          ),
          touched AS (
            UPDATE conversations c SET last_message_at = message.created_at, updated_at = now(),
              namespace_id = coalesce(c.namespace_id, ${write.namespaceId}::uuid)
            FROM message
            WHERE c.id = message.conversation_id AND NOT ${target.opens}::boolean
          ),
          task AS (
            INSERT INTO agent_tasks (id, job_id, namespace_id, department_id, conversation_id, message_id, adapter_type,
              status, error_message, finished_at, duration_ms)
            SELECT ${task.id}::uuid, ${task.jobId}, ${task.namespaceId ?? null}::uuid, ${task.departmentId}::uuid,
              message.conversation_id, message.id, ${task.adapterType ?? 'api'}, ${task.status ?? 'queued'},
              ${task.errorMessage ?? null}, ${task.finishedAt?.toISOString() ?? null}::timestamptz,
              ${task.durationMs ?? null}::integer
            FROM message
            RETURNING *
          )
          SELECT (SELECT row_to_json(message) FROM message) AS message, (SELECT row_to_json(task) FROM task) AS task,
            EXISTS (SELECT 1 FROM placed) AS placed,
            EXISTS (SELECT 1 FROM messages m
              WHERE m.channel = ${message.channel} AND m.channel_message_id = ${message.channelMessageId}) AS repeated`),
      );
      if (row?.message && row.task) {
        return { message: rowFromJson(messages, row.message), task: rowFromJson(agentTasks, row.task) };
      }
      return row?.placed || row?.repeated ? 'repeated' : 'raced';
    },
  };
}

export type InboundRepository = ReturnType<typeof createInboundRepository>;
