import type { Bus, Unsubscribe } from '../bus/bus.js';

/**
 * The realtime event map: every event the service publishes for sockets,
 * typed in one place. Producers write their database rows first, commit,
 * then publish here; a socket is a live transport only (clients re-read
 * through REST after a reconnect). Delivery is at most once.
 *
 * Events travel on one bus channel per family: `agent-task` carries the
 * five `agent-task.*` events, `notification` carries `notification.created`.
 * Each bus message is an {@link EventEnvelope} `{ event, payload }`, which is
 * also the frame the sockets send to clients.
 *
 * - `/ws/agent-tasks` subscribes to {@link AGENT_TASK_CHANNEL} and forwards
 *   an event to the sockets subscribed to its `namespaceId` (a task without a
 *   namespace reaches no namespace subscription) whose user may see its
 *   `departmentId`.
 * - `/ws/notifications` subscribes to {@link NOTIFICATION_CHANNEL} and sends
 *   `{ type: 'notification.created', payload }` to the sockets of
 *   `payload.userId` only.
 */

/** AgentTask status values. */
export type AgentTaskStatus = 'queued' | 'running' | 'done' | 'failed' | 'timeout';

/** The fields every `agent-task.*` event carries. */
export interface AgentTaskCommon {
  taskId: string;
  jobId: string;
  /** Null for a task whose department has no namespace (it is created failed). */
  namespaceId: string | null;
  departmentId: string;
  /** `api` or a local-runner adapter. */
  adapterType: string;
  status: AgentTaskStatus;
}

/** One persisted pipeline step, as `agent-task.tool-call` carries it. */
export interface ToolCallEvent {
  id: string;
  stepName: string;
  /** done, failed or timeout. */
  status: string;
  inputData: unknown;
  outputData: unknown;
  durationMs: number;
}

/** A notification row as the notification socket sends it (timestamps in ISO 8601). */
export interface NotificationPayload {
  id: string;
  userId: string;
  type: string;
  title: string;
  body: string | null;
  entityType: string | null;
  entityId: string | null;
  readAt: string | null;
  createdAt: string;
}

/** Event name → payload. */
export interface RealtimeEvents {
  /** A task was created: `queued`, or `failed` at once when its department has no namespace. */
  'agent-task.created': AgentTaskCommon;
  /** A worker picked the task up (status `running`). */
  'agent-task.started': AgentTaskCommon;
  /** A step finished (or failed); `progress` is finished steps over all four, from 0 to 1. */
  'agent-task.tool-call': AgentTaskCommon & { progress: number; toolCall: ToolCallEvent };
  /** Status `done`; `output` is the task's output (reply, route, approval or message id). */
  'agent-task.completed': AgentTaskCommon & { output: Record<string, unknown>; durationMs: number };
  /** Status `failed` or `timeout`, with the reason. */
  'agent-task.failed': AgentTaskCommon & { errorMessage: string };
  /** A notification row was written for `payload.userId`. */
  'notification.created': NotificationPayload;
}

export type RealtimeEventName = keyof RealtimeEvents;

/** The shape on the bus and on the sockets. */
export interface EventEnvelope<E extends RealtimeEventName = RealtimeEventName> {
  event: E;
  payload: RealtimeEvents[E];
}

/** Bus channel of the `agent-task.*` events. */
export const AGENT_TASK_CHANNEL = 'agent-task';
/** Bus channel of `notification.created`. */
export const NOTIFICATION_CHANNEL = 'notification';

export type EventFamily = typeof AGENT_TASK_CHANNEL | typeof NOTIFICATION_CHANNEL;

/** The bus channel an event travels on: the part of its name before the dot. */
export function channelOf(event: RealtimeEventName): EventFamily {
  return event.startsWith('agent-task.') ? AGENT_TASK_CHANNEL : NOTIFICATION_CHANNEL;
}

/** Publishes one event on its family's channel. Call after the rows it describes are committed. */
export async function publishEvent<E extends RealtimeEventName>(
  bus: Bus,
  event: E,
  payload: RealtimeEvents[E],
): Promise<void> {
  const envelope: EventEnvelope<E> = { event, payload };
  await bus.publish(channelOf(event), envelope);
}

/** An event ready to publish: its envelope, as {@link publishEvents} takes it. */
export function eventOf<E extends RealtimeEventName>(event: E, payload: RealtimeEvents[E]): EventEnvelope<E> {
  return { event, payload };
}

/**
 * Publishes the events of one moment in the order given, in one round trip
 * on the Redis bus. Call after the rows they describe are committed.
 */
export async function publishEvents(bus: Bus, envelopes: readonly EventEnvelope[]): Promise<void> {
  await bus.publishAll(
    envelopes.map((envelope) => ({ channel: channelOf(envelope.event), message: envelope })),
  );
}

/** Listens to one family of events (socket registries, tests). */
export function subscribeEvents(
  bus: Bus,
  family: EventFamily,
  handler: (envelope: EventEnvelope) => void,
): Promise<Unsubscribe> {
  return bus.subscribe(family, (message) => handler(message as EventEnvelope));
}
