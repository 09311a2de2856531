import { describe, expect, it } from 'vitest';
import type { Behaviour } from '../../../test/fixtures/isolation/misbehaving.worker.js';
import { createIsolatedRunner, IsolatedTaskError } from './isolated-runner.js';

const entry = new URL('../../../test/fixtures/isolation/misbehaving.worker.ts', import.meta.url);
const runner = createIsolatedRunner<{ behaviour: Behaviour; text: string }, string>({
  entry,
  memoryMb: 64,
  timeoutMs: 5_000,
  concurrency: 2,
});

const failureOf = async (behaviour: Behaviour): Promise<IsolatedTaskError> => {
  const error = await runner.run({ behaviour, text: 'file' }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(IsolatedTaskError);
  return error as IsolatedTaskError;
};

describe('isolated runner', () => {
  it('answers the task value from its own process', async () => {
    expect(await runner.run({ behaviour: 'echo', text: 'hello' })).toBe('HELLO');
  });

  it.each([
    ['throws', 'throw', 'threw', /refused file/],
    ['exceeds its heap', 'oom', 'out-of-memory', /memory limit of 64 MB \(heap out of memory\)/],
    ['runs past the time limit', 'hang', 'timeout', /longer than 5000 ms/],
    ['calls process.exit', 'exit', 'exited', /exited with code 3/],
    ['throws outside its promise', 'unhandled', 'crashed', /Error attempting to read image/],
    ['dies of a native crash', 'native-crash', 'crashed', /killed by SIGSEGV/],
  ] as const)(
    'fails only the call whose task %s; the next call succeeds',
    async (_label, behaviour, failure, message) => {
      const [failed, alongside] = await Promise.all([
        failureOf(behaviour),
        runner.run({ behaviour: 'echo', text: 'alongside' }),
      ]);
      expect(failed.failure).toBe(failure);
      expect(failed.message).toMatch(message);
      expect(alongside).toBe('ALONGSIDE');
      expect(await runner.run({ behaviour: 'echo', text: 'after' })).toBe('AFTER');
    },
  );

  it('keeps the name of the error a task threw, so callers can tell their own errors apart', async () => {
    expect((await failureOf('throw')).causeName).toBe('FixtureError');
  });
});
