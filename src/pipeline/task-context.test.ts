import { describe, expect, it } from 'vitest';
import { createPipelineScene, usePipelineTestApp } from '../../test/pipeline-factories.js';
import { HISTORY_TURNS } from './steps/inject-profile.js';

// No workers: the tasks stay as the reads below leave them.
const ctx = usePipelineTestApp();

describe("a run job's read", () => {
  it('starts a task whose turn has come and that no try started, only when asked, and only once', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const send = (text: string) =>
      container.pipeline.inbound.receive({ channel: 'chanA', channelUserId: scene.phone, text });
    const first = await send('first question');
    const second = await send('second question');
    const conversations = container.pipeline.repositories.conversations;
    const read = (taskId: string, start: boolean) =>
      conversations.taskContext(taskId, HISTORY_TURNS, { start });

    // The second message waits for the first: its read reports that and starts nothing.
    const waiting = await read(second.taskId!, true);
    expect(waiting.earlierUnfinished).toBe(true);
    expect(waiting.started).toBeNull();

    // Asked not to start, the read leaves the first queued.
    const looked = await read(first.taskId!, false);
    expect(looked).toMatchObject({ earlierUnfinished: false, started: null, task: { status: 'queued' } });

    const started = await read(first.taskId!, true);
    expect(started.task).toMatchObject({ status: 'queued', startedAt: null });
    expect(started.started).toMatchObject({ id: first.taskId, status: 'running', errorMessage: null });
    expect(started.started!.startedAt).toBeInstanceOf(Date);
    // What the steps read comes with it.
    expect(started.inbound?.content).toBe('first question');
    expect(started.namespace?.id).toBe(scene.namespaceId);

    // Read again (a second try of its job): already started, so not started again.
    const again = await read(first.taskId!, true);
    expect(again.started).toBeNull();
    expect(again.task).toMatchObject({ status: 'running' });
    expect(again.task!.startedAt).toEqual(started.started!.startedAt);
  });

  it('reads the tasks asked at once in one statement, each as if read alone', async () => {
    const { container } = ctx;
    const [one, other] = [await createPipelineScene(container), await createPipelineScene(container)];
    const send = (phone: string, text: string) =>
      container.pipeline.inbound.receive({ channel: 'chanA', channelUserId: phone, text });
    const first = await send(one.phone, 'first question');
    const second = await send(one.phone, 'second question');
    const elsewhere = await send(other.phone, 'a question of another conversation');
    const conversations = container.pipeline.repositories.conversations;
    const read = (taskId: string, start: boolean) =>
      conversations.taskContext(taskId, HISTORY_TURNS, { start });

    // Asked together, they share one batch: two tasks of one conversation, another conversation's
    // task asked twice (once without starting it), and a task that does not exist.
    const [firstRead, secondRead, elsewhereLooked, elsewhereRead, missing] = await Promise.all([
      read(first.taskId!, true),
      read(second.taskId!, true),
      read(elsewhere.taskId!, false),
      read(elsewhere.taskId!, true),
      read(crypto.randomUUID(), true),
    ]);
    expect(firstRead.started).toMatchObject({ id: first.taskId, status: 'running' });
    expect(firstRead.inbound?.content).toBe('first question');
    // The second sees the first still queued, as the statement read it, and waits.
    expect(secondRead).toMatchObject({ earlierUnfinished: true, started: null });
    expect(secondRead.inbound?.content).toBe('second question');
    expect(secondRead.turns.map((turn) => turn.content)).toEqual(['first question']);
    expect(elsewhereLooked).toMatchObject({ started: null, task: { status: 'queued' } });
    expect(elsewhereRead.started).toMatchObject({ id: elsewhere.taskId, status: 'running' });
    expect(elsewhereRead.inbound?.content).toBe('a question of another conversation');
    expect(elsewhereRead.namespace?.id).toBe(other.namespaceId);
    expect(missing).toMatchObject({ task: null, started: null, inbound: null });
    expect((await read(second.taskId!, false)).task).toMatchObject({ status: 'queued', startedAt: null });
  });
});
