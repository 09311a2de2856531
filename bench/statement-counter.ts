/**
 * Counting the statements a database driver executes, for bench/pipeline.ts
 * and its worker processes (bench/pipeline-worker.ts): in total and by shape
 * (verb and first table), with their summed latency, while `counter.on`.
 */
import type pg from 'pg';
import type { PgliteClient } from '../src/core/db/pglite-client.js';

/** Statements executed while `on`, in total and by shape (verb and first table), with their summed latency. */
export const counter = {
  on: false,
  total: 0,
  shapes: new Map<string, number>(),
  ms: new Map<string, number>(),
};

const shapes = new Map<string, string>();

/** {@link shapeOfText}, remembered per statement text (the texts repeat; their parameters are apart). */
function shapeOf(text: string): string {
  let shape = shapes.get(text);
  if (shape === undefined) {
    shape = shapeOfText(text);
    shapes.set(text, shape);
  }
  return shape;
}

/** A statement's verb and first table, the row it counts in. */
function shapeOfText(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (/^(begin|commit|rollback)\b/.test(flat)) return flat.split(' ')[0]!;
  if (flat.startsWith('select set_config')) return 'select set_config (SET LOCAL)';
  const verb = flat.match(/^(with|select|insert into|update|delete from)\b/)?.[1] ?? flat.slice(0, 20);
  const table = flat.match(/(?:insert into|update|delete from|from)\s+"?([a-z_]+)"?/)?.[1] ?? '?';
  return `${verb === 'with' ? 'with … from' : verb} ${table}`;
}

/** Counts a statement; call the answer when it completes to add its latency (BENCH_TIMING=1 prints them). */
function note(query: unknown): () => void {
  if (!counter.on) return () => undefined;
  const text = typeof query === 'string' ? query : ((query as { text?: string })?.text ?? '?');
  counter.total++;
  const shape = shapeOf(text);
  counter.shapes.set(shape, (counter.shapes.get(shape) ?? 0) + 1);
  const started = performance.now();
  return () => counter.ms.set(shape, (counter.ms.get(shape) ?? 0) + performance.now() - started);
}

function timed<T>(query: unknown, run: () => T): T {
  const done = note(query);
  const result = run();
  if (result instanceof Promise) result.then(done, done);
  return result;
}

/** Counts every query of the PGlite client, inside transactions too (BEGIN and COMMIT count as one each). */
export function countPglite(client: PgliteClient): void {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((text: string, ...rest: unknown[]) =>
    timed(text, () => (query as (...a: unknown[]) => unknown)(text, ...rest))) as typeof client.query;
  client.exec = ((text: string, ...rest: unknown[]) =>
    timed(text, () => (exec as (...a: unknown[]) => unknown)(text, ...rest))) as typeof client.exec;
  client.transaction = ((callback: (tx: unknown) => Promise<unknown>) => {
    note('begin');
    return transaction((tx) => {
      const counted = new Proxy(tx, {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver);
          if (key !== 'query' && key !== 'exec') return value;
          return (text: string, ...rest: unknown[]) =>
            timed(text, () => (value as (...a: unknown[]) => unknown)(text, ...rest));
        },
      });
      return callback(counted).finally(() => note('commit'));
    });
  }) as typeof client.transaction;
}

/** Counts every query of the pool's clients (the pool's own `query` runs on one of them). */
export function countPool(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as unknown as { query: (...a: unknown[]) => unknown }).query = (...args: unknown[]) =>
      timed(args[0], () => query(...args));
  });
}
