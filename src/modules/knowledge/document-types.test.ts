import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createKnowledgeBase, createUser, type TestUser } from '../../../test/factories.js';
import { uploadKnowledgeFile, waitForDocumentRun } from '../../../test/knowledge-documents.js';

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
  const doc = await uploadKnowledgeFile<DocumentBody>(ctx.app, caller, {
    knowledgeBaseId: base.id,
    filename,
    content: Buffer.from(text),
    contentType: 'text/plain',
  });
  return { caller, doc };
}

/** Polls the document until its run ends. */
const settled = (caller: TestUser, id: string) => waitForDocumentRun<DocumentBody>(ctx.app, caller, id);

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
