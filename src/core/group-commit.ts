import DataLoader from 'dataloader';

/** Keys a batch takes at most; the rest wait for the next one. */
export const GROUP_COMMIT_MAX_KEYS = 64;

/**
 * Group commit: calls that arrive while a batch is running are gathered
 * and handed to `run` together as the next batch, once the running one
 * ends. A call made while nothing runs starts a batch at once (after the
 * current synchronous code, so calls made together go together), so an idle
 * service waits for nothing; under load the batches grow by themselves,
 * and several callers share one statement instead of one each.
 *
 * `run` answers a value or an Error for every key, in the keys' order: an
 * Error rejects that key's call only. A `run` that throws rejects every
 * call of its batch, and the next batch still runs. A key asked twice in
 * one batch is handed to `run` twice (nothing is cached between calls).
 *
 * Built on DataLoader's batching (its schedule function holds a batch
 * until the one before has ended; its per-key Error results keep one
 * caller's failure from the others).
 */
export function groupCommit<K, V>(
  run: (keys: readonly K[]) => Promise<ReadonlyArray<V | Error>>,
  options: { maxKeys?: number } = {},
): (key: K) => Promise<V> {
  let running: Promise<unknown> = Promise.resolve();
  const loader = new DataLoader<K, V>(
    (keys) => {
      const batch = run(keys);
      running = batch.catch(() => undefined);
      return batch;
    },
    {
      cache: false,
      maxBatchSize: options.maxKeys ?? GROUP_COMMIT_MAX_KEYS,
      batchScheduleFn: (dispatch) => void running.then(() => dispatch()),
    },
  );
  return (key) => loader.load(key);
}
