import { type SQL, sql } from 'drizzle-orm';
import { type DbExecutor, rowsOf } from './client.js';

/**
 * pgvector helpers shared by every nearest-neighbour query (knowledge
 * retrieval, intent classification).
 */

/** pgvector's text form; seven significant digits are more than a float4 column keeps. */
export function vectorLiteral(vector: readonly number[]): string {
  return `[${vector.map((v) => +v.toPrecision(7)).join(',')}]`;
}

/** pgvector 0.8 added iterative index scans; older versions reject the setting. */
export async function supportsIterativeScan(db: DbExecutor): Promise<boolean> {
  const [row] = rowsOf<{ version: string | null }>(
    await db.execute(sql`SELECT extversion AS version FROM pg_extension WHERE extname = 'vector'`),
  );
  const [major = 0, minor = 0] = (row?.version ?? '0.0').split('.').map(Number);
  return major > 0 || minor >= 8;
}

/**
 * {@link supportsIterativeScan}, asked once per repository: the extension
 * version does not change while the process runs. A failed check is not kept,
 * so the next query asks again.
 */
export function iterativeScanSupport(db: DbExecutor): () => Promise<boolean> {
  let answer: Promise<boolean> | null = null;
  return () => {
    answer ??= supportsIterativeScan(db).catch((error: unknown) => {
      answer = null;
      throw error;
    });
    return answer;
  };
}

/**
 * Settings for the rest of the caller's transaction (`SET LOCAL`, through
 * `set_config(name, value, true)`), all of them in one round trip.
 */
export async function setLocalSettings(
  tx: DbExecutor,
  settings: ReadonlyArray<readonly [name: string, value: string]>,
): Promise<void> {
  if (settings.length === 0) return;
  await tx.execute(sql`SELECT ${setLocalExpressions(settings)}`);
}

/** The `set_config(name, value, true)` calls of {@link setLocalSettings}, for a caller's own SELECT list. */
export function setLocalExpressions(settings: ReadonlyArray<readonly [name: string, value: string]>): SQL {
  return sql.join(
    settings.map(([name, value]) => sql`set_config(${name}, ${value}, true)`),
    sql`, `,
  );
}
