import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace } from '../../../test/factories.js';
import { intentExamples, intentTrust } from '../../core/db/schema/index.js';
import { createLocalEmbedder } from '../../core/llm/local-embedder.js';
import { describeSummary, parseSeedFile, SeedFileError } from './intent-seeding.js';
import { createIntentsModule } from './intents.module.js';

const EXAMPLE_FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../examples/intents.json',
);
const exampleJson = () => JSON.parse(readFileSync(EXAMPLE_FILE, 'utf8')) as { namespace: string };

describe('parseSeedFile', () => {
  it('reads one block or a list, trimming names and phrases and dropping repeats', () => {
    const one = { namespace: ' HR ', intents: { ' greet ': [' hi ', 'hi', 'hello'] } };
    expect(parseSeedFile(one)).toEqual([
      { namespace: 'HR', intents: [{ intentName: 'greet', phrases: ['hi', 'hello'] }] },
    ]);
    expect(parseSeedFile([one, { namespace: 'IT', intents: { a: [] } }])).toHaveLength(2);
  });

  it('lists every problem with its place', () => {
    const bad = [
      { namespace: '', intents: { greet: ['hi', 7, '  '], unknown: ['x'], ['n'.repeat(101)]: ['y'] } },
      { namespace: 'HR', intents: { a: ['same'], b: ['same'], c: 'not a list' } },
      'text',
      { namespace: 'HR', intents: {} },
    ];
    let problems: string[] = [];
    try {
      parseSeedFile(bad);
    } catch (error) {
      expect(error).toBeInstanceOf(SeedFileError);
      problems = (error as SeedFileError).problems;
    }
    expect(problems).toEqual([
      '[0].namespace: must be a namespace id or name',
      '[0].intents["greet"][1]: must be a string',
      '[0].intents["greet"][2]: must not be blank',
      '[0].intents["unknown"]: the intent name "unknown" is reserved for messages that match no intent',
      `[0].intents["${'n'.repeat(101)}"]: the intent name must be at most 100 characters after trimming`,
      '[1].intents["b"][0]: "same" is also a phrase of intent "a"',
      '[1].intents["c"]: must be a list of phrases',
      '[2]: must be an object with "namespace" and "intents"',
      '[3].intents: must be an object of intent names to lists of phrases',
    ]);
    expect(() => parseSeedFile([])).toThrow(SeedFileError);
  });

  it('accepts the committed example file: at least 3 intents of about 20 phrases in en, uk and ru', () => {
    const [block] = parseSeedFile(exampleJson());
    expect(block!.intents.length).toBeGreaterThanOrEqual(3);
    for (const intent of block!.intents) {
      expect(intent.phrases.length).toBeGreaterThanOrEqual(20);
      expect(intent.phrases.some((p) => /[іїєґ]/i.test(p))).toBe(true);
      expect(intent.phrases.some((p) => /[ыэъё]/i.test(p))).toBe(true);
      expect(intent.phrases.some((p) => /^[\x20-\x7e]+$/.test(p))).toBe(true);
    }
  });
});

