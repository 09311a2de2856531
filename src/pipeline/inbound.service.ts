import { randomUUID } from 'node:crypto';
import type { Bus } from '../core/bus/bus.js';
import { ValidationError } from '../core/errors/app-errors.js';
import type { QueueDriver } from '../core/queue/queue.js';
import { type AgentTaskCommon, publishEvent } from '../core/realtime/events.js';
import type { MessageRow, MessagesRepository } from '../modules/conversations/messages.repository.js';
import { AGENT_ADAPTERS, DEFAULT_AGENT_ADAPTER } from '../modules/namespaces/agent-adapters.js';
import type { InboundRepository } from './inbound.repository.js';
import type { IdentifiedSender, InboundChannel, SenderResolver } from './senders.js';
import type { AgentTaskRow, TasksRepository } from './tasks.repository.js';

/** One message from a channel adapter (or the web chat route), already authenticated by its transport. */
export interface InboundMessage {
  channel: 'web' | 'chanA' | 'chanB' | 'email';
  /** Channel A: the sender's phone number; channel B: the platform's numeric user id; web: the user id. */
  channelUserId: string;
  /** Web: the calling user. */
  userId?: string;
  text: string;
  /** Idempotency key: the platform's message id; web: the client's message id, scoped to the user. */
  channelMessageId?: string | null;
  senderName?: string;
  metadata?: Record<string, unknown>;
}

export interface InboundResult {
  messageId: string;
  conversationId: string;
  /** Null only for a duplicate whose first delivery stored no task (cannot happen today; kept for callers). */
  taskId: string | null;
  /** True when this channel message id was received before: nothing new was stored or queued. */
  duplicate: boolean;
}

/** Longest message text accepted, in characters. */
export const MAX_INBOUND_CHARS = 16_000;
const MAX_ID_CHARS = 200;

/** The queue job id of a task's first run; never contains ':'. */
export const taskJobId = (taskId: string) => `agent-task-${taskId}`;

/** Adds a task's run job under its id (`agent-task-<taskId>`): a no-op when the job exists. */
export async function addRunJob(queue: QueueDriver, task: { id: string; jobId: string }): Promise<void> {
  await queue.add('agent-tasks', 'run', { taskId: task.id }, { jobId: task.jobId });
}

export interface InboundServiceDeps {
  rows: InboundRepository;
  messages: Pick<MessagesRepository, 'findMessageByChannelId'>;
  tasks: TasksRepository;
  senders: SenderResolver;
  queue: QueueDriver;
  bus: Bus;
}

/**
 * The one entry point of inbound messages: channel adapters and the web
 * chat call it with what their transport received.
 */
