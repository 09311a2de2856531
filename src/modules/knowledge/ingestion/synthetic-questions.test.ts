import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../../test/app.js';
import { createUser, type TestUser } from '../../../../test/factories.js';
import { type FakeLlmServer, startFakeLlmServer } from '../../../../test/fakes/llm-server.js';
import { uploadKnowledgeFile, waitForDocumentRun } from '../../../../test/knowledge-documents.js';
import { chunks } from '../../../core/db/schema/index.js';

/** The passage every test ingests: it never says "time off", "holiday" or "leave". */
const PASSAGE = 'Employees receive twenty four days of paid vacation every calendar year.';
/** How an employee actually asks: hardly a word in common with the passage. */
const QUESTION = 'How much time off do I get for holidays?';
const QUESTIONS = [
  '1. How much time off do I get for holidays?',
  '- How many holiday days per year?',
  '"Is annual leave paid?"',
  'How much time off do I get for holidays?',
];

let ctx: TestContext;
let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeLlmServer({
    // The questions prompt gets a list (numbered, quoted, one repeat); any other chat call its usual answer.
    reply: ({ messages }) =>
      messages[0]?.content.includes('questions that an employee') ? QUESTIONS.join('\n') : 'FAKE-LLM answer',
  });
  ctx = await createTestApp(
    {
      LLM_API_KEY: fake.apiKey,
      LLM_BASE_URL: fake.baseUrl,
      LLM_MODEL: 'gpt-4o-mini',
      LLM_EMBEDDING_MODEL: 'fake-embed',
    },
    { workers: true },
  );
  // Building the service (migrations included) takes long on a loaded machine.
}, 180_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});
beforeEach(() => fake.reset());

interface DocumentBody {
  id: string;
  status: string;
  metadata: { ingestion?: Record<string, unknown> & { syntheticQuestions?: Record<string, unknown> } };
  chunks: Array<{ content: string }>;
}

async function createBase(caller: TestUser, syntheticQuestions?: object): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/knowledge/bases',
    headers: caller.headers,
    payload: {
      name: 'Handbook',
      departmentId: caller.user.departmentId,
      ...(syntheticQuestions ? { syntheticQuestions } : {}),
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id;
}

/** Uploads the passage as a text file and waits until ingestion has finished. */
async function ingest(caller: TestUser, knowledgeBaseId: string): Promise<DocumentBody> {
  const { id } = await uploadKnowledgeFile(ctx.app, caller, {
    knowledgeBaseId,
    title: 'Leave policy',
    filename: 'leave.txt',
    content: Buffer.from(PASSAGE),
  });
  return waitForDocumentRun<DocumentBody>(ctx.app, caller, id, { interval: 100 });
}

const storedQuestions = async (documentId: string) =>
  (
    await ctx.container.db
      .select({ q: chunks.syntheticQuestions })
      .from(chunks)
      .where(eq(chunks.documentId, documentId))
  ).map((r) => r.q);

/** The stems the keyword leg indexes for the chunks of a knowledge base. */
const keywordTerms = async (knowledgeBaseId: string) =>
  (
    await ctx.container.db
      .select({ terms: sql<string>`array_to_string(tsvector_to_array(${chunks.terms}), ' ')` })
      .from(chunks)
      .where(eq(chunks.knowledgeBaseId, knowledgeBaseId))
  ).flatMap((r) => r.terms.split(' '));

/** The best chunk of one knowledge base for `text`, as the pipeline's search step finds it. */
async function best(knowledgeBaseId: string, text: string) {
  const { hits } = await ctx.container.rag.retrieval.search({
    text,
    knowledgeBaseIds: [knowledgeBaseId],
    limit: 1,
  });
  expect(hits).toHaveLength(1);
  return hits[0]!;
}

