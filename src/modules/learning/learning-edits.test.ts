import { eq } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createApprovalFixture } from '../../../test/approval-factories.js';
import { createDepartment, createNamespace } from '../../../test/factories.js';
import { approvals, learningSuggestions } from '../../core/db/schema/index.js';
import { type EmbeddingProvider, LlmProviderError } from '../../core/llm/llm.js';
import { createLearningEdits } from './learning-edits.js';

const ctx = useTestApp();

/** An embedding service that is down (an external provider failing, not one of our modules). */
const downProvider: EmbeddingProvider = {
  name: 'down',
  dimensions: 3,
  embed: async () => {
    throw new LlmProviderError('embedding service unavailable');
  },
};

/** The learning edits of the container, but over the embedding service that is down. */
function editsWithoutEmbeddings() {
  return createLearningEdits({
    learning: ctx.container.learning.repositories.learning,
    embeddings: downProvider,
    logger: pino({ level: 'silent' }),
    // The approvals of these tests show their question in the context.
    messageContent: async () => null,
  });
}

async function namespaceWithApprovals(questions: string[]) {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id });
  const rows = [];
  for (const question of questions) {
    const fixture = await createApprovalFixture(ctx.container, {
      departmentId: department.id,
      namespaceId: namespace.id,
    });
    const context = {
      ...fixture.approval.context,
      userMessage: { id: 'm', content: question, createdAt: '' },
    };
    const [row] = await ctx.container.db
      .update(approvals)
      .set({ context })
      .where(eq(approvals.id, fixture.approval.id))
      .returning();
    rows.push(row!);
  }
  return { namespace, approvals: rows };
}

async function suggestionsOf(namespaceId: string, type: 'example' | 'answer') {
  const rows = await ctx.container.db
    .select()
    .from(learningSuggestions)
    .where(eq(learningSuggestions.namespaceId, namespaceId));
  return rows.filter((row) => row.type === type);
}

describe('learning edits', () => {
  it('reads the question from the inbound message when the context does not show it', async () => {
    const department = await createDepartment(ctx.container);
    const namespace = await createNamespace(ctx.container, { departmentId: department.id });
    const fixture = await createApprovalFixture(ctx.container, {
      departmentId: department.id,
      namespaceId: namespace.id,
    });
    const [approval] = await ctx.container.db
      .update(approvals)
      .set({ context: {} })
      .where(eq(approvals.id, fixture.approval.id))
      .returning();
    const prepared = await ctx.container.learning.prepare(approval!);
    expect(prepared).toMatchObject({
      question: 'How many vacation days do I get?',
      embedder: expect.any(String),
    });
    expect(prepared?.embedding).toHaveLength(ctx.container.config.embeddingDimensions);

    // Without a prepared edit, the question is read inside the transaction.
    await ctx.container.db.transaction((tx) =>
      ctx.container.learning.recordEdit(tx, approval!, 'Twenty eight days.', null),
    );
    const [answer] = await suggestionsOf(namespace.id, 'answer');
    expect(answer).toMatchObject({
      question: 'How many vacation days do I get?',
      embedding: null,
      embedder: null,
      answer: 'Twenty eight days.',
    });
  });

  it('answers the question without an embedding when the embedder fails, and then folds by text only', async () => {
    const { namespace, approvals: rows } = await namespaceWithApprovals([
      'How many vacation days do I get?',
      'how many vacation days do I get',
      'How many days of vacation do I get?',
    ]);
    const edits = editsWithoutEmbeddings();
    for (const approval of rows) {
      const prepared = await edits.prepare(approval);
      expect(prepared).toEqual({ question: expect.any(String), embedding: null, embedder: null });
      await ctx.container.db.transaction((tx) =>
        edits.recordEdit(tx, approval, 'Twenty eight days.', prepared),
      );
    }
    const answers = await suggestionsOf(namespace.id, 'answer');
    expect(answers.map((a) => [a.question, a.count]).sort()).toEqual([
      ['How many days of vacation do I get?', 1],
      ['How many vacation days do I get?', 2],
    ]);
  });

  it('records one approval once, and two concurrent edits of a new question as one suggestion', async () => {
    const { namespace, approvals: rows } = await namespaceWithApprovals([
      'Where do I send my sick note?',
      'Where do I send my sick note?',
    ]);
    const { learning, db } = ctx.container;
    const prepared = await Promise.all(rows.map((approval) => learning.prepare(approval)));
    await Promise.all(
      rows.map((approval, i) =>
        db.transaction((tx) => learning.recordEdit(tx, approval, `To HR (${i}).`, prepared[i]!)),
      ),
    );
    await db.transaction((tx) => learning.recordEdit(tx, rows[0]!, 'To HR (again).', prepared[0]!));
    for (const type of ['example', 'answer'] as const) {
      const [only, ...rest] = await suggestionsOf(namespace.id, type);
      expect(rest).toEqual([]);
      expect(only!.count).toBe(2);
      expect([...only!.approvalIds].sort()).toEqual(rows.map((r) => r.id).sort());
    }
  });
});
