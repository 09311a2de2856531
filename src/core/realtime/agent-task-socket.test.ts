import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createUser, type TestUser } from '../../../test/factories.js';
import { createPipelineScene } from '../../../test/pipeline-factories.js';
import {
  askOnWebChannel,
  closeSocketsAfterAll,
  deactivateThroughApi,
  expectAuthMessagesRefused,
  expectPlainRequestRefused,
  fakeAgentTaskEvent,
  logOutEverywhere,
  PIPELINE_EVENT_SEQUENCE,
  PIPELINE_TOOL_CALL_PROGRESS,
  refusedSocketAuth,
} from '../../../test/realtime.js';
import { SocketTestClient, startSecondApi } from '../../../test/ws-client.js';
import { publishEvent } from './events.js';
import { CLOSE_CODES, HANDSHAKE_TIMEOUT_MS } from './socket-hub.js';

const ctx = useTestApp({}, { workers: true });
let baseUrl: string;

beforeAll(async () => {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});

interface Envelope {
  event: string;
  payload: Record<string, unknown>;
}

/** Agent-task frames are `{ event, payload }`; adds the event lookup and the subscription handshake. */
class Client extends SocketTestClient {
  get events(): Envelope[] {
    return this.frames as Envelope[];
  }

  /** Opens a socket and completes the handshake. */
  static authenticated(url: string, token: string): Promise<Client> {
    return Client.open(url).then((client) => client.authenticate(token));
  }

  /** The first recorded event named `event` (and matching `where`), waiting for it to arrive. */
  async next(
    event: string,
    where: (payload: Record<string, unknown>) => boolean = () => true,
  ): Promise<Envelope> {
    return (await this.waitFor(`${event} event`, (f) => f.event === event && where(f.payload))) as Envelope;
  }

  /** Subscribes and waits for the confirmation. */
  async subscribe(namespaceId: string): Promise<void> {
    this.send({ action: 'subscribe', namespaceId });
    await this.next('subscribed', (p) => p.namespaceId === namespaceId);
  }
}

const track = closeSocketsAfterAll<Client>();

const url = () => `${baseUrl}/ws/agent-tasks`;

async function userWithNamespace(
  role = 'employee',
): Promise<{ user: TestUser; namespaceId: string; departmentId: string }> {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id });
  const user = await createUser(ctx.container, { role, departmentId: department.id });
  return { user, namespaceId: namespace.id, departmentId: department.id };
}

describe('/ws/agent-tasks handshake', () => {
  it('answers a plain HTTP request without an upgrade with 400 in the error envelope', async () => {
    await expectPlainRequestRefused(ctx.app, '/ws/agent-tasks');
  });

  it('answers a valid auth message with authenticated and an empty payload', async () => {
    const { user } = await userWithNamespace();
    const client = await track(Client.authenticated(url(), user.token));
    expect(client.events[0]).toEqual({ event: 'authenticated', payload: {} });
  });

  it(`closes with 4001 when no auth message comes within ${HANDSHAKE_TIMEOUT_MS} ms`, async () => {
    const client = await track(Client.open(url()));
    const closed = await client.closed(HANDSHAKE_TIMEOUT_MS + 10_000);
    expect(closed.code).toBe(CLOSE_CODES.handshakeTimeout);
    expect(closed.code).toBe(4001);
  }, 30_000);

  it('closes with 4003 for a bad, stale or missing token', async () => {
    const { user } = await userWithNamespace();
    const refused = await refusedSocketAuth(ctx.container, user);
    await expectAuthMessagesRefused(() => track(Client.open(url())), refused.messages);
  });

  it('closes with 4003 when another message, or text that is not JSON, comes before auth', async () => {
    const { namespaceId } = await userWithNamespace();
    const subscribeFirst = await track(Client.open(url()));
    subscribeFirst.send({ action: 'subscribe', namespaceId });
    expect((await subscribeFirst.closed()).code).toBe(4003);

    const garbage = await track(Client.open(url()));
    garbage.socket.send('hello');
    expect((await garbage.closed()).code).toBe(4003);
  });

  it('ignores a token in the query: the socket still needs the auth message', async () => {
    const { user, namespaceId } = await userWithNamespace();
    const client = await track(Client.open(`${url()}?token=${encodeURIComponent(user.token)}`));
    client.send({ action: 'subscribe', namespaceId });
    expect((await client.closed()).code).toBe(4003);
    expect(client.events.map((e) => e.event)).not.toContain('authenticated');
  });
});

