import { and, asc, count, countDistinct, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Database, type DbExecutor, rowsOf } from '../../core/db/client.js';
import { type Page, pagedList } from '../../core/db/paged-list.js';
import { intentExamples, namespaces } from '../../core/db/schema/index.js';
import { iterativeScanSupport, setLocalSettings, vectorLiteral } from '../../core/db/vector.js';
import type { Neighbour } from './intent-vote.js';

export type IntentExampleRow = Omit<typeof intentExamples.$inferSelect, 'embedding' | 'embedder'>;
export type NewIntentExample = typeof intentExamples.$inferInsert;

/** The columns answered for an example: everything but the vector, which nobody reads back. */
const exampleColumns = {
  id: intentExamples.id,
  namespaceId: intentExamples.namespaceId,
  intentName: intentExamples.intentName,
  exampleText: intentExamples.exampleText,
  createdAt: intentExamples.createdAt,
};

export interface NamespaceRef {
  id: string;
  name: string;
  departmentId: string;
}

/** `hnsw.ef_search` for the nearest-example query: far above k, so a namespace filter rarely starves it. */
const EF_SEARCH = 100;

/** The phrase lookup served by the unique index on (namespace_id, md5(example_text)). */
function sameText(namespaceId: string, text: string): SQL {
  return and(
    eq(intentExamples.namespaceId, namespaceId),
    sql`md5(${intentExamples.exampleText}) = md5(${text})`,
    eq(intentExamples.exampleText, text),
  ) as SQL;
}

/** The `k` nearest examples of a namespace with their cosine similarity, nearest first. */
export function nearestExamplesQuery(namespaceId: string, embedding: readonly number[], k: number): SQL {
  const vector = vectorLiteral(embedding);
  return sql`SELECT intent_name AS "intentName", 1 - (embedding <=> ${vector}::vector) AS similarity
    FROM intent_examples
    WHERE namespace_id = ${namespaceId} AND embedding IS NOT NULL
    ORDER BY embedding <=> ${vector}::vector
    LIMIT ${Math.max(1, Math.floor(k))}`;
}

/**
 * The transaction's settings (`SET LOCAL`, one round trip) for
 * {@link nearestExamplesQuery}: `hnsw.ef_search` well above k,
 * `hnsw.iterative_scan = strict_order` where pgvector has it (0.8+), so the
 * namespace filter cannot starve the index scan, and a `cpu_operator_cost`
 * that prices each vector distance at what it really costs (a 6 KB detoast),
 * and custom plans only (`plan_cache_mode`), so that a prepared statement
 * follows these settings and the namespace's size. The planner then takes
 * the HNSW index for a namespace with many examples and the exact scan of
 * the namespace's rows (also exact, and faster) for a small one.
 */
export async function applyNearestSettings(tx: DbExecutor, k: number, iterativeScan: boolean): Promise<void> {
  const settings: Array<[string, string]> = [
    ['hnsw.ef_search', String(Math.max(EF_SEARCH, k))],
    ['cpu_operator_cost', '0.1'],
    ['plan_cache_mode', 'force_custom_plan'],
  ];
  if (iterativeScan) settings.push(['hnsw.iterative_scan', 'strict_order']);
  await setLocalSettings(tx, settings);
}

