import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit.js';

/** A batch function whose batches end only when the test lets them; records the keys of each. */
function heldBatches() {
  const batches: string[][] = [];
  const releases: Array<() => void> = [];
  const run = async (keys: readonly string[]) => {
    batches.push([...keys]);
    await new Promise<void>((resolve) => releases.push(resolve));
    return keys.map((key) => (key.startsWith('bad') ? new Error(`no ${key}`) : key.toUpperCase()));
  };
  /** Waits until `count` batches have started. */
  const started = async (count: number) => {
    while (batches.length < count) await new Promise((resolve) => setImmediate(resolve));
  };
  return { batches, run, started, release: (n: number) => releases[n]!() };
}

describe('groupCommit', () => {
  it('starts a batch at once when idle, and gathers the calls made meanwhile into the next', async () => {
    const held = heldBatches();
    const call = groupCommit(held.run);
    const first = [call('a'), call('b')];
    await held.started(1);
    const second = [call('c'), call('d'), call('e')];
    // Nothing starts while the first batch runs.
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.batches).toEqual([['a', 'b']]);
    held.release(0);
    expect(await Promise.all(first)).toEqual(['A', 'B']);
    await held.started(2);
    expect(held.batches[1]).toEqual(['c', 'd', 'e']);
    held.release(1);
    expect(await Promise.all(second)).toEqual(['C', 'D', 'E']);
  });

  it("rejects only the calls whose key failed, and a thrown batch only that batch's calls", async () => {
    const held = heldBatches();
    const call = groupCommit(held.run);
    const good = call('good');
    const bad = call('bad-one');
    await held.started(1);
    held.release(0);
    expect(await good).toBe('GOOD');
    await expect(bad).rejects.toThrow('no bad-one');

    let fail = true;
    const flaky = groupCommit(async (keys: readonly string[]) => {
      if (fail) throw new Error('statement failed');
      return keys.map((key) => key.length);
    });
    const lost = [flaky('x'), flaky('yy')];
    await expect(Promise.all(lost)).rejects.toThrow('statement failed');
    await expect(lost[1]).rejects.toThrow('statement failed');
    fail = false;
    expect(await flaky('zzz')).toBe(3);
  });

  it('hands a batch at most maxKeys keys', async () => {
    const sizes: number[] = [];
    const call = groupCommit(
      async (keys: readonly number[]) => {
        sizes.push(keys.length);
        return keys;
      },
      { maxKeys: 3 },
    );
    expect(await Promise.all([1, 2, 3, 4, 5, 6, 7].map(call))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(sizes).toEqual([3, 3, 1]);
  });
});
