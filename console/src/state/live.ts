import { signal } from '@preact/signals';
import { api } from '../api/client';
import { type LiveSocket, openSocket, type SocketFrame } from '../api/socket';
import type { Notification } from '../api/types';
import { refusedToken, token } from './session';

/** The bell: the newest notifications and the unread count of all of them. */
export const notifications = signal<Notification[]>([]);
export const unreadCount = signal(0);
/** Bumped on every `approval_pending` push: the inbox reloads on it. */
export const approvalsTick = signal(0);
/** Bumped on every `assistant_reply` push: the chat reloads on it. */
export const chatTick = signal(0);
/** Whether both sockets are authenticated (and subscribed); shown as the "live" mark. */
export const live = signal({ notifications: false, tasks: false });

export type TaskEvent = SocketFrame & { event: string; payload: Record<string, unknown> };
const taskListeners = new Set<(event: TaskEvent) => void>();

/** Calls `listener` for every `agent-task.*` event; answers the function that stops it. */
export function onTaskEvent(listener: (event: TaskEvent) => void): () => void {
  taskListeners.add(listener);
  return () => taskListeners.delete(listener);
}

export async function refreshNotifications(): Promise<void> {
  const page = await api('get', '/notifications', { query: { limit: 20 } });
  notifications.value = page.items;
  unreadCount.value = page.unreadCount;
}

let sockets: LiveSocket[] = [];

/** Opens both sockets for the signed-in user; the agent-task socket follows every namespace they see. */
export function startLive(): void {
  stopLive();
  void refreshNotifications().catch(() => {});
  const notificationSocket = openSocket('notifications', () => token.value, {
    onReady: () => {
      live.value = { ...live.value, notifications: true };
      // Pushes are at most once: what arrived while the socket was down is read again.
      void refreshNotifications().catch(() => {});
      approvalsTick.value++;
    },
    onRefused: refusedToken,
    onFrame: (frame) => {
      if (frame.type !== 'notification.created' || !frame.payload) return;
      const row = frame.payload as unknown as Notification;
      notifications.value = [row, ...notifications.value.filter((n) => n.id !== row.id)].slice(0, 20);
      unreadCount.value += 1;
      if (row.type === 'approval_pending') approvalsTick.value++;
      if (row.type === 'assistant_reply') chatTick.value++;
    },
  });
  const taskSocket = openSocket('agent-tasks', () => token.value, {
    onReady: (socket) => {
      void api('get', '/namespaces', { query: { limit: 100 } })
        .then((page) => {
          for (const ns of page.items) socket.send({ action: 'subscribe', namespaceId: ns.id });
          live.value = { ...live.value, tasks: true };
        })
        .catch(() => {});
    },
    onRefused: refusedToken,
    onFrame: (frame) => {
      if (!frame.event?.startsWith('agent-task.') || !frame.payload) return;
      for (const listener of taskListeners) listener(frame as TaskEvent);
    },
  });
  sockets = [notificationSocket, taskSocket];
}

export function stopLive(): void {
  for (const socket of sockets) socket.close();
  sockets = [];
  live.value = { notifications: false, tasks: false };
}

/** Marks one notification read (the count follows the server's answer). */
export async function markRead(id: string): Promise<void> {
  await api('patch', '/notifications/{id}/read', { params: { id } });
  await refreshNotifications();
}

export async function markAllRead(): Promise<void> {
  await api('post', '/notifications/read-all');
  await refreshNotifications();
}
