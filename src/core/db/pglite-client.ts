import {
  type messages,
  PGlite,
  protocol,
  type QueryOptions,
  type Results,
  types,
} from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { vector } from '@electric-sql/pglite-pgvector';
import { StatementNames } from './statement-names.js';

/**
 * Embedded PGlite, with each statement sent in one protocol round and prepared
 * once per text.
 *
 * PGlite's own `query` makes five calls into PostgreSQL for one statement
 * (parse, describe the parameters, bind, describe the portal, execute), and
 * plans it every time. Here a statement is one call: its text is parsed once
 * into a named prepared statement (PGlite serves one session, so the names
 * live as long as the database), and later runs only bind and execute it.
 * A primary-key select costs about half of what it did (260 → 134 µs on the
 * development machine); see docs/benchmarks.md.
 *
 * Consequences, both deliberate:
 * - Parameters are sent as text chosen from the JavaScript value (as the
 *   `pg` driver does for PostgreSQL), not from a described parameter type:
 *   one serialisation for both drivers, and no round for the description.
 * - A prepared statement may run on a generic plan after five executions
 *   (`plan_cache_mode = auto`). PGlite never analyses tables, so its plans
 *   come from the same default estimates either way; queries whose plan must
 *   follow their `SET LOCAL` settings (the vector searches) set
 *   `plan_cache_mode = force_custom_plan` with them.
 *
 * The class answers the part of PGlite's interface that Drizzle and the
 * service use: `query`, `exec`, `transaction`, `dumpDataDir` and `close`.
 */

export interface PgliteClientOptions {
  /** Folder for the data files; omitted with `loadDataDir`, the database lives in memory. */
  dataDir?: string;
  /** A tarball made by `dumpDataDir()` to start from. */
  loadDataDir?: Blob;
}

/** What a transaction's callback can run; mirrors PGlite's `Transaction`. */
export interface PgliteClientTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

const { serialize } = protocol;

/**
 * A parameter's text form, chosen from its JavaScript value: what PostgreSQL
 * parses for the parameter's inferred type (arrays as array literals, other
 * objects as JSON, dates as ISO 8601, bytes as `\x` hex).
 */
export function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return types.arraySerializer(value, (element) => parameterText(element) ?? '', 0);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

type Parser = (text: string, typeId: number) => unknown;

/**
 * One statement's answer messages as PGlite's `Results`. PGlite's own
 * `parseResults` copies the whole parser table (hundreds of types) into a
 * new object for every query that brings parsers, as Drizzle's do: 9 % of
 * the embedded pipeline's CPU. Here each column's parser is looked up once.
 */
function resultsOf<T>(
  answers: messages.BackendMessage[],
  defaultParsers: Record<number | string, Parser>,
  options: QueryOptions,
): Results<T> {
  let fields: { name: string; dataTypeID: number }[] = [];
  let parsers: (Parser | undefined)[] = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  let command: string | undefined;
  let rowCount: number | undefined;
  for (const answer of answers) {
    if (answer.name === 'rowDescription') {
      fields = (answer as messages.RowDescriptionMessage).fields.map(({ name, dataTypeID }) => ({
        name,
        dataTypeID,
      }));
      parsers = fields.map(({ dataTypeID }) => options.parsers?.[dataTypeID] ?? defaultParsers[dataTypeID]);
    } else if (answer.name === 'dataRow') {
      const values = (answer as messages.DataRowMessage).fields.map((text, column) => {
        const parse = parsers[column];
        return text === null || !parse ? text : parse(text, fields[column]!.dataTypeID);
      });
      rows.push(
        options.rowMode === 'array'
          ? values
          : Object.fromEntries(fields.map((field, i) => [field.name, values[i]])),
      );
    } else if (answer.name === 'commandComplete') {
      const words = (answer as messages.CommandCompleteMessage).text.split(' ');
      command = words[0];
      const count = Number.parseInt(words[words.length - 1]!, 10);
      if (!Number.isNaN(count)) rowCount = count;
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command!)) affectedRows += count;
    }
  }
  return {
    rows: rows as T[],
    fields,
    affectedRows,
    ...(command ? { command } : {}),
    ...(rowCount === undefined ? {} : { rowCount }),
  } as Results<T>;
}

