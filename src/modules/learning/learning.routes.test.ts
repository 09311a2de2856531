import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { type ApprovalFixture, createApprovalFixture } from '../../../test/approval-factories.js';
import {
  createDepartment,
  createKnowledgeBase,
  createNamespace,
  createUser,
  type TestUser,
} from '../../../test/factories.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { securityChecks } from '../../../test/security.js';
import {
  approvals,
  auditLogs,
  documents,
  intentExamples,
  learningSuggestions,
  messages,
} from '../../core/db/schema/index.js';

const ctx = useTestApp({}, { workers: true });
const MISSING = '00000000-0000-4000-8000-000000000000';
const QUESTION = 'How many vacation days do I get?';

/** A suggestion of a namespace in a department the caller of the 404 checks does not belong to. */
async function otherDepartmentSuggestion(): Promise<string> {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id });
  const row = await ctx.container.learning.repositories.learning.insert({
    namespaceId: namespace.id,
    type: 'answer',
    question: QUESTION,
    normalizedQuestion: 'how many vacation days do i get',
    answer: 'Twenty four days.',
  });
  return row.id;
}

securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/learning/suggestions?namespaceId=${MISSING}`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => {
    const department = await createDepartment(ctx.container);
    const namespace = await createNamespace(ctx.container, { departmentId: department.id });
    return `/api/v1/learning/suggestions?namespaceId=${namespace.id}`;
  },
});
securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/learning/suggestions/${MISSING}/accept`,
  payload: { knowledgeBaseId: MISSING },
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => `/api/v1/learning/suggestions/${await otherDepartmentSuggestion()}/accept`,
});
securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/learning/suggestions/${MISSING}/dismiss`,
  permission: 'canManageNamespaces',
  otherDepartmentUrl: async () => `/api/v1/learning/suggestions/${await otherDepartmentSuggestion()}/dismiss`,
});

const call = (caller: TestUser, method: 'GET' | 'POST', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

type SuggestionBody = {
  id: string;
  namespaceId: string;
  type: 'example' | 'answer';
  status: string;
  intent: string | null;
  question: string;
  answer: string | null;
  count: number;
  approvalIds: string[];
  knowledgeBaseId: string | null;
  documentId: string | null;
  decidedById: string | null;
};

/** A department whose dept_head reviews (canApprove) and manages namespaces, and one namespace. */
async function scene() {
  const department = await createDepartment(ctx.container);
  const manager = await createUser(ctx.container, { role: 'dept_head', departmentId: department.id });
  const namespace = await createNamespace(ctx.container, { departmentId: department.id, systemPrompt: 'HR' });
  /** A pending approval of the namespace answering `question` (the employee's message). */
  const pending = async (question = QUESTION, intent = 'vacation') => {
    const fixture = await createApprovalFixture(ctx.container, {
      departmentId: department.id,
      namespaceId: namespace.id,
      intent,
    });
    await askedAs(fixture, question);
    return fixture;
  };
  return { department, manager, namespace, pending };
}

/** Makes the fixture's approval answer `question`, in its context and its inbound message. */
async function askedAs(fixture: ApprovalFixture, question: string) {
  const context = fixture.approval.context as { userMessage: { content: string } };
  await ctx.container.db
    .update(approvals)
    .set({ context: { ...context, userMessage: { ...context.userMessage, content: question } } })
    .where(eq(approvals.id, fixture.approval.id));
  await ctx.container.db
    .update(messages)
    .set({ content: question })
    .where(eq(messages.id, fixture.approval.messageId!));
}

/** Approves with an edit over HTTP: the decision records what the edit teaches in its transaction. */
async function approveEdited(manager: TestUser, approvalId: string, editedContent: string) {
  const res = await call(manager, 'POST', `/approvals/${approvalId}/approve`, { editedContent });
  expect(res.statusCode).toBe(200);
  expect(res.json().status).toBe('edited');
}

async function suggestionsOf(namespaceId: string) {
  return ctx.container.db
    .select()
    .from(learningSuggestions)
    .where(eq(learningSuggestions.namespaceId, namespaceId));
}

async function listed(caller: TestUser, query: string): Promise<SuggestionBody[]> {
  const res = await call(caller, 'GET', `/learning/suggestions?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json().items;
}

