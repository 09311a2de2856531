import { randomUUID } from 'node:crypto';
import type { AfterCommit } from '../core/after-commit.js';
import type { Bus } from '../core/bus/bus.js';
import type { Transaction } from '../core/db/client.js';
import type { QueueDriver, QueueName } from '../core/queue/queue.js';
import { type EventEnvelope, eventOf, publishEvents } from '../core/realtime/events.js';
import type { ReleasedReply, ReleasedReplyWritten } from '../modules/approvals/approval-ports.js';
import type { ConversationRow, Turn } from '../modules/conversations/conversations.repository.js';
import type {
  MessageRow,
  MessagesRepository,
  OutboundReply,
} from '../modules/conversations/messages.repository.js';
import { notificationTexts } from '../modules/notifications/notification-texts.js';
import { toNotification } from '../modules/notifications/notifications.service.js';
import type { Recipients } from '../modules/notifications/recipients.js';
import type { DecisionRepository, DecisionWritten, ReplyNotice, TaskEnd } from './decision.repository.js';
import type { Decision } from './hitl-decision.js';
import type { GenerationRun, NewToolCall } from './tasks.repository.js';

/** A retrieved chunk as an approval shows it to the reviewer. */
export interface ReplySource {
  chunkId: string;
  documentId: string;
  title: string;
  score: number;
}

/** What the reviewer sees besides the reply: the turns before it and the message it answers. */
export interface ApprovalContext {
  [key: string]: unknown;
  channel: string;
  language: string;
  userMessage: { id: string; content: string; createdAt: string };
  turns: Turn[];
}

export interface DecideInput {
  task: { id: string; namespaceId: string; departmentId: string };
  conversation: ConversationRow;
  inbound: MessageRow;
  /** The roles that grant canApprove when read with the task's context (else they are read here). */
  approverRoleIds?: readonly string[];
  decision: Decision;
  reply: string;
  intent: string;
  confidence: number;
  sources: ReplySource[];
  context: ApprovalContext;
  /** The tool calls not written yet (`generate`, `confidence_check`), written with the decision. */
  toolCalls: NewToolCall[];
  /** The generation's run (trace) when not written yet, written with the decision. */
  run: GenerationRun | null;
  /** The task's output besides the route's ids. */
  output: Record<string, unknown>;
}

/** What the decision wrote: an approval, or the outbound message. */
export interface RouteResult {
  route: Decision['route'];
  approvalId: string | null;
  messageId: string | null;
}

/** The decision as written: the finished task, its last tool calls, the route and the work after it. */
export interface Decided extends DecisionWritten {
  result: RouteResult;
  effects: AfterCommit;
}

/** The queue of each channel with a transport; `web` needs none, `email` has none yet. */
const OUTBOUND_QUEUE: Partial<Record<string, QueueName>> = {
  chanA: 'chanA-outbound',
  chanB: 'chanB-outbound',
};

/** The channels whose replies a transport sends through a queue. */
export const SENT_CHANNELS: readonly string[] = Object.keys(OUTBOUND_QUEUE);

const SNIPPET = 200;

/**
 * A reply to write in the conversation, and the employee's notification of
 * it: on the web chat the client reads the conversation through the API, so
 * the reply is `delivered` at once and the notification says it is there;
 * on a channel it is `queued` for its outbound job.
 */
function outboundReply(
  conversation: ConversationRow,
  reply: { id?: string; content: string; taskId: string | null; approvalId: string | null },
): { reply: OutboundReply; notice: ReplyNotice | null } {
  const web = conversation.channel === 'web';
  return {
    reply: {
      ...reply,
      conversationId: conversation.id,
      channel: conversation.channel,
      status: web ? 'delivered' : 'queued',
    },
    notice: web
      ? { userId: conversation.userId, text: notificationTexts.assistantReply(snippet(reply.content)) }
      : null,
  };
}

/** The outbound job of a reply on a channel that sends it; re-adding an existing job id is a no-op. */
function outboundJobs(
  conversation: Pick<ConversationRow, 'channel'>,
  messageId: string,
): AfterCommit['jobs'] {
  const queue = OUTBOUND_QUEUE[conversation.channel];
  return queue ? [{ queue, messageId }] : [];
}

/**
 * The outbound job a written reply still needs when the job that wrote it
 * runs again (its worker may have stopped between the commit and the
 * enqueue): the job of a reply still `queued`; none for one already sent,
 * failed or delivered (the web chat's).
 */
export function pendingReplyJobs(reply: Pick<MessageRow, 'id' | 'channel' | 'status'>): AfterCommit {
  return { jobs: reply.status === 'queued' ? outboundJobs(reply, reply.id) : [], notifications: [] };
}

/**
 * Where a decided reply goes. The pipeline's decision is one statement
 * that ends the task too (`decide`); an approved reply or a bot answer is
 * written in the caller's transaction (`deliverReply`), where a reply the
 * task has already is left alone and nothing new is notified. Jobs and
 * events wait for the commit ({@link AfterCommit}, then `publish`).
 */
