import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app.js';
import { createDepartment, createKnowledgeFixture, createNamespace } from '../../test/factories.js';
import { rowsOf } from '../core/db/client.js';
import { chunks, intentExamples } from '../core/db/schema/index.js';
import { vectorLiteral } from '../core/db/vector.js';
import { embedderVersion } from '../core/llm/llm.js';
import { createLocalEmbedder, LOCAL_EMBEDDER_VERSION } from '../core/llm/local-embedder.js';
import { indexUpkeepTask, runIndexUpkeep } from './index-upkeep.js';
import { recurringTasks } from './schedules.js';

const ctx = useTestApp();

/** A vector no embedder would make from these texts: a stand-in for an older embedder's output. */
const stale = (dimensions: number) => Array.from({ length: dimensions }, (_, i) => (i === 0 ? 1 : 0));

const deps = () => ({
  db: ctx.container.db,
  embeddings: ctx.container.llm.embeddings,
  examples: ctx.container.intents.repositories.examples,
  classifier: ctx.container.intents.classifier,
});

const storedVectors = async (table: 'chunks' | 'intent_examples', ids: string[]) =>
  new Map(
    rowsOf<{ id: string; embedding: string; embedder: string | null }>(
      await ctx.container.db.execute(
        sql`SELECT id, embedding::text AS embedding, embedder FROM ${sql.raw(table)}
          WHERE id IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
      ),
    ).map((row) => [row.id, { embedding: JSON.parse(row.embedding) as number[], embedder: row.embedder }]),
  );

describe('index upkeep: vectors of another embedder', () => {
  it('re-embeds chunks and intent examples of an old version, leaves current ones alone, and is idempotent', async () => {
    const { container } = ctx;
    const dimensions = container.config.embeddingDimensions;
    const current = embedderVersion(container.llm.embeddings);
    const local = createLocalEmbedder(dimensions);
    const department = await createDepartment(container);
    const fixture = await createKnowledgeFixture(container, {
      departmentId: department.id,
      documents: [
        {
          title: 'Leave policy',
          chunks: [
            'Employees get 24 vacation days a year.',
            'Sick leave needs a doctor’s note after three days.',
          ],
        },
      ],
    });
    const [oldChunk, currentChunk] = fixture.documents[0]!.chunks;
    const namespace = await createNamespace(container, { departmentId: department.id });
    const [oldExample, currentExample] = await container.intents.service.storeExamples(namespace.id, [
      { intentName: 'vacation', exampleText: 'how many vacation days do I have left' },
      { intentName: 'sick_leave', exampleText: 'I am ill and cannot work today' },
    ]);
    // One row of each table made by an older embedder; the other marked current but holding a stale
    // vector, so a rewrite of it would show.
    const staleVector = vectorLiteral(stale(dimensions));
    for (const [table, ids] of [
      [chunks, [oldChunk!.id, currentChunk!.id]],
      [intentExamples, [oldExample!.id, currentExample!.id]],
    ] as const) {
      await container.db
        .update(table)
        .set({ embedding: sql`${staleVector}::vector`, embedder: 'local-v1:1536' })
        .where(eq(table.id, ids[0]));
      await container.db
        .update(table)
        .set({ embedding: sql`${staleVector}::vector`, embedder: current })
        .where(eq(table.id, ids[1]));
    }

    const first = await runIndexUpkeep(deps());
    expect(first.embedder).toBe(current);
    expect(first.chunks).toBeGreaterThanOrEqual(1);
    expect(first.intentExamples).toBeGreaterThanOrEqual(1);
    expect(first.more).toBe(false);

    const chunkRows = await storedVectors('chunks', [oldChunk!.id, currentChunk!.id]);
    expect(chunkRows.get(oldChunk!.id)!.embedder).toBe(current);
    // The fake LLM server embeds with the local embedder too: the same vector in both LLM modes.
    expect(chunkRows.get(oldChunk!.id)!.embedding[0]).toBeCloseTo(local.embedOne(oldChunk!.content)[0]!, 5);
    expect(chunkRows.get(currentChunk!.id)!.embedding).toEqual(stale(dimensions));
    const exampleRows = await storedVectors('intent_examples', [oldExample!.id, currentExample!.id]);
    expect(exampleRows.get(oldExample!.id)!.embedder).toBe(current);
    const expected = local.embedOne(oldExample!.exampleText);
    expect(exampleRows.get(oldExample!.id)!.embedding.slice(0, 8)).toEqual(
      expected
        .slice(0, 8)
        .map((v) => +v.toPrecision(7))
        .map((v) => expect.closeTo(v, 6)),
    );
    expect(exampleRows.get(currentExample!.id)!.embedding).toEqual(stale(dimensions));

    // The classifier's in-memory copy reloaded: the re-embedded example answers again.
    const classified = await container.intents.classifier.classify(namespace.id, oldExample!.exampleText);
    expect(classified.intent).toBe('vacation');

    const second = await runIndexUpkeep(deps());
    expect(second).toMatchObject({ chunks: 0, intentExamples: 0, keywordTerms: 0, more: false });
    expect(await storedVectors('chunks', [oldChunk!.id, currentChunk!.id])).toEqual(chunkRows);
  });

  it('stops at maxRows per table and says more remain; the next pass finishes', async () => {
    const { container } = ctx;
    const department = await createDepartment(container);
    const namespace = await createNamespace(container, { departmentId: department.id });
    const rows = await container.intents.service.storeExamples(
      namespace.id,
      ['where is my payslip', 'when is the salary paid', 'my wage is late'].map((exampleText) => ({
        intentName: 'payroll',
        exampleText,
      })),
    );
    await container.db
      .update(intentExamples)
      .set({ embedder: null })
      .where(
        inArray(
          intentExamples.id,
          rows.map((r) => r.id),
        ),
      );
    const bounded = await runIndexUpkeep(deps(), { maxRows: 2 });
    expect(bounded.intentExamples).toBe(2);
    expect(bounded.more).toBe(true);
    const rest = await runIndexUpkeep(deps(), { maxRows: 2 });
    expect(rest.intentExamples).toBe(1);
    expect(rest.more).toBe(false);
  });

  it('is a recurring task named after the embedder version, so a new version claims its own slot', () => {
    const version = embedderVersion(ctx.container.llm.embeddings);
    expect(version).toBe(`${LOCAL_EMBEDDER_VERSION}:${ctx.container.config.embeddingDimensions}`);
    const task = indexUpkeepTask({ ...deps(), logger: ctx.container.logger });
    expect(task.name).toBe(
      `index-upkeep-${LOCAL_EMBEDDER_VERSION}_${ctx.container.config.embeddingDimensions}`,
    );
    expect(task.name).not.toContain(':');
    expect(recurringTasks(ctx.container).map((t) => t.name)).toContain(task.name);
  });
});