describe('synthetic questions at ingestion', () => {
  it('asks the LLM nothing when the option is off (the default)', async () => {
    const caller = await createUser(ctx.container);
    const doc = await ingest(caller, await createBase(caller));
    expect(doc.status).toBe('ready');
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(0);
    expect(await storedQuestions(doc.id)).toEqual([null]);
    expect(doc.metadata.ingestion?.syntheticQuestions).toBeUndefined();
  });

  it('stores the questions with the chunk, indexes them, and a question finds the chunk better', async () => {
    const caller = await createUser(ctx.container);
    const withQuestions = await createBase(caller, { enabled: true, perChunk: 3 });
    const doc = await ingest(caller, withQuestions);
    expect(doc.status).toBe('ready');

    // One call for the one chunk, in the chunk's language, asking for three questions.
    const calls = fake.requestsTo('/v1/chat/completions');
    expect(calls).toHaveLength(1);
    const prompt = calls[0]!.body.messages as Array<{ role: string; content: string }>;
    expect(prompt[0]!.content).toContain('exactly 3 short questions');
    expect(prompt[0]!.content).toContain('in the language of the passage');
    expect(prompt[1]!.content).toContain(PASSAGE);

    // Parsed: markers and quotes stripped, the repeat dropped.
    const questions = [
      'How much time off do I get for holidays?',
      'How many holiday days per year?',
      'Is annual leave paid?',
    ];
    expect(await storedQuestions(doc.id)).toEqual([questions]);
    expect(doc.metadata.ingestion?.syntheticQuestions).toMatchObject({
      status: 'generated',
      perChunk: 3,
      model: 'gpt-4o-mini',
      chunksWithQuestions: 1,
      questionCount: 3,
    });
    expect(doc.metadata.ingestion?.syntheticQuestions?.inputTokens).toBeGreaterThan(0);
    expect(doc.metadata.ingestion?.syntheticQuestions?.costUsd).toBeGreaterThan(0);
    // The embedding input is the content followed by the questions; users still see the content alone.
    const embedded = fake.requestsTo('/v1/embeddings')[0]!.body.input as string[];
    expect(embedded).toEqual([`${PASSAGE}\n${questions.join('\n')}`]);
    expect(doc.chunks.map((c) => c.content)).toEqual([PASSAGE]);

    // The same passage in a base without the option: the question-phrased message matches it less.
    const without = await createBase(caller);
    await ingest(caller, without);
    // The keyword index of the chunk holds the questions' words ("holiday", "leave"), the plain one does not.
    expect(await keywordTerms(withQuestions)).toEqual(expect.arrayContaining(['holiday', 'leav']));
    expect(await keywordTerms(without)).not.toEqual(expect.arrayContaining(['holiday']));
    const on = await best(withQuestions, QUESTION);
    const off = await best(without, QUESTION);
    expect(on.content).toBe(PASSAGE);
    expect(on.cosine).toBeGreaterThan(off.cosine + 0.2);
    expect(on.score).toBeGreaterThan(off.score);
    console.info(
      `synthetic questions: "${QUESTION}" cosine ${off.cosine.toFixed(3)} → ${on.cosine.toFixed(3)}, ` +
        `keyword ${off.keyword.toFixed(3)} → ${on.keyword.toFixed(3)}, score ${off.score.toFixed(3)} → ${on.score.toFixed(3)}`,
    );
  });

  it('keeps the document ready when the LLM fails, and records why', async () => {
    const caller = await createUser(ctx.container);
    const base = await createBase(caller, { enabled: true });
    // The first try and the client's four retries of the one questions call all answer 500.
    fake.failNext(500, 500, 500, 500, 500);
    const doc = await ingest(caller, base);
    expect(doc.status).toBe('ready');
    expect(fake.requestsTo('/v1/chat/completions')).toHaveLength(5);
    expect(doc.metadata.ingestion?.syntheticQuestions).toMatchObject({
      status: 'failed',
      perChunk: 3,
      chunksWithQuestions: 0,
      questionCount: 0,
    });
    expect(String(doc.metadata.ingestion?.syntheticQuestions?.error)).toContain('500');
    expect(await storedQuestions(doc.id)).toEqual([null]);
    // Indexed all the same, on its content.
    expect(fake.requestsTo('/v1/embeddings')[0]!.body.input).toEqual([PASSAGE]);
  });
});