export function createReplyRouting(deps: {
  messages: Pick<MessagesRepository, 'findReplyOfTask'>;
  recipients: Recipients;
  decisions: DecisionRepository;
  queue: QueueDriver;
  bus: Bus;
}) {
  const { messages, recipients, decisions, queue, bus } = deps;

  /**
   * Writes the reply's outbound message and, for the web channel, marks it
   * delivered with an `assistant_reply` notification for the employee. The
   * approvals flow reuses it for an approved reply (`approvalId` set).
   * Answers the message (the existing one when the task has a reply already).
   */
  async function deliverReply(tx: Transaction, input: ReleasedReply): Promise<ReleasedReplyWritten> {
    const { conversation, taskId, approvalId, content } = input;
    const { reply, notice } = outboundReply(conversation, { content, taskId, approvalId });
    const written = await decisions.writeOutbound(reply, notice, tx);
    const inserted = written.message;
    const message = inserted ?? (taskId ? await messages.findReplyOfTask(taskId, tx) : null);
    if (!message) throw new Error(`the reply of task ${taskId} was neither written nor found`);
    // A replay enqueues again: safe, see outboundJobs.
    const effects: AfterCommit = {
      jobs: outboundJobs(conversation, message.id),
      notifications: written.notifications,
    };
    return { message, created: inserted !== null, effects };
  }

  /** After the commit: enqueues the outbound jobs (job ids from the message ids, so a repeat adds nothing). */
  async function enqueue(effects: AfterCommit): Promise<void> {
    for (const job of effects.jobs) {
      await queue.add(
        job.queue,
        'send',
        { messageId: job.messageId },
        { jobId: `outbound-${job.messageId}` },
      );
    }
  }

  /** `notification.created` of each notification written, for a caller that publishes them with other events. */
  function notificationEvents(effects: AfterCommit): EventEnvelope[] {
    return effects.notifications.map((row) => eventOf('notification.created', toNotification(row)));
  }

  return {
    deliverReply,

    /**
     * Acts on the delivery decision and ends the task, in one statement
     * (src/pipeline/decision.repository.ts): `hitl` writes a `pending`
     * approval, `escalate` an `escalated` one addressed to a role, each with
     * an `approval_pending` notification for every recipient (read first)
     * and the conversation marked as waiting; `auto_send` writes the reply
     * as {@link deliverReply} does. Writes the last tool calls and records
     * the employee's first interaction with the intent either way. Answers
     * null, having written nothing, when the task was finished already.
     */
    async decide(input: DecideInput): Promise<Decided | null> {
      const { task, conversation, decision } = input;
      const end = (result: RouteResult): TaskEnd => ({
        taskId: task.id,
        output: { ...result, ...input.output },
        finishedAt: new Date(),
        toolCalls: input.toolCalls,
        run: input.run,
        interaction: { userId: conversation.userId, namespaceId: task.namespaceId, intent: input.intent },
      });

      if (decision.route === 'auto_send') {
        const messageId = randomUUID();
        const result: RouteResult = { route: 'auto_send', approvalId: null, messageId };
        const { reply, notice } = outboundReply(conversation, {
          id: messageId,
          content: input.reply,
          taskId: task.id,
          approvalId: null,
        });
        const written = await decisions.writeReply(end(result), { ...reply, id: messageId }, notice);
        if (!written) return null;
        const jobs = outboundJobs(conversation, messageId);
        return { ...written, result, effects: { jobs, notifications: written.notifications } };
      }

      const escalation = decision.reasons.find((reason) => reason.type === 'persona_boundary');
      const escalatedToRole = escalation?.type === 'persona_boundary' ? escalation.escalateToRole : null;
      const result: RouteResult = { route: decision.route, approvalId: randomUUID(), messageId: null };
      const notified = escalatedToRole
        ? await recipients.withRole(conversation.departmentId, escalatedToRole)
        : await recipients.approvers(conversation.departmentId, input.approverRoleIds);
      const written = await decisions.writeApproval(
        end(result),
        {
          id: result.approvalId!,
          taskId: task.id,
          conversationId: conversation.id,
          messageId: input.inbound.id,
          departmentId: conversation.departmentId,
          namespaceId: task.namespaceId,
          status: escalatedToRole ? 'escalated' : 'pending',
          originalContent: input.reply,
          intent: input.intent,
          confidence: input.confidence,
          triggers: decision.reasons,
          sources: input.sources,
          context: input.context,
          escalatedToId: null,
          escalatedToRole,
        },
        notified,
        escalatedToRole
          ? notificationTexts.escalatedReplyAwaitingReview(snippet(input.inbound.content))
          : notificationTexts.replyAwaitingApproval(snippet(input.inbound.content)),
      );
      if (!written) return null;
      return { ...written, result, effects: { jobs: [], notifications: written.notifications } };
    },

    /** After the commit: enqueues the outbound jobs and publishes `notification.created` for each row. */
    async publish(effects: AfterCommit): Promise<void> {
      await enqueue(effects);
      await publishEvents(bus, notificationEvents(effects));
    },

    enqueue,
    notificationEvents,
  };
}

export type ReplyRouting = ReturnType<typeof createReplyRouting>;

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET ? `${flat.slice(0, SNIPPET - 1)}…` : flat;
}
