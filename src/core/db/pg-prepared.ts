import type pg from 'pg';
import type { StatementNames } from './statement-names.js';

/**
 * Named prepared statements for the `pg` driver, chosen by statement text.
 *
 * Without a name, PostgreSQL parses, analyses and plans every statement it
 * receives. With one, a connection parses a text once and later executions
 * only bind and run it: a primary-key select or a small insert costs about
 * half the server's CPU (measured in docs/benchmarks.md). Drizzle names a
 * statement only when asked to (`.prepare(name)`); this names every
 * statement that carries parameters, one name per distinct text, so a name
 * always means the same text on every connection.
 *
 * - Statements without parameters (BEGIN, COMMIT, migrations with several
 *   commands) stay on the simple protocol: a prepared statement holds one
 *   command only.
 * - After five executions PostgreSQL may run a prepared statement on a
 *   generic plan when that costs no more than the custom ones. Queries whose
 *   plan must follow their `SET LOCAL` settings (the vector searches) set
 *   `plan_cache_mode = force_custom_plan` with them.
 * - A schema change that alters a statement's result columns makes
 *   PostgreSQL refuse the old statement (`0A000`); the text then gets a new
 *   name and runs again once (statement-names.ts).
 */

type QueryConfig = pg.QueryConfig & { rowMode?: 'array' };
type Query = (config: QueryConfig | string, values?: unknown[]) => Promise<pg.QueryResult>;

/**
 * Makes a connection name its parameterised statements by text. Called for
 * every new connection of the pool (`pool.on('connect')`); calls with a
 * callback or a submittable pass through unchanged.
 */
export function nameStatementsByText(client: pg.PoolClient, names: StatementNames): void {
  const query = client.query.bind(client) as unknown as (...args: unknown[]) => unknown;
  const run: Query = async (config, values) => {
    const asConfig: QueryConfig = typeof config === 'string' ? { text: config } : config;
    const parameters = values ?? asConfig.values;
    if (asConfig.name || !parameters || parameters.length === 0) {
      return (await query(config, values)) as pg.QueryResult;
    }
    const named = () =>
      query({ ...asConfig, name: names.nameOf(asConfig.text) }, parameters) as Promise<pg.QueryResult>;
    return names.runRenamingOnPlanChange(asConfig.text, named);
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const [config, second, third] = args;
    const isQueryConfig =
      typeof config === 'string' || (typeof config === 'object' && config !== null && !('submit' in config));
    if (!isQueryConfig) return query(...args);
    // `pool.query` calls its connection with (text, values, callback).
    const callback = [second, third].find((arg) => typeof arg === 'function') as
      | ((error: Error | null, result?: pg.QueryResult) => void)
      | undefined;
    const values = Array.isArray(second) ? (second as unknown[]) : undefined;
    const result = run(config as QueryConfig | string, values);
    if (!callback) return result;
    result.then(
      (answer) => callback(null, answer),
      (error: Error) => callback(error),
    );
    return undefined;
  };
}
