import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../test/factories.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  makeAutonomous,
  markInteracted,
  type PipelineTestContext,
} from '../../../test/pipeline-factories.js';
import {
  askOnWebChannel,
  closeSocketsAfterAll,
  deactivateThroughApi,
  expectAuthMessagesRefused,
  expectPlainRequestRefused,
  logOutEverywhere,
  refusedSocketAuth,
} from '../../../test/realtime.js';
import { type Frame, SocketTestClient, startSecondApi } from '../../../test/ws-client.js';
import { CLOSE_CODES, HANDSHAKE_TIMEOUT_MS } from './socket-hub.js';

let ctx: PipelineTestContext;
let baseUrl: string;

beforeAll(async () => {
  // The sampling draw is fixed above every sampling rate, so an autonomous intent is auto-sent.
  ctx = await createPipelineTestApp({}, { workers: true, random: () => 0.99 });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `ws://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx?.close());

/** Adds the `notification.created` pushes to the shared socket client. */
class Client extends SocketTestClient {
  /** Opens a socket and completes the first-message handshake. */
  static authenticated(url: string, token: string): Promise<Client> {
    return Client.open(url).then((client) => client.authenticate(token));
  }

  /** The `notification.created` pushes received so far. */
  pushes(): Array<Record<string, unknown>> {
    return this.frames.filter((f) => f.type === 'notification.created').map((f) => f.payload);
  }

  /** Waits for the push of a notification whose fields match `where`. */
  push(where: (payload: Record<string, unknown>) => boolean): Promise<Frame> {
    return this.waitFor(
      'a notification.created push',
      (f) => f.type === 'notification.created' && where(f.payload),
    );
  }
}

const track = closeSocketsAfterAll<Client>();

const url = () => `${baseUrl}/ws/notifications`;

/** Writes a notification for each user and publishes it, as every producer does. */
async function notify(users: TestUser[], title = `Notice ${randomUUID().slice(0, 8)}`) {
  const { service } = ctx.container.notifications;
  const rows = await service.notify(
    users.map((u) => u.user.id),
    { type: 'system', text: () => ({ title, body: null }) },
    ctx.container.db,
  );
  await service.publish(rows);
  return rows;
}

describe('/ws/notifications handshake', () => {
  it('answers a plain HTTP request without an upgrade with 400 in the error envelope', async () => {
    await expectPlainRequestRefused(ctx.app, '/ws/notifications');
  });

  it('answers a valid auth message with authenticated and an empty payload', async () => {
    const user = await createUser(ctx.container);
    const client = await track(Client.authenticated(url(), user.token));
    expect(client.frames[0]).toEqual({ event: 'authenticated', payload: {} });
  });

  it('accepts the token as a query parameter: authenticated without an auth message', async () => {
    const user = await createUser(ctx.container);
    const client = await track(Client.open(`${url()}?token=${encodeURIComponent(user.token)}`));
    await client.waitFor('authenticated event', (f) => f.event === 'authenticated');
    expect(client.frames[0]).toEqual({ event: 'authenticated', payload: {} });
    const [row] = await notify([user]);
    expect((await client.push((p) => p.id === row!.id)).payload.userId).toBe(user.user.id);
  });

  it(`closes with 4001 when no auth message comes within ${HANDSHAKE_TIMEOUT_MS} ms`, async () => {
    const client = await track(Client.open(url()));
    const closed = await client.closed(HANDSHAKE_TIMEOUT_MS + 10_000);
    expect(closed.code).toBe(CLOSE_CODES.handshakeTimeout);
    expect(closed.code).toBe(4001);
    expect(client.frames).toEqual([]);
  }, 30_000);

  it('closes with 4003 for a bad, stale or missing token, in the message or in the query', async () => {
    const user = await createUser(ctx.container);
    const refused = await refusedSocketAuth(ctx.container, user);
    await expectAuthMessagesRefused(() => track(Client.open(url())), refused.messages);
    for (const token of [refused.forged, refused.stale, '']) {
      const client = await track(Client.open(`${url()}?token=${encodeURIComponent(token)}`));
      expect((await client.closed()).code).toBe(4003);
      expect(client.frames).toEqual([]);
    }
  });

  it('closes with 4003 when another message, or text that is not JSON, comes before auth', async () => {
    const first = await track(Client.open(url()));
    first.send({ action: 'subscribe' });
    expect((await first.closed()).code).toBe(4003);

    const garbage = await track(Client.open(url()));
    garbage.socket.send('hello');
    expect((await garbage.closed()).code).toBe(4003);
  });

  it('answers a message after auth with an error event and stays open', async () => {
    const user = await createUser(ctx.container);
    const client = await track(Client.authenticated(url(), user.token));
    client.send({ action: 'subscribe' });
    const error = await client.waitFor('error event', (f) => f.event === 'error');
    expect(error.payload.message).toMatch(/takes no messages/);
    expect(client.closedWith).toBeNull();
  });
});

describe('/ws/notifications pushes', () => {
  it("pushes the row's fields to its owner only", async () => {
    const owner = await createUser(ctx.container);
    const other = await createUser(ctx.container);
    const mine = await track(Client.authenticated(url(), owner.token));
    const second = await track(Client.authenticated(url(), owner.token));
    const theirs = await track(Client.authenticated(url(), other.token));

    const [row] = await notify([owner]);
    const [marker] = await notify([other]);
    const frame = await mine.push((p) => p.id === row!.id);
    expect(frame).toEqual({
      type: 'notification.created',
      payload: {
        id: row!.id,
        userId: owner.user.id,
        type: 'system',
        title: row!.title,
        body: null,
        entityType: null,
        entityId: null,
        readAt: null,
        createdAt: row!.createdAt.toISOString(),
      },
    });
    await second.push((p) => p.id === row!.id);
    // Published in this order on one channel: the marker arriving proves the owner's row was not sent here.
    await theirs.push((p) => p.id === marker!.id);
    expect(theirs.pushes().map((p) => p.id)).toEqual([marker!.id]);
  });

  it('pushes a new approval to each approver of the department and to nobody else', async () => {
    const scene = await createPipelineScene(ctx.container);
    const inDepartment = { departmentId: scene.departmentId };
    const approvers = [
      await createUser(ctx.container, { role: 'approver', ...inDepartment }),
      await createUser(ctx.container, { role: 'dept_head', ...inDepartment }),
      await createUser(ctx.container, { ...inDepartment, extraPermissions: ['canApprove'] }),
    ];
    const others = [
      scene.employee,
      await createUser(ctx.container, inDepartment),
      await createUser(ctx.container, { role: 'approver' }),
      await createUser(ctx.container, {
        role: 'approver',
        ...inDepartment,
        revokedPermissions: ['canApprove'],
      }),
    ];
    const approverSockets = await Promise.all(
      approvers.map((u) => track(Client.authenticated(url(), u.token))),
    );
    const otherSockets = await Promise.all(others.map((u) => track(Client.authenticated(url(), u.token))));

    await askOnWebChannel(ctx.app, scene.employee);

    const pushes = await Promise.all(
      approverSockets.map((s) => s.push((p) => p.type === 'approval_pending')),
    );
    const approvalId = pushes[0]!.payload.entityId;
    expect(approvalId).toEqual(expect.any(String));
    pushes.forEach((frame, i) => {
      expect(frame.payload).toMatchObject({
        userId: approvers[i]!.user.id,
        type: 'approval_pending',
        entityType: 'approval',
        entityId: approvalId,
        readAt: null,
      });
    });
    // A marker to everyone else, published after the approval's pushes: once it arrives, nothing else came first.
    const markers = await notify(others, 'marker');
    for (const [i, socket] of otherSockets.entries()) {
      await socket.push((p) => p.id === markers[i]!.id);
      expect(socket.pushes().map((p) => p.type)).toEqual(['system']);
    }
  });

  it("pushes the web channel's assistant_reply to the employee", async () => {
    const scene = await createPipelineScene(ctx.container);
    await makeAutonomous(ctx.container, scene.namespaceId, 'vacation');
    await markInteracted(ctx.container, scene.employee.user.id, scene.namespaceId, 'vacation');
    const client = await track(Client.authenticated(url(), scene.employee.token));
    await askOnWebChannel(ctx.app, scene.employee);
    const frame = await client.push((p) => p.type === 'assistant_reply');
    expect(frame.payload).toMatchObject({
      userId: scene.employee.user.id,
      entityType: 'message',
      entityId: expect.any(String),
    });
  });
});

describe('/ws/notifications revocation', () => {
  it('closes the sockets of a user who logs out everywhere, and of a deactivated user', async () => {
    const user = await createUser(ctx.container);
    const client = await track(Client.authenticated(url(), user.token));
    await logOutEverywhere(ctx.app, user);
    const closed = await client.closed();
    expect(closed.code).toBe(4003);
    expect(closed.reason).toMatch(/revoked/);

    const deactivated = await createUser(ctx.container);
    const bystander = await createUser(ctx.container);
    const gone = await track(Client.authenticated(url(), deactivated.token));
    const stays = await track(Client.authenticated(url(), bystander.token));
    await deactivateThroughApi(ctx.app, ctx.container, deactivated.user.id);
    expect((await gone.closed()).code).toBe(4003);
    const [row] = await notify([bystander]);
    await stays.push((p) => p.id === row!.id);
    expect(stays.closedWith).toBeNull();
  });
});

const multiInstance = Boolean(process.env.REDIS_URL && process.env.DATABASE_URL);

describe('/ws/notifications across API instances', () => {
  it.skipIf(!multiInstance)(
    'pushes to a socket held by a second API instance on the same Redis (skipped on the embedded drivers: their bus is in-process)',
    async () => {
      const second = await startSecondApi(ctx.container);
      try {
        const user = await createUser(ctx.container);
        const client = await track(Client.authenticated(`${second.baseUrl}/ws/notifications`, user.token));
        const [row] = await notify([user]);
        expect((await client.push((p) => p.id === row!.id)).payload.userId).toBe(user.user.id);
      } finally {
        await second.close();
      }
    },
  );

  it.skipIf(!multiInstance)(
    'closes the sockets on both instances at logout-all (skipped on the embedded drivers: their bus is in-process)',
    async () => {
      const second = await startSecondApi(ctx.container);
      try {
        const user = await createUser(ctx.container);
        const here = await track(Client.authenticated(url(), user.token));
        const there = await track(Client.authenticated(`${second.baseUrl}/ws/notifications`, user.token));
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/v1/me/logout-all',
          headers: user.headers,
        });
        expect(res.statusCode).toBe(200);
        expect((await here.closed()).code).toBe(4003);
        expect((await there.closed()).code).toBe(4003);
      } finally {
        await second.close();
      }
    },
  );
});

/** Another API replica: its own container and app on the same database and Redis prefix, listening. */