describe('suggestions from edited approvals', () => {
  it('yields an example and an answer for an edited approval, nothing for a plain approval or a rejection', async () => {
    const { manager, namespace, pending } = await scene();
    const edited = await pending();
    await approveEdited(manager, edited.approval.id, 'You get twenty eight vacation days a year.');

    const plain = await pending('What is the expense policy?');
    expect((await call(manager, 'POST', `/approvals/${plain.approval.id}/approve`, {})).statusCode).toBe(200);
    const rejected = await pending('Can I carry vacation days over?');
    expect(
      (await call(manager, 'POST', `/approvals/${rejected.approval.id}/reject`, { reason: 'wrong' }))
        .statusCode,
    ).toBe(200);

    const items = await listed(manager, `namespaceId=${namespace.id}`);
    expect(items).toHaveLength(2);
    const byType = Object.fromEntries(items.map((item) => [item.type, item]));
    expect(byType.example).toMatchObject({
      namespaceId: namespace.id,
      status: 'open',
      intent: 'vacation',
      question: QUESTION,
      answer: null,
      count: 1,
      approvalIds: [edited.approval.id],
      knowledgeBaseId: null,
      documentId: null,
      decidedById: null,
    });
    expect(byType.answer).toMatchObject({
      status: 'open',
      intent: 'vacation',
      question: QUESTION,
      answer: 'You get twenty eight vacation days a year.',
      count: 1,
      approvalIds: [edited.approval.id],
    });
    expect(Object.keys(byType.answer!)).not.toContain('embedding');
    // The type filter, and the default status (open) against another one.
    expect((await listed(manager, `namespaceId=${namespace.id}&type=answer`)).map((i) => i.type)).toEqual([
      'answer',
    ]);
    expect(await listed(manager, `namespaceId=${namespace.id}&status=accepted`)).toEqual([]);
  });

  it('yields only the answer when the intent is unknown, and nothing without a namespace', async () => {
    const { manager, namespace, pending } = await scene();
    const unknown = await pending(QUESTION, 'unknown');
    await approveEdited(manager, unknown.approval.id, 'Twenty eight days.');
    expect((await suggestionsOf(namespace.id)).map((s) => s.type)).toEqual(['answer']);

    const orphan = await pending('Who approves my leave?');
    await ctx.container.db
      .update(approvals)
      .set({ namespaceId: null })
      .where(eq(approvals.id, orphan.approval.id));
    await approveEdited(manager, orphan.approval.id, 'Your manager does.');
    expect(await suggestionsOf(namespace.id)).toHaveLength(1);
  });

  it('folds a near-identical question into the open suggestion, by text and by embedding', async () => {
    const { manager, namespace, pending } = await scene();
    const first = await pending(QUESTION);
    await approveEdited(manager, first.approval.id, 'Twenty four days.');
    // Case and punctuation differ: equal once normalised.
    const second = await pending('  how many VACATION days, do I get??');
    await approveEdited(manager, second.approval.id, 'Twenty six days.');
    // Different words, the same question to the embedder (cosine ≥ 0.95).
    const third = await pending('How many days of vacation do I get?');
    await approveEdited(manager, third.approval.id, 'Twenty eight days.');
    // Another question: a suggestion of its own.
    const other = await pending('What is the expense policy?', 'vacation');
    await approveEdited(manager, other.approval.id, 'See the travel guide.');

    const answers = await listed(manager, `namespaceId=${namespace.id}&type=answer`);
    expect(answers.map((a) => [a.question, a.count])).toEqual([
      [QUESTION, 3],
      ['What is the expense policy?', 1],
    ]);
    expect(answers[0]).toMatchObject({
      answer: 'Twenty eight days.',
      approvalIds: [first.approval.id, second.approval.id, third.approval.id],
    });
    const examples = await listed(manager, `namespaceId=${namespace.id}&type=example`);
    expect(examples.map((e) => [e.question, e.count])).toEqual([
      [QUESTION, 3],
      ['What is the expense policy?', 1],
    ]);
  });

  it('keeps examples of different intents apart, and a decided suggestion out of folding', async () => {
    const { manager, namespace, pending } = await scene();
    const vacation = await pending(QUESTION, 'vacation');
    await approveEdited(manager, vacation.approval.id, 'Twenty four days.');
    const leave = await pending(QUESTION, 'leave');
    await approveEdited(manager, leave.approval.id, 'Twenty four days.');
    const examples = await listed(manager, `namespaceId=${namespace.id}&type=example`);
    expect(examples.map((e) => [e.intent, e.count]).sort()).toEqual([
      ['leave', 1],
      ['vacation', 1],
    ]);
    const [answer] = await listed(manager, `namespaceId=${namespace.id}&type=answer`);
    expect(answer!.count).toBe(2);

    expect((await call(manager, 'POST', `/learning/suggestions/${answer!.id}/dismiss`)).statusCode).toBe(200);
    const again = await pending(QUESTION, 'vacation');
    await approveEdited(manager, again.approval.id, 'Thirty days.');
    const open = await listed(manager, `namespaceId=${namespace.id}&type=answer`);
    expect(open.map((a) => [a.count, a.answer])).toEqual([[1, 'Thirty days.']]);
  });
});

