/**
 * Names for prepared statements, chosen by statement text, shared by both
 * database drivers (pg-prepared.ts for PostgreSQL, pglite-client.ts for
 * PGlite): one name per distinct text, so a name always means the same text
 * on every connection.
 */

/**
 * Distinct texts named per process; past this, new texts run unnamed. Each
 * connection keeps a plan per statement it prepared (tens of kilobytes for a
 * large one), so the bound keeps the database's memory in check; the
 * service's hot statements are among the first texts a process meets.
 */
const MAX_NAMED_TEXTS = 500;
/** PostgreSQL's answer when a schema change altered the result columns under a prepared statement. */
const CACHED_PLAN_CHANGED = '0A000';
/** PostgreSQL's answer to any statement in a transaction that an error has aborted. */
const IN_FAILED_TRANSACTION = '25P02';

export class StatementNames {
  readonly #names = new Map<string, string>();
  #last = 0;

  /** The name for a text, or undefined once the table is full. */
  nameOf(text: string): string | undefined {
    let name = this.#names.get(text);
    if (name === undefined && this.#names.size < MAX_NAMED_TEXTS) {
      name = `s${++this.#last}`;
      this.#names.set(text, name);
    }
    return name;
  }

  /** Gives a text a new name (its old statement no longer fits the schema). */
  rename(text: string): void {
    this.#names.delete(text);
  }

  /**
   * Runs `text`'s statement through `run`; when a schema change altered its
   * result columns (`0A000`), gives the text a new name and runs it once
   * more. Inside a transaction the first error has aborted it: that error is
   * reported, not the abort.
   */
  async runRenamingOnPlanChange<T>(text: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (codeOf(error) !== CACHED_PLAN_CHANGED) throw error;
      this.rename(text);
      try {
        return await run();
      } catch (retryError) {
        throw codeOf(retryError) === IN_FAILED_TRANSACTION ? error : retryError;
      }
    }
  }
}

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}