describe('/ws/agent-tasks subscriptions', () => {
  it("refuses another department's namespace and an unknown one, and forwards only subscribed namespaces", async () => {
    const mine = await userWithNamespace('dept_head');
    const other = await userWithNamespace();
    const client = await track(Client.authenticated(url(), mine.user.token));

    client.send({ action: 'subscribe', namespaceId: other.namespaceId });
    const refused = await client.next('error', (p) => p.namespaceId === other.namespaceId);
    expect(refused.payload).toEqual({
      message: `Namespace ${other.namespaceId} not found`,
      namespaceId: other.namespaceId,
    });
    const unknown = randomUUID();
    client.send({ action: 'subscribe', namespaceId: unknown });
    await client.next('error', (p) => p.namespaceId === unknown);
    client.send({ action: 'subscribe', namespaceId: 'not-a-uuid' });
    await client.next('error', (p) => p.namespaceId === 'not-a-uuid');

    await client.subscribe(mine.namespaceId);
    // Published in this order on one channel: the own event arriving proves the foreign one was not sent.
    const foreign = fakeAgentTaskEvent(other.namespaceId, other.departmentId);
    const own = fakeAgentTaskEvent(mine.namespaceId, mine.departmentId);
    await publishEvent(ctx.container.bus, 'agent-task.created', foreign);
    await publishEvent(ctx.container.bus, 'agent-task.created', own);
    const received = await client.next('agent-task.created');
    expect(received.payload).toEqual(own);
    expect(client.events.filter((e) => e.event === 'agent-task.created')).toHaveLength(1);
  });

  it("lets a global admin subscribe to any department's namespace", async () => {
    const other = await userWithNamespace();
    const admin = await createUser(ctx.container, { role: 'admin' });
    const client = await track(Client.authenticated(url(), admin.token));
    await client.subscribe(other.namespaceId);
    const event = fakeAgentTaskEvent(other.namespaceId, other.departmentId);
    await publishEvent(ctx.container.bus, 'agent-task.started', { ...event, status: 'running' });
    expect((await client.next('agent-task.started')).payload.taskId).toBe(event.taskId);
  });

  it('unsubscribes from one namespace, or from all without a namespaceId', async () => {
    const { user, namespaceId: first, departmentId } = await userWithNamespace();
    const second = (await createNamespace(ctx.container, { departmentId })).id;
    const third = (await createNamespace(ctx.container, { departmentId })).id;
    const client = await track(Client.authenticated(url(), user.token));
    await client.subscribe(first);
    await client.subscribe(second);

    client.send({ action: 'unsubscribe', namespaceId: first });
    await client.next('unsubscribed', (p) => p.namespaceId === first);
    const dropped = fakeAgentTaskEvent(first, departmentId);
    const kept = fakeAgentTaskEvent(second, departmentId);
    await publishEvent(ctx.container.bus, 'agent-task.created', dropped);
    await publishEvent(ctx.container.bus, 'agent-task.created', kept);
    await client.next('agent-task.created', (p) => p.taskId === kept.taskId);

    client.send({ action: 'unsubscribe' });
    await client.next('unsubscribed', (p) => p.namespaceId === null);
    await client.subscribe(third);
    const afterAll = fakeAgentTaskEvent(second, departmentId);
    const marker = fakeAgentTaskEvent(third, departmentId);
    await publishEvent(ctx.container.bus, 'agent-task.created', afterAll);
    await publishEvent(ctx.container.bus, 'agent-task.created', marker);
    await client.next('agent-task.created', (p) => p.taskId === marker.taskId);
    expect(
      client.events.filter((e) => e.event === 'agent-task.created').map((e) => e.payload.taskId),
    ).toEqual([kept.taskId, marker.taskId]);

    client.send({ action: 'dance' });
    expect((await client.next('error')).payload.message).toMatch(/subscribe or unsubscribe/);
  });
});

