import { type SQL, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../core/db/client.js';
import { agentTasks, messages } from '../core/db/schema/index.js';
import { rowFromJson } from '../core/db/sql-helpers.js';
import {
  conversationTouchedCte,
  openedConversationCte,
} from '../modules/conversations/conversations.repository.js';
import { inboundMessageCte, type MessageRow } from '../modules/conversations/messages.repository.js';
import { routedNamespaceOf, type SenderLookup, senderQuery } from './senders.repository.js';
import type { AgentTaskRow } from './tasks.repository.js';

/** A text[] of plain names (letters, digits, `_` and `-`), as one parameter. */
function namesArray(names: readonly string[]): SQL {
  for (const name of names) if (!/^[\w-]+$/.test(name)) throw new Error(`not a plain name: ${name}`);
  return sql`${`{${names.join(',')}}`}::text[]`;
}

/** An inbound message to store with its task, as its transport received it, and the ids to write it under. */
export interface InboundReceipt {
  channel: string;
  /** What the sender's conversation is keyed by on the channel. */
  channelUserId: string;
  /** How the sender's user is found. */
  sender: SenderLookup;
  /** The id of the conversation, when the message opens one. */
  conversationId: string;
  message: {
    content: string;
    channelMessageId: string | null;
    metadata: Record<string, unknown>;
  };
  task: { id: string; jobId: string };
  /** The adapter types a namespace may select (`config.agentRunner.activeAdapter`); any other runs `defaultAdapter`. */
  adapters: readonly string[];
  defaultAdapter: string;
}

/**
 * What storing answered: the message and its task; `unknown-sender` when no
 * user is the sender (create it, then store again); `repeated` when the
 * channel message id is stored already; `raced` when a concurrent message
 * opened the sender's conversation first (store again). Nothing is written
 * in the last three cases.
 */
export type InboundStored =
  | { message: MessageRow; task: AgentTaskRow }
  | 'unknown-sender'
  | 'repeated'
  | 'raced';

/**
 * The inbound message's one statement: the route (the sender's user, their
 * open conversation, the namespace) read and the message, its task and the
 * conversation (opened, or its last message time) written, in data-modifying
 * CTEs, atomic without a transaction.
 */
export function createInboundRepository(db: Database) {
  return {
    /**
     * Stores the message and its task in the sender's conversation that is
     * not closed, or in one it opens (a conversation is opened only when the
     * channel message id is new, so a repeated delivery leaves nothing
     * behind). The message goes to the conversation's namespace, else to the
     * routed one of its department (the sender's, for a new conversation),
     * which an open conversation without one gets too. The task is `queued`,
     * or `failed` with the reason when there is no namespace or the sender's
     * account is deactivated (the message is kept).
     */
    async store(receipt: InboundReceipt): Promise<InboundStored> {
      const { channel, channelUserId, message, task } = receipt;
      const repeatedMessage = sql`SELECT 1 FROM messages m
        WHERE m.channel = ${channel} AND m.channel_message_id = ${message.channelMessageId}`;
      const activeAdapter = sql`route.config -> 'agentRunner' ->> 'activeAdapter'`;
      const [row] = rowsOf<{
        known: boolean;
        message: Record<string, unknown> | null;
        task: Record<string, unknown> | null;
        placed: boolean;
        repeated: boolean;
      }>(
        // The open conversation's status is a literal, so that the partial unique index on open
        // conversations serves the lookup.
        await db.execute(sql`WITH sender AS (${senderQuery(receipt.sender)}),
          open AS (
            SELECT * FROM conversations
            WHERE channel = ${channel} AND channel_user_id = ${channelUserId} AND status <> 'closed'
            LIMIT 1
          ),
          routed AS (
            SELECT s.id AS user_id, s.is_active, o.id AS open_id,
              coalesce(o.department_id, s.department_id) AS department_id,
              coalesce(o.namespace_id, ${routedNamespaceOf(sql`coalesce(o.department_id, s.department_id)`)}) AS namespace_id
            FROM sender s LEFT JOIN open o ON true
          ),
          route AS (
            SELECT r.user_id, r.open_id, r.department_id, n.id AS namespace_id, n.config,
              CASE
                WHEN n.id IS NULL THEN ${'No namespace is configured for department '}::text || r.department_id::text
                  || ${': the message was stored but cannot be answered'}::text
                WHEN NOT r.is_active THEN ${"The sender's account (user "}::text || r.user_id::text
                  || ${') is deactivated: the message was stored but is not answered'}::text
              END AS failure
            FROM routed r LEFT JOIN namespaces n ON n.id = r.namespace_id
          ),
          ${openedConversationCte({ id: receipt.conversationId, channel, channelUserId, unless: repeatedMessage })},
          placed AS (
            SELECT id FROM opened UNION ALL SELECT open_id FROM route WHERE open_id IS NOT NULL
          ),
          ${inboundMessageCte({ channel, ...message })},
          ${conversationTouchedCte('message', 'route')},
          task AS (
            INSERT INTO agent_tasks (id, job_id, namespace_id, department_id, conversation_id, message_id, adapter_type,
              status, error_message, finished_at, duration_ms)
            SELECT ${task.id}::uuid, ${task.jobId}, route.namespace_id, route.department_id,
              message.conversation_id, message.id,
              CASE WHEN ${activeAdapter} = ANY(${namesArray(receipt.adapters)}) THEN ${activeAdapter}
                ELSE ${receipt.defaultAdapter}::text END,
              CASE WHEN route.failure IS NULL THEN 'queued' ELSE 'failed' END, route.failure,
              CASE WHEN route.failure IS NULL THEN NULL ELSE now() END,
              CASE WHEN route.failure IS NULL THEN NULL ELSE 0 END
            FROM message, route
            RETURNING *
          )
          SELECT EXISTS (SELECT 1 FROM sender) AS known,
            (SELECT row_to_json(message) FROM message) AS message, (SELECT row_to_json(task) FROM task) AS task,
            EXISTS (SELECT 1 FROM placed) AS placed, EXISTS (${repeatedMessage}) AS repeated`),
      );
      if (row?.message && row.task) {
        return { message: rowFromJson(messages, row.message), task: rowFromJson(agentTasks, row.task) };
      }
      if (!row?.known) return 'unknown-sender';
      return row.placed || row.repeated ? 'repeated' : 'raced';
    },
  };
}

export type InboundRepository = ReturnType<typeof createInboundRepository>;
