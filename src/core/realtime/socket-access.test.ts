import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace, createRole, createUser } from '../../../test/factories.js';
import { fakeAgentTaskEvent } from '../../../test/realtime.js';
import { type Frame, SocketTestClient, startSecondApi } from '../../../test/ws-client.js';
import type { Bus } from '../bus/bus.js';
import { publishEvent } from './events.js';

/**
 * Sockets follow access: once the request that narrows a user's access has
 * answered, no event outside it reaches their sockets, on this instance and
 * on a second one. The second instance shares the database (and, with Redis,
 * the bus); on the embedded drivers its bus is its own, so it never hears the
 * access-change message and only the delivery-time check guards it.
 */
const ctx = useTestApp();
let second: Awaited<ReturnType<typeof startSecondApi>>;
let firstUrl: string;

beforeAll(async () => {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  firstUrl = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  second = await startSecondApi(ctx.container);
});

const clients: SocketTestClient[] = [];
afterAll(async () => {
  for (const client of clients) client.close();
  await second?.close();
});

interface Replica {
  baseUrl: string;
  /** The bus this replica's sockets listen on: events published here reach them. */
  bus: Bus;
}
const REPLICAS: Record<string, () => Replica> = {
  'the instance that made the change': () => ({ baseUrl: firstUrl, bus: ctx.container.bus }),
  'a second instance': () => ({ baseUrl: second.baseUrl, bus: second.container.bus }),
};

async function connect(replica: Replica, path: string, token: string): Promise<SocketTestClient> {
  const client = await SocketTestClient.open(`${replica.baseUrl}${path}`);
  clients.push(client);
  return client.authenticate(token);
}

async function subscribe(client: SocketTestClient, namespaceId: string): Promise<void> {
  client.send({ action: 'subscribe', namespaceId });
  await client.waitFor(
    'subscribed',
    (f) => f.event === 'subscribed' && f.payload.namespaceId === namespaceId,
  );
}

/** A department with one namespace. */
async function departmentWithNamespace(): Promise<{ departmentId: string; namespaceId: string }> {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id });
  return { departmentId: department.id, namespaceId: namespace.id };
}

const taskIdsOf = (client: SocketTestClient) =>
  client.frames.filter((f) => f.event === 'agent-task.created').map((f) => f.payload.taskId);

/**
 * Publishes an event of the withdrawn namespace, then one of a namespace the
 * user keeps, in this order on one channel: the kept one arriving proves the
 * withdrawn one was handled before it, and was not sent.
 */
async function expectWithdrawn(
  client: SocketTestClient,
  bus: Bus,
  withdrawn: { departmentId: string; namespaceId: string },
  kept: { departmentId: string; namespaceId: string },
): Promise<void> {
  const forbidden = fakeAgentTaskEvent(withdrawn.namespaceId, withdrawn.departmentId);
  const marker = fakeAgentTaskEvent(kept.namespaceId, kept.departmentId);
  await publishEvent(bus, 'agent-task.created', forbidden);
  await publishEvent(bus, 'agent-task.created', marker);
  await client.waitFor('the event of the kept namespace', (f) => f.payload.taskId === marker.taskId);
  expect(taskIdsOf(client)).toEqual([marker.taskId]);
  const dropped = await client.waitFor(
    'the error event of the dropped subscription',
    (f) => f.event === 'error' && f.payload.namespaceId === withdrawn.namespaceId,
  );
  expect(dropped.payload.message).toMatch(/no longer in your departments/);
  expect(client.closedWith).toBeNull();
}