describe('accepting and dismissing', () => {
  it('accepting an answer writes it into the knowledge base, and the same question then drafts it', async () => {
    const { department, manager, namespace, pending } = await scene();
    const base = await createKnowledgeBase(ctx.container, { departmentId: department.id });
    const fixture = await pending(QUESTION);
    const editedText = 'Every employee gets twenty eight vacation days per calendar year.';
    await approveEdited(manager, fixture.approval.id, editedText);
    const [answer] = await listed(manager, `namespaceId=${namespace.id}&type=answer`);

    const res = await call(manager, 'POST', `/learning/suggestions/${answer!.id}/accept`, {
      knowledgeBaseId: base.id,
    });
    expect(res.statusCode).toBe(200);
    const accepted = res.json() as SuggestionBody;
    expect(accepted).toMatchObject({
      id: answer!.id,
      status: 'accepted',
      knowledgeBaseId: base.id,
      documentId: expect.any(String),
      decidedById: manager.user.id,
    });
    const document = await waitFor('the answer document to be ingested', async () => {
      const doc = await call(manager, 'GET', `/knowledge/documents/${accepted.documentId}`);
      expect(doc.statusCode).toBe(200);
      const body = doc.json();
      expect(body.status).not.toBe('failed');
      return body.status === 'ready' ? body : null;
    });
    expect(document).toMatchObject({ knowledgeBaseId: base.id, title: `Q: ${QUESTION}` });

    const draft = await call(manager, 'POST', '/rag/draft', { departmentId: department.id, text: QUESTION });
    expect(draft.statusCode).toBe(200);
    expect(draft.json().confidence).toBeGreaterThanOrEqual(0.7);
    expect(draft.json().sources[0].documentId).toBe(accepted.documentId);
    expect(draft.json().answer).toContain(editedText);

    const audit = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.entityType, 'learning_suggestions'), eq(auditLogs.entityId, answer!.id)));
    expect(audit.map((entry) => [entry.action, entry.userId])).toEqual([['accept', manager.user.id]]);
  });

  it('accepting an example adds it to the intent', async () => {
    const { manager, namespace, pending } = await scene();
    const question = 'How much paid leave do I have left?';
    const fixture = await pending(question, 'leave-balance');
    await approveEdited(manager, fixture.approval.id, 'Ask HR for your balance.');
    const [example] = await listed(manager, `namespaceId=${namespace.id}&type=example`);

    const res = await call(manager, 'POST', `/learning/suggestions/${example!.id}/accept`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'accepted', knowledgeBaseId: null, documentId: null });
    const examples = await call(
      manager,
      'GET',
      `/intents/examples?namespaceId=${namespace.id}&intentName=leave-balance`,
    );
    expect(examples.statusCode).toBe(200);
    expect(examples.json().items.map((e: { exampleText: string }) => e.exampleText)).toEqual([question]);
    const [stored] = await ctx.container.db
      .select()
      .from(intentExamples)
      .where(and(eq(intentExamples.namespaceId, namespace.id), eq(intentExamples.exampleText, question)));
    expect(stored?.embedding?.length).toBe(ctx.container.config.embeddingDimensions);
  });

  it('keeps an example open when its question is already an example of another intent (409)', async () => {
    const { manager, namespace, pending } = await scene();
    const question = 'Can I work from home on Fridays?';
    const added = await call(manager, 'POST', '/intents/examples', {
      namespaceId: namespace.id,
      intentName: 'remote-work',
      exampleText: question,
    });
    expect(added.statusCode).toBe(201);
    const fixture = await pending(question, 'schedule');
    await approveEdited(manager, fixture.approval.id, 'Yes, with your manager’s consent.');
    const [example] = await listed(manager, `namespaceId=${namespace.id}&type=example`);

    const res = await call(manager, 'POST', `/learning/suggestions/${example!.id}/accept`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('ConflictError');
    const [still] = await listed(manager, `namespaceId=${namespace.id}&type=example`);
    expect(still).toMatchObject({ id: example!.id, status: 'open', decidedById: null });
  });

  it('dismissing changes nothing else, and a decided suggestion answers 409', async () => {
    const { department, manager, namespace, pending } = await scene();
    const base = await createKnowledgeBase(ctx.container, { departmentId: department.id });
    const fixture = await pending('Who signs my travel request?', 'travel');
    await approveEdited(manager, fixture.approval.id, 'Your department head signs it.');
    const items = await listed(manager, `namespaceId=${namespace.id}`);
    expect(items).toHaveLength(2);
    const documentsBefore = await ctx.container.db
      .select()
      .from(documents)
      .where(eq(documents.knowledgeBaseId, base.id));

    for (const item of items) {
      const res = await call(manager, 'POST', `/learning/suggestions/${item.id}/dismiss`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: item.id, status: 'dismissed', decidedById: manager.user.id });
    }
    expect(await listed(manager, `namespaceId=${namespace.id}`)).toEqual([]);
    expect(await listed(manager, `namespaceId=${namespace.id}&status=dismissed`)).toHaveLength(2);
    const examples = await ctx.container.db
      .select()
      .from(intentExamples)
      .where(eq(intentExamples.namespaceId, namespace.id));
    expect(examples).toEqual([]);
    expect(
      await ctx.container.db.select().from(documents).where(eq(documents.knowledgeBaseId, base.id)),
    ).toEqual(documentsBefore);

    const answer = items.find((i) => i.type === 'answer')!;
    for (const [action, payload] of [
      ['dismiss', undefined],
      ['accept', { knowledgeBaseId: base.id }],
    ] as const) {
      const res = await call(manager, 'POST', `/learning/suggestions/${answer.id}/${action}`, payload);
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toBe('ConflictError');
    }
    const [row] = await suggestionsOf(namespace.id).then((rows) => rows.filter((r) => r.id === answer.id));
    expect(row).toMatchObject({ status: 'dismissed', knowledgeBaseId: null, documentId: null });
  });

  it('answers 422 for an answer without a knowledge base of the namespace, changing nothing', async () => {
    const { manager, namespace, pending } = await scene();
    const fixture = await pending(QUESTION, 'unknown');
    await approveEdited(manager, fixture.approval.id, 'Twenty eight days.');
    const [answer] = await listed(manager, `namespaceId=${namespace.id}&type=answer`);
    // Another department's base, and a base of the department the namespace's config leaves out.
    const elsewhere = await createKnowledgeBase(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    const searched = await createKnowledgeBase(ctx.container, { departmentId: namespace.departmentId });
    const leftOut = await createKnowledgeBase(ctx.container, { departmentId: namespace.departmentId });
    await ctx.container.namespaces.repositories.namespaces.update(namespace.id, {
      config: { knowledgeBaseIds: [searched.id] },
    });
    for (const body of [{}, { knowledgeBaseId: elsewhere.id }, { knowledgeBaseId: leftOut.id }]) {
      const res = await call(manager, 'POST', `/learning/suggestions/${answer!.id}/accept`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json()).toMatchObject({ error: 'ValidationError', statusCode: 422 });
      expect(JSON.stringify(res.json())).toContain('body.knowledgeBaseId');
    }
    const [row] = await listed(manager, `namespaceId=${namespace.id}&type=answer`);
    expect(row).toMatchObject({ status: 'open', documentId: null });
  });

  it('answers 422 in the envelope for bad queries and bodies, 404 for a missing suggestion', async () => {
    const { manager, namespace } = await scene();
    for (const query of [
      '',
      'namespaceId=not-a-uuid',
      `namespaceId=${namespace.id}&type=other`,
      `namespaceId=${namespace.id}&status=closed`,
      `namespaceId=${namespace.id}&limit=101`,
      `namespaceId=${namespace.id}&limit=0`,
      `namespaceId=${namespace.id}&offset=-1`,
      `namespaceId=${namespace.id}&unknown=1`,
    ]) {
      const res = await call(manager, 'GET', `/learning/suggestions?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toMatchObject({ error: 'ValidationError', statusCode: 422 });
    }
    for (const body of [{ knowledgeBaseId: 'nope' }, { other: true }]) {
      const res = await call(manager, 'POST', `/learning/suggestions/${MISSING}/accept`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await call(manager, 'POST', '/learning/suggestions/not-a-uuid/dismiss')).statusCode).toBe(422);
    const missing = await call(manager, 'POST', `/learning/suggestions/${MISSING}/dismiss`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('NotFoundError');
    const page = await call(
      manager,
      'GET',
      `/learning/suggestions?namespaceId=${namespace.id}&limit=5&offset=0`,
    );
    expect(page.json()).toEqual({ items: [], total: 0, limit: 5, offset: 0 });
  });
});
