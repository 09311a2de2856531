import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createKnowledgeBase, createUser, type TestUser } from '../../../test/factories.js';
import { multipartBody } from '../../../test/files.js';

const ctx = useTestApp({}, { workers: true });

/** A small handbook: each section answers one thing, in its own words. */
const HANDBOOK = `# Northwind Staff Handbook

## Working time

The standard working week is 40 hours, Monday to Friday. Core hours are 10:00 to 16:00; outside them you plan your day with your team.

## Annual leave

Full-time staff receive 26 working days of paid annual leave per holiday year, plus public holidays. Up to five unused days may be carried into the next year with your manager's approval.

## Pay

Salaries are paid on the last working day of each month by bank transfer. Payslips are published in the HR portal two days earlier.

## Equipment

Every new colleague gets a laptop on the first day. Laptops are replaced every three years, or sooner when one breaks.
`;

interface DraftBody {
  answer: string;
  confidence: number;
  sources: Array<{ chunkId: string; title: string; score: number; confidence: number }>;
}

async function handbookDepartment(): Promise<{ caller: TestUser; departmentId: string }> {
  const caller = await createUser(ctx.container, { role: 'dept_head' });
  const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
  const { body, contentType } = multipartBody({
    knowledgeBaseId: base.id,
    title: 'Northwind Staff Handbook',
    file: { filename: 'handbook.md', content: Buffer.from(HANDBOOK) },
  });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/knowledge/upload',
    headers: { ...caller.headers, 'content-type': contentType },
    payload: body,
  });
  expect(res.statusCode).toBe(201);
  const id = res.json().id as string;
  await expect
    .poll(
      async () =>
        (await ctx.app.inject({ url: `/api/v1/knowledge/documents/${id}`, headers: caller.headers })).json()
          .status,
      { timeout: 25_000, interval: 100 },
    )
    .toBe('ready');
  return { caller, departmentId: caller.user.departmentId };
}

async function draft(caller: TestUser, departmentId: string, text: string): Promise<DraftBody> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/rag/draft',
    headers: caller.headers,
    payload: { departmentId, text },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as DraftBody;
}

describe('POST /rag/draft offline: answers that find the fact', () => {
  it('answers a paraphrased question with the sentence holding the fact and cites its section', async () => {
    const { caller, departmentId } = await handbookDepartment();
    const body = await draft(caller, departmentId, 'How many vacation days do I get a year?');
    expect(body.confidence).toBeGreaterThanOrEqual(0.7);
    const [quote, sources] = body.answer.split('\n\n');
    expect(quote).toContain('26 working days of paid annual leave');
    // Only the sentence that answers: not the rest of the section, not another section.
    expect(quote).not.toContain('Salaries');
    expect(quote).not.toContain('laptop');
    expect(quote).not.toMatch(/^Annual leave/);
    expect(sources).toBe('Sources: Northwind Staff Handbook › Annual leave');
    expect(body.confidence).toBe(Math.max(...body.sources.slice(0, 3).map((s) => s.confidence)));
  });

  it('answers Ukrainian written without і, ї, є or ґ in Ukrainian, from the English handbook', async () => {
    const { caller, departmentId } = await handbookDepartment();
    const body = await draft(caller, departmentId, 'коли виплачують зарплату?');
    expect(body.confidence).toBeGreaterThanOrEqual(0.7);
    expect(body.answer).toContain('Salaries are paid on the last working day of each month');
    expect(body.answer).toContain('Джерела: Northwind Staff Handbook › Pay');
  });

  it('keeps a question the handbook does not answer under the line, with the fallback', async () => {
    const { caller, departmentId } = await handbookDepartment();
    const body = await draft(caller, departmentId, 'Is there a company car scheme?');
    expect(body.confidence).toBeLessThan(0.7);
    expect(body.answer).toMatch(/^I could not find a good answer/);
  });
});