/** The `agent-task.*` events of one task as a client received them. */
const eventsOf = (client: Client, taskId: string) =>
  client.events.filter((e) => e.event.startsWith('agent-task.') && e.payload.taskId === taskId);

/** Waits for the task's last event, then checks the whole sequence. */
async function expectPipelineSequence(client: Client, taskId: string, namespaceId: string): Promise<void> {
  await client.next('agent-task.completed', (p) => p.taskId === taskId);
  const events = eventsOf(client, taskId);
  expect(events.map((e) => e.event)).toEqual(PIPELINE_EVENT_SEQUENCE);
  const toolCalls = events.filter((e) => e.event === 'agent-task.tool-call');
  expect(toolCalls.map((e) => e.payload.progress)).toEqual(PIPELINE_TOOL_CALL_PROGRESS);
  expect(toolCalls.map((e) => (e.payload.toolCall as { stepName: string }).stepName)).toEqual([
    'inject_profile',
    'rag_search',
    'generate',
    'confidence_check',
  ]);
  expect(events[0]!.payload).toMatchObject({ namespaceId, status: 'queued', adapterType: 'api' });
  expect(events.at(-1)!.payload).toMatchObject({ status: 'done', durationMs: expect.any(Number) });
}

describe('/ws/agent-tasks events of a real message', () => {
  it('delivers created, started, four tool-calls with progress 0.25 to 1, and completed', async () => {
    const scene = await createPipelineScene(ctx.container);
    const client = await track(Client.authenticated(url(), scene.employee.token));
    await client.subscribe(scene.namespaceId);
    const taskId = await askOnWebChannel(ctx.app, scene.employee);
    await expectPipelineSequence(client, taskId, scene.namespaceId);

    const task = await ctx.app.inject({
      url: `/api/v1/agent-tasks/${taskId}`,
      headers: scene.employee.headers,
    });
    expect(task.json()).toMatchObject({ status: 'done', toolCalls: expect.any(Array) });
    expect(task.json().toolCalls).toHaveLength(4);
  });

  it.skipIf(!process.env.REDIS_URL || !process.env.DATABASE_URL)(
    'reaches a subscriber on a second API instance on the same Redis (skipped on the embedded drivers: their bus is in-process)',
    async () => {
      const second = await startSecondApi(ctx.container);
      try {
        const scene = await createPipelineScene(ctx.container);
        const client = await track(
          Client.authenticated(`${second.baseUrl}/ws/agent-tasks`, scene.employee.token),
        );
        await client.subscribe(scene.namespaceId);
        const taskId = await askOnWebChannel(ctx.app, scene.employee);
        await expectPipelineSequence(client, taskId, scene.namespaceId);
      } finally {
        await second.close();
      }
    },
  );
});

describe('/ws/agent-tasks revocation', () => {
  it('closes an authenticated socket when its user logs out everywhere', async () => {
    const { user } = await userWithNamespace();
    const client = await track(Client.authenticated(url(), user.token));
    await logOutEverywhere(ctx.app, user);
    const closed = await client.closed();
    expect(closed.code).toBe(4003);
    expect(closed.reason).toMatch(/revoked/);
  });

  it('closes the sockets of a deactivated user and leaves other users connected', async () => {
    const { user } = await userWithNamespace();
    const bystander = await userWithNamespace();
    const client = await track(Client.authenticated(url(), user.token));
    const other = await track(Client.authenticated(url(), bystander.user.token));
    await deactivateThroughApi(ctx.app, ctx.container, user.user.id);
    expect((await client.closed()).code).toBe(4003);
    // The bystander still answers: its next subscription is confirmed.
    await other.subscribe(bystander.namespaceId);
    expect(other.closedWith).toBeNull();
  });
});

/** Another API replica: its own container and app on the same database and Redis prefix, listening. */
