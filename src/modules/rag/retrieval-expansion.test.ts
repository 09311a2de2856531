import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createKnowledgeFixture } from '../../../test/factories.js';
import { ANSWER_LINE } from './retrieval.js';

const ctx = useTestApp();

/** A Russian leave passage among English passages on other topics. */
async function mixedBase() {
  const department = await createDepartment(ctx.container);
  const fixture = await createKnowledgeFixture(ctx.container, {
    departmentId: department.id,
    documents: [
      { title: 'Отпуск', chunks: ['Ежегодный отпуск составляет 28 календарных дней в год.'] },
      { title: 'Parking', chunks: ['Parking permits for the garage renew every January at the front desk.'] },
      { title: 'Canteen', chunks: ['The canteen serves lunch from noon until two, Monday to Friday.'] },
    ],
  });
  return fixture.knowledgeBase.id;
}

describe('retrieval: query expansion as a second chance', () => {
  it('finds a passage written in another language through the concept names, over the line', async () => {
    const knowledgeBaseId = await mixedBase();
    const found = await ctx.container.rag.retrieval.search({
      text: 'How many vacation days do I get a year?',
      knowledgeBaseIds: [knowledgeBaseId],
    });
    const leave = found.hits.find((h) => h.title === 'Отпуск');
    expect(leave?.confidence).toBeGreaterThanOrEqual(ANSWER_LINE);
    expect(found.confidence).toBeGreaterThanOrEqual(ANSWER_LINE);
    expect(found.confidence).toBe(Math.max(...found.hits.slice(0, 3).map((h) => h.confidence)));
  });

  it('keeps the message’s own search when the expanded one does not clear the line', async () => {
    const knowledgeBaseId = await mixedBase();
    const found = await ctx.container.rag.retrieval.search({
      text: 'Is there a company car scheme?',
      knowledgeBaseIds: [knowledgeBaseId],
    });
    expect(found.confidence).toBeLessThan(ANSWER_LINE);
    for (const hit of found.hits) expect(hit.confidence).toBeLessThan(ANSWER_LINE);
  });
});
