import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createNamespace } from '../../../test/factories.js';
import { systemActor } from '../../core/auth/actor.js';
import { exampleMarksFor } from './example-marks.js';
import { createIntentClassifier } from './intent-classifier.js';

const ctx = useTestApp();

const setUp = async () => {
  const department = await createDepartment(ctx.container);
  const namespace = await createNamespace(ctx.container, { departmentId: department.id });
  const { intents, llm } = ctx.container;
  await intents.service.storeExamples(namespace.id, [
    { intentName: 'password', exampleText: 'I forgot my password' },
    { intentName: 'password', exampleText: 'please reset my email password' },
  ]);
  // A second classifier on the same database and marks: another worker process with a cache of its own.
  const other = createIntentClassifier({
    examples: intents.repositories.examples,
    embeddings: llm.embeddings,
    marks: exampleMarksFor(ctx.container.db, ctx.container.database.driver, ctx.container.kv),
  });
  return { namespace, intents, other };
};

describe('intent classifier with examples kept in memory', () => {
  it('keeps the vectors of a namespace on both drivers of the test suite', () => {
    // Embedded: memory marks; PostgreSQL in the suite always runs with Redis: key-value marks.
    expect(exampleMarksFor(ctx.container.db, ctx.container.database.driver, ctx.container.kv).kind).toBe(
      ctx.container.config.redisUrl ? 'key-value' : 'memory',
    );
  });

  it('sees an example added after its copy was loaded, in this and another process, at the next call', async () => {
    const { namespace, intents, other } = await setUp();
    const phrase = 'how many vacation days do I have left this year';
    // Both copies load now, before the new intent exists.
    expect((await intents.classifier.classify(namespace.id, phrase)).intent).not.toBe('vacation');
    expect((await other.classify(namespace.id, phrase)).intent).not.toBe('vacation');

    await intents.service.storeExamples(namespace.id, [{ intentName: 'vacation', exampleText: phrase }]);
    expect((await intents.classifier.classify(namespace.id, phrase)).intent).toBe('vacation');
    expect((await other.classify(namespace.id, phrase)).intent).toBe('vacation');
  });

  it('stops answering a deleted example at the next call', async () => {
    const { namespace, intents, other } = await setUp();
    const phrase = 'I want to order a new laptop';
    const [added] = await intents.service.storeExamples(namespace.id, [
      { intentName: 'equipment', exampleText: phrase },
    ]);
    expect((await other.classify(namespace.id, phrase)).intent).toBe('equipment');
    expect((await intents.classifier.classify(namespace.id, phrase)).intent).toBe('equipment');

    await intents.service.deleteExample(systemActor(['canManageNamespaces']), added!.id);
    expect((await intents.classifier.classify(namespace.id, phrase)).intent).not.toBe('equipment');
    expect((await other.classify(namespace.id, phrase)).intent).not.toBe('equipment');
  });

  it('without marks (PostgreSQL without Redis), sees a change at the next call through the example set digest', async () => {
    const { namespace, intents } = await setUp();
    const unmarked = createIntentClassifier({
      examples: intents.repositories.examples,
      embeddings: ctx.container.llm.embeddings,
    });
    const phrase = 'my monitor is broken';
    expect((await unmarked.classify(namespace.id, phrase)).intent).not.toBe('equipment');
    const [added] = await intents.service.storeExamples(namespace.id, [
      { intentName: 'equipment', exampleText: phrase },
    ]);
    expect((await unmarked.classify(namespace.id, phrase)).intent).toBe('equipment');
    await intents.service.deleteExample(systemActor(['canManageNamespaces']), added!.id);
    expect((await unmarked.classify(namespace.id, phrase)).intent).not.toBe('equipment');
  });

  it('answers what a classifier without marks answers', async () => {
    const { namespace, intents } = await setUp();
    await intents.service.storeExamples(namespace.id, [
      { intentName: 'vacation', exampleText: 'I want to take a vacation next month' },
      { intentName: 'vacation', exampleText: 'how do I book days off' },
      { intentName: 'salary', exampleText: 'when is the salary paid this month' },
    ]);
    const uncached = createIntentClassifier({
      examples: intents.repositories.examples,
      embeddings: ctx.container.llm.embeddings,
    });
    for (const text of ['I forgot my email password', 'vacation next month', 'salary this month', 'hello']) {
      const [cached, searched] = await Promise.all([
        intents.classifier.classify(namespace.id, text),
        uncached.classify(namespace.id, text),
      ]);
      expect(cached.intent).toBe(searched.intent);
      expect(cached.confidence).toBeCloseTo(searched.confidence, 3);
    }
  });
});
