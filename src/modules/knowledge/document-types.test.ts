import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createKnowledgeBase, createUser, type TestUser } from '../../../test/factories.js';
import { multipartBody } from '../../../test/files.js';

const ctx = useTestApp({}, { workers: true });

interface DocumentBody {
  id: string;
  type: string;
  status: string;
  metadata: { error?: string; ingestion?: Record<string, unknown> };
  chunks: Array<{ content: string }>;
}

async function upload(filename: string, text: string): Promise<{ caller: TestUser; doc: DocumentBody }> {
  const caller = await createUser(ctx.container);
  const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
  const { body, contentType } = multipartBody({
    knowledgeBaseId: base.id,
    file: { filename, content: Buffer.from(text), contentType: 'text/plain' },
  });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/knowledge/upload',
    headers: { ...caller.headers, 'content-type': contentType },
    payload: body,
  });
  expect(res.statusCode).toBe(201);
  return { caller, doc: res.json() };
}

/** Polls the document until its run ends. */
async function settled(caller: TestUser, id: string): Promise<DocumentBody> {
  let doc: DocumentBody | undefined;
  await expect
    .poll(
      async () => {
        const res = await ctx.app.inject({
          url: `/api/v1/knowledge/documents/${id}`,
          headers: caller.headers,
        });
        doc = res.json();
        return doc!.status;
      },
      { timeout: 25_000, interval: 200 },
    )
    .toMatch(/^(ready|failed)$/);
  return doc!;
}

describe('text files whose first bytes look like another format', () => {
  it.each([
    ['BMP', 'bm.txt', 'txt', 'BM stands for Business Manager. Ask the BM team about budgets.'],
    ['QuickTime', 'free.txt', 'txt', 'Set free the birds, then write down where they flew.'],
    ['BMP', 'bm.md', 'md', 'BM handbook: budgets are approved by the business manager.'],
  ])(
    'ingests a UTF-8 %s look-alike named %s as %s, to ready with its text',
    async (_sig, name, type, text) => {
      const { caller, doc } = await upload(name, text);
      expect(doc.type).toBe(type);
      const done = await settled(caller, doc.id);
      expect(done.metadata.error).toBeUndefined();
      expect(done.status).toBe('ready');
      expect(done.chunks.map((c) => c.content).join(' ')).toContain(text);
    },
  );
});
