import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace } from '../../../test/factories.js';
import { explainPlan } from '../../../test/plans.js';
import { intentExamples } from '../../core/db/schema/index.js';
import { supportsIterativeScan } from '../../core/db/vector.js';
import { createLocalEmbedder } from '../../core/llm/local-embedder.js';
import { applyNearestSettings, nearestExamplesQuery } from './intent-examples.repository.js';

const ctx = useTestApp();

const WORDS =
  'vacation leave salary password laptop printer sick doctor bonus tax vpn email account holiday team'.split(
    ' ',
  );

describe('nearest examples', () => {
  it('can be served by the HNSW index, and answers what an exact scan would', async () => {
    const embedder = createLocalEmbedder(ctx.container.config.embeddingDimensions);
    const namespace = await createNamespace(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    const vectors: number[][] = [];
    for (let batch = 0; batch < 2; batch++) {
      await ctx.container.db.insert(intentExamples).values(
        Array.from({ length: 40 }, (_, i) => {
          const n = batch * 40 + i;
          const text = `${WORDS[n % 15]} ${WORDS[(n * 7) % 15]} ${WORDS[(n * 11 + 3) % 15]} number ${n}`;
          const embedding = embedder.embedOne(text);
          vectors.push(embedding);
          return { namespaceId: namespace.id, intentName: `i${n % 4}`, exampleText: text, embedding };
        }),
      );
    }
    await ctx.container.db.execute(sql`ANALYZE intent_examples`);
    const probe = embedder.embedOne('vacation salary printer number 42');
    const iterative = await supportsIterativeScan(ctx.container.db);

    const plan = await ctx.container.db.transaction(async (tx) => {
      await applyNearestSettings(tx, 5, iterative);
      // Priced honestly, so few rows are sorted faster than searched; forbidding the sort shows the index can serve the query.
      await tx.execute(
        sql`SELECT set_config('enable_sort', 'off', true), set_config('enable_seqscan', 'off', true)`,
      );
      return explainPlan(tx, nearestExamplesQuery(namespace.id, probe, 5));
    });
    expect(plan.replace(/'\[[^']*'/g, 'V')).toContain('intent_examples_embedding_idx');

    // The index answers what an exact scan would: the five best similarities, best first.
    const neighbours = await ctx.container.intents.repositories.examples.nearest(namespace.id, probe, 5);
    const exact = vectors
      .map((v) => v.reduce((sum, x, i) => sum + x * probe[i]!, 0))
      .sort((a, b) => b - a)
      .slice(0, 5);
    expect(neighbours).toHaveLength(5);
    for (const [i, n] of neighbours.entries()) expect(n.similarity).toBeCloseTo(exact[i]!, 4);
  }, 60_000);
});
