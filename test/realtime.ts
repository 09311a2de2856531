import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, expect } from 'vitest';
import type { Container } from '../src/container.js';
import type { AgentTaskCommon } from '../src/core/realtime/events.js';
import type { TestUser } from './factories.js';
import { createUser } from './factories.js';
import { VACATION_QUESTION } from './pipeline-factories.js';
import type { SocketTestClient } from './ws-client.js';

/** The events one task sends on its way through the pipeline, in order: one tool call per step. */
export const PIPELINE_EVENT_SEQUENCE = [
  'agent-task.created',
  'agent-task.started',
  'agent-task.tool-call',
  'agent-task.tool-call',
  'agent-task.tool-call',
  'agent-task.tool-call',
  'agent-task.completed',
];

/** The progress the four tool-call events of a task carry, in order. */
export const PIPELINE_TOOL_CALL_PROGRESS = [0.25, 0.5, 0.75, 1];

/** An agent-task event as the pipeline publishes it, for a task that does not exist. */
export function fakeAgentTaskEvent(namespaceId: string, departmentId: string): AgentTaskCommon {
  const taskId = randomUUID();
  return {
    taskId,
    jobId: `agent-task-${taskId}`,
    namespaceId,
    departmentId,
    adapterType: 'api',
    status: 'queued',
  };
}

/**
 * Tokens a socket must refuse, made from `user`'s: one with a forged
 * signature and a real user's whose token version has since moved on; and
 * the auth messages carrying them, or no token, or a token that is not text.
 */
export async function refusedSocketAuth(container: Container, user: TestUser) {
  const forged = `${user.token.slice(0, user.token.lastIndexOf('.'))}.${Buffer.from('forged').toString('base64url')}`;
  const stale = await createUser(container);
  await container.repositories.users.bumpTokenVersion(stale.user.id);
  const messages: Array<Record<string, unknown>> = [
    { action: 'auth', token: forged },
    { action: 'auth', token: stale.token },
    { action: 'auth' },
    { action: 'auth', token: 42 },
  ];
  return { forged, stale: stale.token, messages };
}

/** Asks the vacation question as `employee` through the web channel; expects it accepted and answers its task id. */
export async function askOnWebChannel(app: FastifyInstance, employee: TestUser): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/conversations/web/messages',
    headers: employee.headers,
    payload: { text: VACATION_QUESTION },
  });
  expect(res.statusCode).toBe(202);
  return res.json().taskId;
}

/** Deactivates the user through `PATCH /api/v1/users/:id` as a fresh admin, as an administrator would; expects 200. */
export async function deactivateThroughApi(
  app: FastifyInstance,
  container: Container,
  userId: string,
): Promise<void> {
  const admin = await createUser(container, { role: 'admin' });
  const res = await app.inject({
    method: 'PATCH',
    url: `/api/v1/users/${userId}`,
    headers: admin.headers,
    payload: { isActive: false },
  });
  expect(res.statusCode).toBe(200);
}

/**
 * For one test file: answers `track`, which hands back the socket it is
 * given once open and closes every socket it was given after the file's tests.
 */
export function closeSocketsAfterAll<T extends { close(): void }>(): (client: Promise<T>) => Promise<T> {
  const clients: T[] = [];
  afterAll(() => {
    for (const client of clients) client.close();
  });
  return async (client) => {
    const opened = await client;
    clients.push(opened);
    return opened;
  };
}

/** Expects a plain HTTP request to the socket path `path`, without an upgrade, refused with 400 in the error envelope. */
export async function expectPlainRequestRefused(app: FastifyInstance, path: string): Promise<void> {
  const res = await app.inject({ url: path });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ error: 'BadRequestError', statusCode: 400 });
}

/**
 * Expects each auth message, sent first on a fresh socket from `open`, to
 * close that socket with 4003 before it sends a single frame.
 */
export async function expectAuthMessagesRefused(
  open: () => Promise<SocketTestClient>,
  messages: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  for (const auth of messages) {
    const client = await open();
    client.send(auth);
    expect((await client.closed()).code, JSON.stringify(auth).slice(0, 40)).toBe(4003);
    expect(client.frames).toEqual([]);
  }
}

/** Logs `user` out everywhere through `POST /api/v1/me/logout-all`, as the console does; expects 200. */
export async function logOutEverywhere(app: FastifyInstance, user: TestUser): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/me/logout-all', headers: user.headers });
  expect(res.statusCode).toBe(200);
}