describe.each(Object.keys(REPLICAS))('a socket on %s follows access', (where) => {
  it('a move to another department by PATCH /users/:id ends the old department’s events', async () => {
    const replica = REPLICAS[where]!();
    const [a, b, kept] = await Promise.all([
      departmentWithNamespace(),
      departmentWithNamespace(),
      departmentWithNamespace(),
    ]);
    const head = await createUser(ctx.container, {
      role: 'dept_head',
      departmentId: a.departmentId,
      extraDepartmentIds: [kept.departmentId],
    });
    const bystander = await createUser(ctx.container, { role: 'dept_head', departmentId: a.departmentId });
    const admin = await createUser(ctx.container, { role: 'admin' });
    const client = await connect(replica, '/ws/agent-tasks', head.token);
    await subscribe(client, a.namespaceId);
    await subscribe(client, kept.namespaceId);
    const other = await connect(replica, '/ws/agent-tasks', bystander.token);
    await subscribe(other, a.namespaceId);

    const moved = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${head.user.id}`,
      headers: admin.headers,
      payload: { departmentId: b.departmentId },
    });
    expect(moved.statusCode).toBe(200);

    await expectWithdrawn(client, replica.bus, a, kept);
    // The new department is open to a new subscription; the bystander still gets department A.
    await subscribe(client, b.namespaceId);
    const stillA = fakeAgentTaskEvent(a.namespaceId, a.departmentId);
    await publishEvent(replica.bus, 'agent-task.created', stillA);
    await other.waitFor('department A’s event', (f) => f.payload.taskId === stillA.taskId);
  });

  it('a role edit by PATCH /roles/:id that takes a department and permissions from the role', async () => {
    const replica = REPLICAS[where]!();
    const [home, viaRole] = await Promise.all([departmentWithNamespace(), departmentWithNamespace()]);
    const role = await createRole(ctx.container, {
      permissions: ['canViewKnowledge'],
      departmentIds: [viaRole.departmentId],
    });
    const holder = await createUser(ctx.container, { role: role.slug, departmentId: home.departmentId });
    const admin = await createUser(ctx.container, { role: 'admin' });
    const client = await connect(replica, '/ws/agent-tasks', holder.token);
    await subscribe(client, viaRole.namespaceId);
    await subscribe(client, home.namespaceId);

    const edited = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/roles/${role.id}`,
      headers: admin.headers,
      payload: { permissions: [], departmentIds: [] },
    });
    expect(edited.statusCode).toBe(200);

    // The socket needs no named permission: it stays open with its own department.
    await expectWithdrawn(client, replica.bus, viaRole, home);
  });

  it('a department revoke by POST /users/:id/permissions/revoke', async () => {
    const replica = REPLICAS[where]!();
    const [home, granted] = await Promise.all([departmentWithNamespace(), departmentWithNamespace()]);
    const user = await createUser(ctx.container, {
      departmentId: home.departmentId,
      extraDepartmentIds: [granted.departmentId],
    });
    const admin = await createUser(ctx.container, { role: 'admin' });
    const client = await connect(replica, '/ws/agent-tasks', user.token);
    await subscribe(client, granted.namespaceId);
    await subscribe(client, home.namespaceId);

    const revoked = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/users/${user.user.id}/permissions/revoke`,
      headers: admin.headers,
      payload: { departmentId: granted.departmentId },
    });
    expect(revoked.statusCode).toBe(200);

    await expectWithdrawn(client, replica.bus, granted, home);
  });

  it('deactivation: both sockets close with 4003 and no later push reaches them', async () => {
    const replica = REPLICAS[where]!();
    const home = await departmentWithNamespace();
    const user = await createUser(ctx.container, { departmentId: home.departmentId });
    const admin = await createUser(ctx.container, { role: 'admin' });
    const tasks = await connect(replica, '/ws/agent-tasks', user.token);
    await subscribe(tasks, home.namespaceId);
    const notifications = await connect(replica, '/ws/notifications', user.token);

    const deactivated = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/users/${user.user.id}`,
      headers: admin.headers,
      payload: { isActive: false },
    });
    expect(deactivated.statusCode).toBe(200);

    // Without the revocation message (a second embedded instance) the pushes themselves find the user gone.
    await publishEvent(
      replica.bus,
      'agent-task.created',
      fakeAgentTaskEvent(home.namespaceId, home.departmentId),
    );
    await publishEvent(replica.bus, 'notification.created', {
      id: randomUUID(),
      userId: user.user.id,
      type: 'system',
      title: 'After deactivation',
      body: null,
      entityType: null,
      entityId: null,
      readAt: null,
      createdAt: new Date().toISOString(),
    });
    expect((await tasks.closed()).code).toBe(4003);
    expect((await notifications.closed()).code).toBe(4003);
    expect(taskIdsOf(tasks)).toEqual([]);
    expect(notifications.frames.filter((f: Frame) => f.type === 'notification.created')).toEqual([]);
  });
});
