import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { nameStatementsByText } from './pg-prepared.js';
import { PgliteClient } from './pglite-client.js';
import * as schema from './schema/index.js';
import { StatementNames } from './statement-names.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything a repository can run a query on: the database or an open transaction. */
export type DbExecutor = Database | Transaction;

export type DatabaseDriver = 'pglite' | 'postgres';

/** An open database with the operations the service needs around it. */
export interface DatabaseHandle {
  readonly db: Database;
  readonly driver: DatabaseDriver;
  /** Where the data lives: the PGlite folder, or the PostgreSQL host and database (no credentials). */
  readonly location: string;
  /** Applies pending migrations (and the extensions they need); safe to call on every start. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /** Embedded only: a consistent tarball of the data folder, taken while the database is in use. */
  snapshot?(): Promise<Blob>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/**
 * Where an empty embedded database that `npm run build` dumps may be
 * (scripts/make-pglite-template.mjs): next to this module in `dist/`, and,
 * when the service runs from `src/` (`npm run dev`, tsx), in the checkout's
 * built `dist/`. The template is initdb's output, before any migration, so a
 * build of other sources serves as well, as long as it was made with the
 * installed PGlite (the build stamp ties both to the lockfile).
 */
const PGLITE_TEMPLATES = [
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-template.tar.gz'),
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/core/db/pglite-template.tar.gz'),
];
const EXTENSIONS_SQL = sql`CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm;`;
/** Serialises migrations when several replicas start at once. */
const MIGRATION_LOCK_KEY = 7_424_001;

export interface PgliteOptions {
  /** Folder for the data files; omitted with `loadDataDir`, the database lives in memory. */
  dataDir?: string;
  /** A tarball made by `dumpDataDir()` to start from. */
  loadDataDir?: Blob;
}

/**
 * Opens embedded PGlite with pgvector and pg_trgm, its statements prepared
 * once (pglite-client.ts). A data folder is locked for this process until
 * `close()` (data-dir-lock.ts): PGlite itself would let a second process
 * open it and both would corrupt it.
 * @throws DataDirLockedError when another live process has the folder open.
 */
export async function openPglite(options: PgliteOptions): Promise<DatabaseHandle & { client: PgliteClient }> {
  const lock = options.dataDir ? await lockDataDir(options.dataDir) : null;
  let client: PgliteClient;
  try {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    client = await PgliteClient.create({
      ...options,
      loadDataDir:
        options.loadDataDir ?? (options.dataDir ? newDatabaseTemplate(options.dataDir) : undefined),
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  // Drizzle's PGlite session calls only `query` and `transaction`, which the client answers as PGlite does.
  const drizzleOver = () => drizzlePglite({ client: client as unknown as PGlite, schema });
  const db = drizzleOver() as unknown as Database;
  return {
    db,
    client,
    driver: 'pglite',
    location: options.dataDir ?? 'memory',
    async migrate() {
      await client.exec('CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm;');
      await migratePglite(drizzleOver(), { migrationsFolder: MIGRATIONS_FOLDER });
    },
    async ping() {
      await client.query('select 1');
    },
    snapshot: () => client.snapshot(),
    async close() {
      if (!client.closed) await client.close();
      await lock?.release();
    },
  };
}

/**
 * Opens a PostgreSQL pool for DATABASE_URL; its parameterised statements are
 * prepared once per text on each connection unless `preparedStatements` is false.
 */
export function openPostgres(
  databaseUrl: string,
  poolSize = 10,
  preparedStatements = true,
): DatabaseHandle & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => undefined);
  // Nor one whose connection ends while it is checked out between two queries (pg_terminate_backend,
  // a restart): pg then emits 'error' on the client, which without a listener is an uncaught exception.
  // Its next query fails instead, and the work that made it is tried again.
  pool.on('connect', (client) => client.on('error', () => undefined));
  if (preparedStatements) {
    const statementNames = new StatementNames();
    pool.on('connect', (client) => nameStatementsByText(client, statementNames));
  }
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  const url = new URL(databaseUrl);
  return {
    db,
    pool,
    driver: 'postgres',
    location: `${url.hostname}:${url.port || '5432'}${url.pathname}`,
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
        const locked = drizzlePg(client, { schema });
        await locked.execute(EXTENSIONS_SQL);
        await migratePg(locked, { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
        client.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}

/**
 * For a data folder without a database yet, the built template to start
 * from: loading it takes a second or two where PGlite's own initdb takes
 * nine or more. Undefined when the folder has a database (PGlite resumes it)
 * or no build has made a template.
 */
function newDatabaseTemplate(dataDir: string): Blob | undefined {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return undefined;
  const template = PGLITE_TEMPLATES.find((file) => existsSync(file));
  return template ? new Blob([readFileSync(template)]) : undefined;
}

/** Opens the database the configuration names: PostgreSQL when DATABASE_URL is set, PGlite otherwise. */
export async function openDatabase(config: {
  databaseUrl: string | null;
  databasePreparedStatements: boolean;
  databasePoolSize: number;
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (config.databaseUrl)
    return openPostgres(config.databaseUrl, config.databasePoolSize, config.databasePreparedStatements);
  return openPglite({ dataDir: path.join(config.dataDir, 'pgdata') });
}

/** Rows of a raw `db.execute(sql…)`: both drivers answer with `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
