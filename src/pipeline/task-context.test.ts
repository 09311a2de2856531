import { describe, expect, it } from 'vitest';
import { createPipelineScene, usePipelineTestApp } from '../../test/pipeline-factories.js';
import { HISTORY_TURNS } from './steps/inject-profile.js';
import { createTaskContextReader } from './task-context.query.js';

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
    const reader = createTaskContextReader(container.db);
    const read = (taskId: string, start: boolean) => reader.taskContext(taskId, HISTORY_TURNS, { start });

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
});