export function createIntentExamplesRepository(db: Database) {
  const iterativeScan = iterativeScanSupport(db);
  return {
    /** The namespace with its department, for scope checks; null when missing. */
    async namespace(id: string, tx: DbExecutor = db): Promise<NamespaceRef | null> {
      const [row] = await tx
        .select({ id: namespaces.id, name: namespaces.name, departmentId: namespaces.departmentId })
        .from(namespaces)
        .where(eq(namespaces.id, id))
        .limit(1);
      return row ?? null;
    },

    /** Every namespace with exactly this name (names are not unique across departments). */
    async namespacesNamed(name: string, tx: DbExecutor = db): Promise<NamespaceRef[]> {
      return tx
        .select({ id: namespaces.id, name: namespaces.name, departmentId: namespaces.departmentId })
        .from(namespaces)
        .where(eq(namespaces.name, name))
        .orderBy(asc(namespaces.createdAt));
    },

    async findById(id: string, tx: DbExecutor = db): Promise<IntentExampleRow | null> {
      const [row] = await tx.select(exampleColumns).from(intentExamples).where(eq(intentExamples.id, id));
      return row ?? null;
    },

    /** The example with exactly this phrase in the namespace, whatever its intent. */
    async findByText(
      namespaceId: string,
      text: string,
      tx: DbExecutor = db,
    ): Promise<IntentExampleRow | null> {
      const [row] = await tx.select(exampleColumns).from(intentExamples).where(sameText(namespaceId, text));
      return row ?? null;
    },

    /** The stored examples of the namespace among `texts` (exact match), with their intents. */
    async findTexts(
      namespaceId: string,
      texts: readonly string[],
      tx: DbExecutor = db,
    ): Promise<Array<{ exampleText: string; intentName: string }>> {
      if (texts.length === 0) return [];
      return tx
        .select({ exampleText: intentExamples.exampleText, intentName: intentExamples.intentName })
        .from(intentExamples)
        .where(
          and(eq(intentExamples.namespaceId, namespaceId), inArray(intentExamples.exampleText, [...texts])),
        );
    },

    /**
     * Inserts examples; a phrase already stored in the namespace (a concurrent
     * insert) is skipped. Answers the rows actually inserted.
     */
    async insertMany(values: NewIntentExample[], tx: DbExecutor = db): Promise<IntentExampleRow[]> {
      if (values.length === 0) return [];
      return tx.insert(intentExamples).values(values).onConflictDoNothing().returning(exampleColumns);
    },

    /** Examples of a namespace (optionally one intent), newest first. */
    async list(
      filter: { namespaceId: string; intentName?: string },
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: IntentExampleRow[]; total: number }> {
      const where = and(
        eq(intentExamples.namespaceId, filter.namespaceId),
        filter.intentName === undefined ? undefined : eq(intentExamples.intentName, filter.intentName),
      );
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select(exampleColumns)
            .from(intentExamples)
            .where(where)
            .orderBy(desc(intentExamples.createdAt), desc(intentExamples.id))
            .limit(limit)
            .offset(offset),
        total: () => tx.select({ total: count() }).from(intentExamples).where(where),
      });
    },

    async delete(id: string, tx: DbExecutor = db): Promise<boolean> {
      const rows = await tx
        .delete(intentExamples)
        .where(eq(intentExamples.id, id))
        .returning({ id: intentExamples.id });
      return rows.length > 0;
    },

    /** The namespace's intent names with their example counts, by name. */
    async intents(
      namespaceId: string,
      page: Page,
      tx: DbExecutor = db,
    ): Promise<{ rows: Array<{ intentName: string; exampleCount: number }>; total: number }> {
      const where = eq(intentExamples.namespaceId, namespaceId);
      return pagedList({
        page,
        rows: ({ limit, offset }) =>
          tx
            .select({ intentName: intentExamples.intentName, exampleCount: count() })
            .from(intentExamples)
            .where(where)
            .groupBy(intentExamples.intentName)
            .orderBy(asc(intentExamples.intentName))
            .limit(limit)
            .offset(offset),
        total: () =>
          tx
            .select({ total: countDistinct(intentExamples.intentName) })
            .from(intentExamples)
            .where(where),
      });
    },

    /**
     * Every example vector of the namespace with its intent (at most
     * `limit`), in the text form pgvector answers (`[x,y,…]`, valid JSON),
     * for the classifier's in-memory copy.
     */
    async vectors(
      namespaceId: string,
      limit: number,
    ): Promise<Array<{ id: string; intentName: string; exampleText: string; embedding: string }>> {
      return rowsOf<{ id: string; intentName: string; exampleText: string; embedding: string }>(
        await db.execute(sql`SELECT id, intent_name AS "intentName", example_text AS "exampleText",
            embedding::text AS embedding
          FROM intent_examples WHERE namespace_id = ${namespaceId} AND embedding IS NOT NULL
          ORDER BY id LIMIT ${Math.max(1, Math.floor(limit))}`),
      );
    },

    /**
     * A digest of the namespace's example set (ids and the embedder of each
     * vector): it changes when an example is added, deleted or re-embedded.
     * The classifier's version check where no marks exist (PostgreSQL
     * without Redis): one small query instead of reloading the examples.
     */
    async fingerprint(namespaceId: string): Promise<string> {
      const [row] = rowsOf<{ digest: string | null; total: number | string }>(
        await db.execute(sql`SELECT count(*) AS total,
            md5(string_agg(id::text || ':' || coalesce(embedder, ''), ',' ORDER BY id)) AS digest
          FROM intent_examples WHERE namespace_id = ${namespaceId} AND embedding IS NOT NULL`),
      );
      return `${Number(row?.total ?? 0)}:${row?.digest ?? ''}`;
    },

    /**
     * Up to `limit` examples whose vector was made by another embedder than
     * `version` (or by an unrecorded one), with an id after `afterId`, by id:
     * a keyset walk over the primary key, so a pass reads each row once.
     */
    async outdated(
      version: string,
      afterId: string | null,
      limit: number,
    ): Promise<Array<{ id: string; namespaceId: string; exampleText: string }>> {
      return rowsOf<{ id: string; namespaceId: string; exampleText: string }>(
        await db.execute(sql`SELECT id, namespace_id AS "namespaceId", example_text AS "exampleText"
          FROM intent_examples
          WHERE embedder IS DISTINCT FROM ${version} ${afterId ? sql`AND id > ${afterId}` : sql``}
          ORDER BY id LIMIT ${Math.max(1, Math.floor(limit))}`),
      );
    },

    /**
     * Stores new vectors made by `version`, in one statement. A row already
     * at `version` (done by another runner meanwhile) is left alone.
     * @returns the ids updated.
     */
    async setEmbeddings(
      rows: ReadonlyArray<{ id: string; embedding: readonly number[] }>,
      version: string,
    ): Promise<string[]> {
      if (rows.length === 0) return [];
      const values = rows.map((row) => ({ id: row.id, embedding: vectorLiteral(row.embedding) }));
      return rowsOf<{ id: string }>(
        await db.execute(sql`UPDATE intent_examples e SET embedding = v.embedding::vector, embedder = ${version}
          FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(id uuid, embedding text)
          WHERE e.id = v.id AND e.embedder IS DISTINCT FROM ${version}
          RETURNING e.id`),
      ).map((row) => row.id);
    },

    /**
     * The `k` examples of the namespace nearest to `embedding` by cosine
     * distance (`ORDER BY embedding <=> $v LIMIT k`, served by the HNSW index
     * `intent_examples_embedding_idx`), in one transaction with
     * {@link applyNearestSettings}.
     */
    async nearest(namespaceId: string, embedding: readonly number[], k: number): Promise<Neighbour[]> {
      const iterative = await iterativeScan();
      return db.transaction(async (tx) => {
        await applyNearestSettings(tx, k, iterative);
        const rows = rowsOf<{ intentName: string; similarity: number | string }>(
          await tx.execute(nearestExamplesQuery(namespaceId, embedding, k)),
        );
        return rows.map((r) => ({ intentName: r.intentName, similarity: Number(r.similarity) }));
      });
    },
  };
}

export type IntentExamplesRepository = ReturnType<typeof createIntentExamplesRepository>;
