import { describe, expect, it } from 'vitest';
import { createWorkLimit } from './work-limit.js';

/** A promise settled from outside, so work can be held without timers. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('createWorkLimit', () => {
  it('runs no more than its concurrency at once, then finishing work before starting work', async () => {
    const limit = createWorkLimit(1);
    const order: string[] = [];
    const first = gate();
    const running = limit.run(async () => {
      order.push('first');
      await first.opened;
    });
    const later = [
      limit.run(async () => order.push('start-1')),
      limit.run(async () => order.push('finish-1'), { priority: 'finish' }),
      limit.run(async () => order.push('start-2')),
      limit.run(async () => order.push('finish-2'), { priority: 'finish' }),
    ];
    expect(limit.running).toBe(1);
    expect(limit.waiting).toBe(4);
    first.open();
    await Promise.all([running, ...later]);
    expect(order).toEqual(['first', 'finish-1', 'finish-2', 'start-1', 'start-2']);
  });

  it('takes aborted work out of the line, and gives a running one’s place back at once', async () => {
    const limit = createWorkLimit(1);
    const never = gate();
    const controller = new AbortController();
    const stuck = limit.run(() => never.opened, { signal: controller.signal }).catch((e: unknown) => e);
    const waitingAborted = new AbortController();
    const dropped = limit.run(async () => 'ran', { signal: waitingAborted.signal }).catch((e: unknown) => e);
    const next = limit.run(async () => 'next');
    waitingAborted.abort(new Error('left the line'));
    expect(await dropped).toEqual(new Error('left the line'));
    controller.abort(new Error('timed out'));
    expect(await stuck).toEqual(new Error('timed out'));
    expect(await next).toBe('next');
  });
});
