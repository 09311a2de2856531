import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDepartment, createNamespace, createUser } from '../../test/factories.js';
import {
  createPipelineScene,
  createPipelineTestApp,
  type PipelineTestContext,
} from '../../test/pipeline-factories.js';
import {
  agentTasks,
  channelIdentities,
  conversations,
  departments,
  messages,
  namespaces,
  users,
} from '../core/db/schema/index.js';
import { ValidationError } from '../core/errors/app-errors.js';
import { type EventEnvelope, subscribeEvents } from '../core/realtime/events.js';
import { createSenderResolver } from './senders.js';

// No workers: tasks stay queued, so what receive() wrote can be read as it left it.
let ctx: PipelineTestContext;
const events: EventEnvelope[] = [];

beforeAll(async () => {
  ctx = await createPipelineTestApp();
  await subscribeEvents(ctx.container.bus, 'agent-task', (envelope) => events.push(envelope));
});
afterAll(async () => {
  await ctx.close();
});

const phone = () => `4474${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

describe('inbound service', () => {
  it('stores a known sender’s message and a queued task with its job, in the open conversation', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const received = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: `+${scene.phone.slice(0, 3)} ${scene.phone.slice(3)}`,
      text: '  How many vacation days do I have?  ',
      channelMessageId: `wamid-${scene.phone}`,
      senderName: 'Olena',
    });
    const [task] = await container.db.select().from(agentTasks).where(eq(agentTasks.id, received.taskId!));
    expect(task).toMatchObject({
      status: 'queued',
      jobId: `agent-task-${task!.id}`,
      namespaceId: scene.namespaceId,
      departmentId: scene.departmentId,
      conversationId: received.conversationId,
      messageId: received.messageId,
    });
    const job = await container.queue.getJob('agent-tasks', task!.jobId);
    expect(job?.data).toEqual({ taskId: task!.id });
    const [message] = await container.db.select().from(messages).where(eq(messages.id, received.messageId));
    expect(message).toMatchObject({
      direction: 'inbound',
      content: 'How many vacation days do I have?',
      status: null,
    });
    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, received.conversationId));
    expect(conversation).toMatchObject({
      channel: 'chanA',
      channelUserId: scene.phone,
      userId: scene.employee.user.id,
      status: 'open',
      namespaceId: scene.namespaceId,
    });
    // Opened by the message, it carries the message's time.
    expect(conversation!.lastMessageAt).toEqual(message!.createdAt);
    expect(
      events.find(
        (e) => e.event === 'agent-task.created' && (e.payload as { taskId: string }).taskId === task!.id,
      )?.payload,
    ).toMatchObject({ status: 'queued', namespaceId: scene.namespaceId, adapterType: 'api' });

    // The same platform message id again: acknowledged, nothing new stored or queued.
    const again = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'How many vacation days do I have?',
      channelMessageId: `wamid-${scene.phone}`,
    });
    expect(again).toEqual({ ...received, duplicate: true });
    const tasks = await container.db
      .select()
      .from(agentTasks)
      .where(eq(agentTasks.conversationId, received.conversationId));
    expect(tasks).toHaveLength(1);

    // A second message joins the same open conversation.
    const next = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'Thanks',
    });
    expect(next.conversationId).toBe(received.conversationId);
  });

  it('creates an unknown channel A sender in the bootstrap department and fails the task without a namespace', async () => {
    const { container } = ctx;
    const digits = phone();
    const received = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: digits,
      text: 'Hello?',
      senderName: 'New Person',
    });
    const [user] = await container.db.select().from(users).where(eq(users.phone, digits));
    expect(user).toMatchObject({ role: 'employee', isActive: true, passwordHash: null, name: 'New Person' });
    const [department] = await container.db
      .select()
      .from(departments)
      .where(eq(departments.id, user!.departmentId));
    expect(department!.name).toBe('General');
    const [task] = await container.db.select().from(agentTasks).where(eq(agentTasks.id, received.taskId!));
    expect(task).toMatchObject({ status: 'failed', namespaceId: null });
    expect(task!.errorMessage).toBe(
      `No namespace is configured for department ${department!.id}: the message was stored but cannot be answered`,
    );
    const [message] = await container.db.select().from(messages).where(eq(messages.id, received.messageId));
    expect(message!.content).toBe('Hello?');
    expect(await container.queue.getJob('agent-tasks', task!.jobId)).toBeNull();
    const failed = events.find(
      (e) => e.event === 'agent-task.failed' && (e.payload as { taskId: string }).taskId === task!.id,
    );
    expect(failed?.payload).toMatchObject({ status: 'failed', errorMessage: task!.errorMessage });
  });

  it('records the adapter the namespace selects (api for one it cannot run) and fails a deactivated sender’s task', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const taskOf = async (text: string) => {
      const received = await container.pipeline.inbound.receive({
        channel: 'chanA',
        channelUserId: scene.phone,
        text,
      });
      const [task] = await container.db.select().from(agentTasks).where(eq(agentTasks.id, received.taskId!));
      return task!;
    };
    const select = (activeAdapter: string) =>
      container.db
        .update(namespaces)
        .set({ config: { agentRunner: { activeAdapter } } })
        .where(eq(namespaces.id, scene.namespaceId));
    await select('codex_cli');
    expect(await taskOf('first')).toMatchObject({ status: 'queued', adapterType: 'codex_cli' });
    await select('no-such-runner');
    expect(await taskOf('second')).toMatchObject({ status: 'queued', adapterType: 'api' });

    await container.db.update(users).set({ isActive: false }).where(eq(users.id, scene.employee.user.id));
    const refused = await taskOf('third');
    expect(refused).toMatchObject({ status: 'failed', namespaceId: scene.namespaceId, durationMs: 0 });
    expect(refused.finishedAt).toBeInstanceOf(Date);
    expect(refused.errorMessage).toBe(
      `The sender's account (user ${scene.employee.user.id}) is deactivated: the message was stored but is not answered`,
    );
  });

  it('links a channel B sender by a stored identity, created on first contact', async () => {
    const { container } = ctx;
    const id = `${Math.floor(Math.random() * 1e9)}`;
    const first = await container.pipeline.inbound.receive({
      channel: 'chanB',
      channelUserId: id,
      text: 'Hi',
    });
    const second = await container.pipeline.inbound.receive({
      channel: 'chanB',
      channelUserId: id,
      text: 'Anyone?',
    });
    expect(second.conversationId).toBe(first.conversationId);
    const identities = await container.db
      .select()
      .from(channelIdentities)
      .where(eq(channelIdentities.channelUserId, id));
    expect(identities).toHaveLength(1);

    // An existing user linked to another platform id is found through it.
    const known = await createUser(container);
    await container.db
      .insert(channelIdentities)
      .values({ channel: 'chanB', channelUserId: `${id}7`, userId: known.user.id });
    const linked = await container.pipeline.inbound.receive({
      channel: 'chanB',
      channelUserId: `${id}7`,
      text: 'Hi',
    });
    const [conversation] = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, linked.conversationId));
    expect(conversation).toMatchObject({ userId: known.user.id, departmentId: known.user.departmentId });
  });

  it('never reuses a closed conversation: an idle one is closed and the next message opens a new one', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const first = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'One',
    });
    const old = new Date(Date.now() - 25 * 3_600_000);
    await container.db
      .update(conversations)
      .set({ lastMessageAt: old })
      .where(eq(conversations.id, first.conversationId));
    // A conversation waiting for a human is not idle.
    const waiting = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: phone(),
      text: 'Two',
    });
    await container.db
      .update(conversations)
      .set({ lastMessageAt: old, status: 'awaiting_approval' })
      .where(eq(conversations.id, waiting.conversationId));

    expect(await container.pipeline.idle.closeIdle()).toBeGreaterThanOrEqual(1);
    const status = async (id: string) =>
      (await container.db.select().from(conversations).where(eq(conversations.id, id)))[0]!.status;
    expect(await status(first.conversationId)).toBe('closed');
    expect(await status(waiting.conversationId)).toBe('awaiting_approval');
    const next = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'Three',
    });
    expect(next.conversationId).not.toBe(first.conversationId);

    // A repeated delivery of a message whose conversation has closed since is acknowledged and
    // leaves nothing behind: no conversation is opened for it.
    await container.db
      .update(conversations)
      .set({ status: 'closed' })
      .where(eq(conversations.id, next.conversationId));
    const replayed = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: 'Three, again',
      channelMessageId: `wamid-replay-${scene.phone}`,
    });
    await container.db
      .update(conversations)
      .set({ status: 'closed' })
      .where(eq(conversations.id, replayed.conversationId));
    const sendersConversations = async () =>
      container.db.select().from(conversations).where(eq(conversations.channelUserId, scene.phone));
    const before = await sendersConversations();
    expect(
      await container.pipeline.inbound.receive({
        channel: 'chanA',
        channelUserId: scene.phone,
        text: 'Three, again',
        channelMessageId: `wamid-replay-${scene.phone}`,
      }),
    ).toEqual({ ...replayed, duplicate: true });
    expect(await sendersConversations()).toHaveLength(before.length);

    // The scheduled close is one job per time slot, whoever schedules it.
    const jobId = await container.pipeline.idle.schedule();
    expect(await container.pipeline.idle.schedule()).toBe(jobId);
    expect((await container.queue.getJob('agent-tasks', jobId))?.name).toBe('close-idle-conversations');
  });

  it('routes to the department’s default namespace when it is one of its own, else to its oldest', async () => {
    const { container } = ctx;
    const department = await createDepartment(container);
    const oldest = await createNamespace(container, { departmentId: department.id, name: 'First' });
    const second = await createNamespace(container, { departmentId: department.id, name: 'Second' });
    // The embedded clock has millisecond resolution: two quick inserts can share a
    // timestamp, so the first is dated a minute back to make "oldest" unambiguous.
    await container.db
      .update(namespaces)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(namespaces.id, oldest.id));
    const employee = await createUser(container, { departmentId: department.id, phone: phone() });
    const received = await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: employee.user.phone!,
      text: 'Hi',
    });
    const [task] = await container.db.select().from(agentTasks).where(eq(agentTasks.id, received.taskId!));
    expect(task!.namespaceId).toBe(oldest.id);

    // A default naming another department's namespace is not followed; one of its own is.
    const elsewhere = await createNamespace(container, {
      departmentId: (await createDepartment(container)).id,
    });
    const routedFor = async (defaultNamespaceId: string) => {
      await container.db
        .update(departments)
        .set({ settings: { defaultNamespaceId } })
        .where(eq(departments.id, department.id));
      const sender = await createUser(container, { departmentId: department.id, phone: phone() });
      const message = await container.pipeline.inbound.receive({
        channel: 'chanA',
        channelUserId: sender.user.phone!,
        text: 'Hi',
      });
      return (await container.db.select().from(agentTasks).where(eq(agentTasks.id, message.taskId!)))[0]!
        .namespaceId;
    };
    expect(await routedFor(elsewhere.id)).toBe(oldest.id);
    expect(await routedFor(second.id)).toBe(second.id);
  });

  it('puts messages of a new sender that arrive at once in one conversation, and stores a delivery repeated at once once', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    // Each receive() is one statement: all five read "no open conversation", one opens it and the
    // others write nothing (their insert of the conversation conflicts) and find it when they run again.
    const burst = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        container.pipeline.inbound.receive({
          channel: 'chanA',
          channelUserId: scene.phone,
          text: `Question ${i}`,
          channelMessageId: `wamid-burst-${scene.phone}-${i}`,
        }),
      ),
    );
    expect(new Set(burst.map((r) => r.conversationId)).size).toBe(1);
    expect(new Set(burst.map((r) => r.taskId)).size).toBe(5);
    const opened = await container.db
      .select()
      .from(conversations)
      .where(eq(conversations.channelUserId, scene.phone));
    expect(opened).toHaveLength(1);

    const other = await createUser(container, { departmentId: scene.departmentId, phone: phone() });
    const twice = await Promise.all(
      [1, 2].map(() =>
        container.pipeline.inbound.receive({
          channel: 'chanA',
          channelUserId: other.user.phone!,
          text: 'Once, please',
          channelMessageId: `wamid-twice-${other.user.phone}`,
        }),
      ),
    );
    expect(twice.map((r) => r.duplicate).sort()).toEqual([false, true]);
    expect(twice[0]!.messageId).toBe(twice[1]!.messageId);
    expect(twice[0]!.taskId).toBe(twice[1]!.taskId);
    const stored = await container.db
      .select()
      .from(messages)
      .where(eq(messages.channelMessageId, `wamid-twice-${other.user.phone}`));
    expect(stored).toHaveLength(1);
    expect(
      await container.db
        .select()
        .from(conversations)
        .where(eq(conversations.channelUserId, other.user.phone!)),
    ).toHaveLength(1);
  });

  it('refuses bad input with a ValidationError and stores nothing', async () => {
    const { container } = ctx;
    const before = (await container.db.select().from(messages)).length;
    const scene = await createPipelineScene(container);
    for (const bad of [
      { channel: 'email' as const, channelUserId: 'a@example.test', text: 'Hi' },
      { channel: 'chanA' as const, channelUserId: scene.phone, text: '   ' },
      { channel: 'chanA' as const, channelUserId: 'not a phone', text: 'Hi' },
      { channel: 'chanB' as const, channelUserId: 'bad id!', text: 'Hi' },
      { channel: 'web' as const, channelUserId: '', text: 'Hi' },
      // A web sender must be an existing user: an id of no user, or not an id at all.
      { channel: 'web' as const, channelUserId: '', userId: crypto.randomUUID(), text: 'Hi' },
      { channel: 'web' as const, channelUserId: '', userId: 'not-a-user-id', text: 'Hi' },
      { channel: 'chanA' as const, channelUserId: scene.phone, text: 'x'.repeat(16_001) },
    ]) {
      await expect(container.pipeline.inbound.receive(bad)).rejects.toBeInstanceOf(ValidationError);
    }
    expect((await container.db.select().from(messages)).length).toBe(before);
  });

  it('creates unknown senders in CHANNEL_DEFAULT_DEPARTMENT, named by slug or id', async () => {
    const { container } = ctx;
    const department = await createDepartment(container);
    for (const named of [department.slug, department.id]) {
      const resolver = createSenderResolver({
        db: container.db,
        senders: container.pipeline.repositories.senders,
        departments: container.repositories.departments,
        roles: container.repositories.roles,
        channelDefaultDepartment: named,
        bootstrapDepartment: 'General',
      });
      const { user } = await resolver.resolve({ channel: 'chanA', channelUserId: phone() });
      expect(user.departmentId).toBe(department.id);
    }
    const missing = createSenderResolver({
      db: container.db,
      senders: container.pipeline.repositories.senders,
      departments: container.repositories.departments,
      roles: container.repositories.roles,
      channelDefaultDepartment: 'no-such-department',
      bootstrapDepartment: 'General',
    });
    await expect(missing.resolve({ channel: 'chanA', channelUserId: phone() })).rejects.toThrow(
      /CHANNEL_DEFAULT_DEPARTMENT names no department/,
    );
  });
});