describe('seeding', () => {
  const ctx = useTestApp();

  it('loads the committed example file, embedding 32 phrases per provider call, then skips what is stored', async () => {
    const department = await createDepartment(ctx.container);
    const json = exampleJson();
    const namespace = await createNamespace(ctx.container, {
      departmentId: department.id,
      name: json.namespace,
    });
    const blocks = parseSeedFile(json);
    const total = blocks[0]!.intents.reduce((sum, i) => sum + i.phrases.length, 0);

    // The module built on the test database with a real local embedder whose calls are counted.
    const batches: number[] = [];
    const embedder = createLocalEmbedder(ctx.container.config.embeddingDimensions);
    const intents = createIntentsModule({
      db: ctx.container.db,
      embeddings: {
        name: embedder.name,
        dimensions: embedder.dimensions,
        async embed(texts) {
          batches.push(texts.length);
          return embedder.embed(texts);
        },
      },
    });
    const lines: string[] = [];
    const summary = await intents.seeder.seed(blocks, (line) => lines.push(line));
    expect(summary).toEqual({
      namespaces: 1,
      intents: blocks[0]!.intents.length,
      added: total,
      skipped: 0,
      conflicts: [],
      underAdvised: [],
    });
    expect(batches.every((size) => size <= 32)).toBe(true);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(total);
    expect(batches.filter((size) => size === 32)).toHaveLength(Math.floor(total / 32));
    expect(lines[0]).toContain(`${total} phrases, ${total} new`);
    expect(lines.at(-1)).toBe(`  embedded and stored ${total}/${total}`);

    const stored = await ctx.container.db
      .select()
      .from(intentExamples)
      .where(eq(intentExamples.namespaceId, namespace.id));
    expect(stored).toHaveLength(total);
    expect(stored.every((row) => row.embedding !== null)).toBe(true);
    const trust = await ctx.container.db
      .select()
      .from(intentTrust)
      .where(eq(intentTrust.namespaceId, namespace.id));
    expect(trust.map((t) => t.intentName).sort()).toEqual(blocks[0]!.intents.map((i) => i.intentName).sort());

    const again = await ctx.container.intents.seeder.seed(blocks);
    expect(again).toMatchObject({ added: 0, skipped: total, conflicts: [] });
    expect(batches.reduce((a, b) => a + b, 0)).toBe(total);

    // The seeded namespace classifies a paraphrase of each intent.
    const classify = (text: string) => ctx.container.intents.classifier.classify(namespace.id, text);
    expect((await classify('Як оформити лікарняний лист?')).intent).toBe('sick_leave');
    expect((await classify('Where can I download my payslip for May?')).intent).toBe('payslip_question');
  });

  it('reports phrases stored for another intent and intents under 20 phrases, by namespace id', async () => {
    const department = await createDepartment(ctx.container);
    const namespace = await createNamespace(ctx.container, { departmentId: department.id });
    await ctx.container.intents.service.storeExamples(namespace.id, [
      { intentName: 'greet', exampleText: 'hello' },
      { intentName: 'greet', exampleText: 'howdy' },
    ]);
    const summary = await ctx.container.intents.seeder.seed(
      parseSeedFile({ namespace: namespace.id, intents: { greet: ['hello', 'hi'], wave: ['howdy', 'bye'] } }),
    );
    expect(summary).toMatchObject({
      added: 2,
      skipped: 1,
      conflicts: [{ namespaceId: namespace.id, intentName: 'wave', phrase: 'howdy', storedAs: 'greet' }],
      underAdvised: [
        { namespaceId: namespace.id, intentName: 'greet', phrases: 3 },
        { namespaceId: namespace.id, intentName: 'wave', phrases: 1 },
      ],
    });
    expect(describeSummary(summary)).toEqual([
      'done: 2 phrases added, 1 already stored, 2 intents in 1 namespace(s)',
      '  kept: "howdy" is already an example of "greet", not "wave"',
      '2 intent(s) have fewer than the 20 phrases advised',
      '  greet: 3',
      '  wave: 1',
    ]);
  });

  it('refuses a missing or ambiguous namespace before storing anything', async () => {
    const department = await createDepartment(ctx.container);
    const good = await createNamespace(ctx.container, { departmentId: department.id });
    await createNamespace(ctx.container, { departmentId: department.id, name: 'Twice' });
    await createNamespace(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
      name: 'Twice',
    });
    const first = { namespace: good.id, intents: { greet: ['hello'] } };
    await expect(
      ctx.container.intents.seeder.seed(
        parseSeedFile([first, { namespace: 'Nowhere', intents: { a: ['x'] } }]),
      ),
    ).rejects.toThrow('No namespace has the id or name "Nowhere"');
    await expect(
      ctx.container.intents.seeder.seed(
        parseSeedFile([first, { namespace: 'Twice', intents: { a: ['x'] } }]),
      ),
    ).rejects.toThrow('2 namespaces are named "Twice"');
    expect(
      await ctx.container.db.select().from(intentExamples).where(eq(intentExamples.namespaceId, good.id)),
    ).toEqual([]);
  });
});