export class PgliteClient {
  readonly #pglite: PGlite;
  /** Statement names by text (the same bound and renaming as the PostgreSQL driver's). */
  readonly #names = new StatementNames();
  /** The names PGlite's one session has parsed. */
  readonly #parsed = new Set<string>();

  private constructor(pglite: PGlite) {
    this.#pglite = pglite;
  }

  /** Opens PGlite with pgvector and pg_trgm. */
  static async create(options: PgliteClientOptions = {}): Promise<PgliteClient> {
    const pglite = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      extensions: { vector, pg_trgm },
    });
    return new PgliteClient(pglite);
  }

  get closed(): boolean {
    return this.#pglite.closed;
  }

  /** Runs one statement with its parameters; waits while a transaction is open. */
  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.#pglite._runExclusiveTransaction(async () => {
      const result = await this.#run<T>(sql, params, options);
      await this.#pglite.syncToFs();
      return result;
    });
  }

  /** Runs one or more statements without parameters (simple protocol). */
  exec(sql: string): Promise<Results[]> {
    return this.#pglite.exec(sql);
  }

  /**
   * Runs `callback` in a transaction: committed when it resolves, rolled back
   * when it throws or calls `rollback()`. Other statements wait until it ends.
   */
  transaction<T>(callback: (tx: PgliteClientTransaction) => Promise<T>): Promise<T> {
    return this.#pglite.transaction((tx) =>
      callback({
        query: <R>(sql: string, params: unknown[] = [], options: QueryOptions = {}) => {
          if (tx.closed) throw new Error('Transaction is closed');
          return this.#run<R>(sql, params, options);
        },
        exec: (sql: string) => tx.exec(sql),
        rollback: () => tx.rollback(),
        get closed() {
          return tx.closed;
        },
      }),
    );
  }

  /** The data folder as an uncompressed tarball, for `loadDataDir`. */
  dumpDataDir(): Promise<Blob> {
    return this.#pglite.dumpDataDir('none');
  }

  /**
   * A consistent copy of a database in use: taken while no transaction is
   * open (others wait for it), after a checkpoint, so the tarball holds
   * every commit made before the call and nothing half-done.
   */
  snapshot(): Promise<Blob> {
    return this.#pglite._runExclusiveTransaction(async () => {
      await this.#run('CHECKPOINT', [], {});
      return this.#pglite.dumpDataDir('none');
    });
  }

  async close(): Promise<void> {
    if (!this.#pglite.closed) await this.#pglite.close();
  }

  /** One statement in one protocol round, its text prepared on first use (the caller holds the transaction lock). */
  #run<T>(sql: string, params: unknown[], options: QueryOptions): Promise<Results<T>> {
    return this.#pglite._runExclusiveQuery(() =>
      this.#names.runRenamingOnPlanChange(sql, () => this.#execute<T>(sql, params, options)),
    );
  }

  async #execute<T>(sql: string, params: unknown[], options: QueryOptions): Promise<Results<T>> {
    const name = this.#names.nameOf(sql);
    const parseFirst = name === undefined || !this.#parsed.has(name);
    const messages = [
      serialize.bind({ statement: name ?? '', values: params.map(parameterText) }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ];
    if (parseFirst) messages.unshift(serialize.parse({ text: sql, ...(name ? { name } : {}) }));
    const { messages: answers } = await this.#pglite.execProtocol(Buffer.concat(messages), {
      syncToFs: false,
      throwOnError: false,
    });
    // The statement exists once parsed, even when its execution failed after.
    if (parseFirst && name && answers.some((answer) => answer.name === 'parseComplete'))
      this.#parsed.add(name);
    const failure = answers.find((answer) => answer.name === 'error');
    if (failure) throw failure;
    return resultsOf<T>(answers, this.#pglite.parsers, options);
  }
}