export function createInboundService(deps: InboundServiceDeps) {
  const { rows, messages, tasks, senders, queue, bus } = deps;

  /**
   * Stores the message in the sender's open conversation (opened when there
   * is none; a closed one is never reused) with its task: `queued`, or
   * `failed` with the reason when it cannot be answered. One statement; a
   * channel sender's first message creates the user first, and a message
   * that raced another to open the conversation is stored again. Answers
   * null when the channel message id is stored already (nothing is written).
   */
  async function storeWithTask(
    input: InboundMessage & { channel: InboundChannel },
    sender: IdentifiedSender,
    channelMessageId: string | null | undefined,
  ): Promise<{ message: MessageRow; task: AgentTaskRow } | null> {
    const { channelUserId } = sender;
    let created = false;
    for (let attempt = 1; ; attempt++) {
      const id = randomUUID();
      const stored = await rows.store({
        channel: input.channel,
        channelUserId,
        sender: sender.lookup,
        conversationId: randomUUID(),
        message: {
          content: input.text,
          channelMessageId: channelMessageId ?? null,
          metadata: {
            ...(input.metadata ?? {}),
            ...(input.senderName ? { senderName: input.senderName } : {}),
          },
        },
        task: { id, jobId: taskJobId(id) },
        adapters: AGENT_ADAPTERS,
        defaultAdapter: DEFAULT_AGENT_ADAPTER,
      });
      if (stored === 'repeated') return null;
      if (stored === 'unknown-sender') {
        if (created)
          throw new Error(`the ${input.channel} sender ${channelUserId} was created but not found`);
        // A channel sender's first message: the user is created (a web sender must exist: this throws).
        await senders.create(sender);
        created = true;
        continue;
      }
      if (stored !== 'raced') return stored;
      if (attempt >= 4)
        throw new Error(
          `conversation of ${input.channel} sender ${channelUserId} was neither opened nor found`,
        );
    }
  }

  async function duplicateOf(channel: string, channelMessageId: string): Promise<InboundResult | null> {
    const message = await messages.findMessageByChannelId(channel, channelMessageId);
    if (!message) return null;
    const task = await tasks.findByMessage(message.id);
    // The first delivery committed but may have lost its job (queue unreachable): adding it again is a no-op otherwise.
    if (task?.status === 'queued') await addRunJob(queue, task);
    return {
      messageId: message.id,
      conversationId: message.conversationId,
      taskId: task?.id ?? null,
      duplicate: true,
    };
  }

  return {
    /**
     * Stores an inbound message and starts its agent task: finds or creates
     * the sender, finds or opens the conversation, resolves the namespace,
     * and in one statement stores the message and a `queued` task; after
     * the commit enqueues `agent-tasks` and publishes `agent-task.created`.
     * A repeated channel message id stores and queues nothing and answers
     * `duplicate: true`. When the department has no namespace (or the sender
     * is deactivated) the message is kept and the task is created `failed`
     * with the reason (`agent-task.failed` follows `agent-task.created`).
     * Messages of one conversation are later processed in the order this
     * method stored them.
     * @throws ValidationError for an empty or oversized text, an unknown
     *   sender format, or the `email` channel (it has no transport).
     */
    async receive(message: InboundMessage): Promise<InboundResult> {
      const input = validate(message);
      const channelMessageId =
        input.channelMessageId && input.channel === 'web'
          ? `${input.userId ?? ''}:${input.channelMessageId}`
          : input.channelMessageId;
      const sender = senders.identify(input);

      // A repeated channel message id is found by the message insert's conflict (no lookup first: the
      // first delivery is the common case), and then nothing is written, not even a conversation.
      const stored = await storeWithTask(input, sender, channelMessageId);
      if (!stored) {
        const duplicate = channelMessageId ? await duplicateOf(input.channel, channelMessageId) : null;
        if (!duplicate) throw new Error('an inbound message was neither stored nor found');
        return duplicate;
      }

      const { message: row, task } = stored;
      const common: AgentTaskCommon = {
        taskId: task.id,
        jobId: task.jobId,
        namespaceId: task.namespaceId,
        departmentId: task.departmentId,
        adapterType: task.adapterType,
        status: task.status as AgentTaskCommon['status'],
      };
      // Published before the enqueue, so a worker's `started` can never overtake `created`.
      await publishEvent(bus, 'agent-task.created', common);
      if (task.status === 'queued') await addRunJob(queue, task);
      if (task.status === 'failed') {
        await publishEvent(bus, 'agent-task.failed', {
          ...common,
          errorMessage: task.errorMessage ?? 'failed',
        });
      }
      return { messageId: row.id, conversationId: row.conversationId, taskId: task.id, duplicate: false };
    },
  };
}

export type InboundService = ReturnType<typeof createInboundService>;

function validate(message: InboundMessage): InboundMessage & { channel: InboundChannel } {
  const problems: Array<{ field: string; message: string }> = [];
  if (message.channel === 'email') {
    problems.push({ field: 'channel', message: 'the email channel has no transport yet' });
  } else if (!['web', 'chanA', 'chanB'].includes(message.channel)) {
    problems.push({ field: 'channel', message: 'must be web, chanA or chanB' });
  }
  const text = typeof message.text === 'string' ? message.text.trim() : '';
  if (!text) problems.push({ field: 'text', message: 'must not be empty' });
  if (text.length > MAX_INBOUND_CHARS) {
    problems.push({ field: 'text', message: `must be at most ${MAX_INBOUND_CHARS} characters` });
  }
  if (message.channel !== 'web' && !message.channelUserId?.trim()) {
    problems.push({ field: 'channelUserId', message: 'must not be empty' });
  }
  if (message.channelMessageId && message.channelMessageId.length > MAX_ID_CHARS) {
    problems.push({ field: 'channelMessageId', message: `must be at most ${MAX_ID_CHARS} characters` });
  }
  if (problems.length > 0) throw new ValidationError(problems);
  return { ...message, text, channel: message.channel as InboundChannel };
}
