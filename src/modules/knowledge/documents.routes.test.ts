import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import {
  createDepartment,
  createDocumentRow,
  createKnowledgeBase,
  createUser,
  type TestUser,
} from '../../../test/factories.js';
import { chunked, cutBody, multipartBody, tinyPng } from '../../../test/files.js';
import { docx, textPdf, zip } from '../../../test/fixtures/documents.js';
import { securityChecks } from '../../../test/security.js';
import { auditLogs, chunks, documents } from '../../core/db/schema/index.js';
import { ingestJobId } from './document-metadata.js';

const UPLOAD_MAX_BYTES = 64 * 1024;

// No workers: uploaded documents stay pending, which is what these endpoint tests look at.
const ctx = useTestApp({ UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) });

const MISSING = '00000000-0000-4000-8000-000000000000';

async function otherDocument() {
  const departmentId = (await createDepartment(ctx.container)).id;
  const base = await createKnowledgeBase(ctx.container, { departmentId });
  return createDocumentRow(ctx.container, { knowledgeBaseId: base.id, departmentId });
}
const otherDocumentUrl =
  (suffix = '') =>
  async () =>
    `/api/v1/knowledge/documents/${(await otherDocument()).id}${suffix}`;

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/knowledge/documents' });
securityChecks(() => ctx, { method: 'POST', url: '/api/v1/knowledge/upload' });
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/knowledge/documents',
  payload: { knowledgeBaseId: MISSING, title: 'Page', type: 'url', originalUrl: 'https://example.com/' },
});
securityChecks(() => ctx, {
  method: 'GET',
  url: `/api/v1/knowledge/documents/${MISSING}`,
  otherDepartmentUrl: otherDocumentUrl(),
});
securityChecks(() => ctx, {
  method: 'PATCH',
  url: `/api/v1/knowledge/documents/${MISSING}`,
  payload: { title: 'Renamed' },
  otherDepartmentUrl: otherDocumentUrl(),
});
securityChecks(() => ctx, {
  method: 'POST',
  url: `/api/v1/knowledge/documents/${MISSING}/reprocess`,
  otherDepartmentUrl: otherDocumentUrl('/reprocess'),
});
securityChecks(() => ctx, {
  method: 'DELETE',
  url: `/api/v1/knowledge/documents/${MISSING}`,
  permission: 'canDeleteDocuments',
  otherDepartmentUrl: otherDocumentUrl(),
});

const call = (caller: TestUser, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  ctx.app.inject({ method, url: `/api/v1${url}`, headers: caller.headers, ...(payload ? { payload } : {}) });

const upload = (caller: TestUser, parts: Parameters<typeof multipartBody>[0]) => {
  const { body, contentType } = multipartBody(parts);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/knowledge/upload',
    headers: { ...caller.headers, 'content-type': contentType },
    payload: body,
  });
};

const storedFiles = () => {
  const dir = path.join(ctx.dataDir, 'documents');
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith('.')) : [];
};
const incomingFiles = () => {
  const dir = path.join(ctx.dataDir, 'documents', '.incoming');
  return existsSync(dir) ? readdirSync(dir) : [];
};

async function callerWithBase(role = 'employee') {
  const caller = await createUser(ctx.container, { role });
  const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
  return { caller, base };
}

describe('POST /knowledge/upload', () => {
  it.each([
    ['notes.txt', Buffer.from('Plain text notes.\n'), 'txt', 'text/plain'],
    ['guide.md', Buffer.from('# Guide\n\nSome text.\n'), 'md', 'text/markdown'],
    ['report.pdf', textPdf(['Hello PDF']), 'pdf', 'application/pdf'],
    [
      'letter.docx',
      docx([{ text: 'Hello DOCX' }]),
      'docx',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ],
    ['scan.png', tinyPng(), 'png', 'image/png'],
  ])(
    'stores %s as a pending %s document and queues its ingestion',
    async (filename, content, type, mimeType) => {
      const { caller, base } = await callerWithBase();
      const res = await upload(caller, {
        knowledgeBaseId: base.id,
        title: 'My doc',
        file: { filename, content },
      });
      expect(res.statusCode).toBe(201);
      const doc = res.json();
      expect(doc).toMatchObject({
        knowledgeBaseId: base.id,
        departmentId: base.departmentId,
        title: 'My doc',
        type,
        mimeType,
        sizeBytes: content.length,
        status: 'pending',
        originalUrl: null,
        uploadedById: caller.user.id,
        metadata: { fileName: filename, ingestion: { run: 1 } },
      });
      expect(storedFiles()).toContain(`${doc.id}.${type}`);
      const job = await ctx.container.queue.getJob('knowledge-ingest', ingestJobId(doc.id, 1));
      expect(job?.data).toEqual({ documentId: doc.id });
    },
  );

  it('decides binary types by content whatever the name, and takes the title from the file name when none is sent', async () => {
    const { caller, base } = await callerWithBase();
    const res = await upload(caller, {
      file: { filename: 'Quarterly report.txt', content: textPdf(['x']) },
      knowledgeBaseId: base.id,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type: 'pdf', title: 'Quarterly report' });
  });

  it.each([
    ['a GIF', 'fake.png', Buffer.from('GIF89a not really an image')],
    ['a ZIP that is not a DOCX', 'archive.docx', zip({ 'readme.txt': 'hello' })],
    ['text under a binary name', 'report.pdf', Buffer.from('just text')],
    ['text under another extension', 'data.csv', Buffer.from('a,b\n1,2\n')],
    ['binary bytes named .txt', 'notes.txt', Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe])],
  ])('answers 415 for %s and keeps no file', async (_label, filename, content) => {
    const { caller, base } = await callerWithBase();
    const before = storedFiles().length;
    const res = await upload(caller, { knowledgeBaseId: base.id, title: 'X', file: { filename, content } });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('UnsupportedMediaTypeError');
    expect(storedFiles().length).toBe(before);
    expect(incomingFiles()).toEqual([]);
  });

  it('answers 413 for an over-limit file every time, storing nothing and auditing nothing', async () => {
    const { caller, base } = await callerWithBase();
    const before = storedFiles().length;
    const { body, contentType } = multipartBody({
      knowledgeBaseId: base.id,
      title: 'Big',
      file: { filename: 'big.txt', content: Buffer.alloc(UPLOAD_MAX_BYTES * 2, 'a') },
    });
    // Half the tries arrive with a chunk ending exactly at the limit, where the size error used to be lost.
    const atLimit = body.indexOf('aaaa') + UPLOAD_MAX_BYTES;
    for (let attempt = 0; attempt < 20; attempt++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/knowledge/upload',
        headers: { ...caller.headers, 'content-type': contentType },
        payload: attempt % 2 === 0 ? body : chunked(body, [atLimit]),
      });
      expect(res.statusCode, `attempt ${attempt + 1}`).toBe(413);
      expect(res.json()).toEqual({
        error: 'PayloadTooLargeError',
        message: `The file is larger than the upload limit of ${UPLOAD_MAX_BYTES} bytes`,
        statusCode: 413,
      });
    }
    expect(storedFiles().length).toBe(before);
    expect(incomingFiles()).toEqual([]);
    expect(
      await ctx.container.db.select().from(documents).where(eq(documents.knowledgeBaseId, base.id)),
    ).toEqual([]);
    expect(
      await ctx.container.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.userId, caller.user.id), eq(auditLogs.entityType, 'documents'))),
    ).toEqual([]);
  });

  it('takes a file of exactly UPLOAD_MAX_BYTES and refuses one byte more', async () => {
    const { caller, base } = await callerWithBase();
    const over = await upload(caller, {
      knowledgeBaseId: base.id,
      file: { filename: 'over.txt', content: Buffer.alloc(UPLOAD_MAX_BYTES + 1, 'a') },
    });
    expect(over.statusCode).toBe(413);
    const exact = await upload(caller, {
      knowledgeBaseId: base.id,
      file: { filename: 'exact.txt', content: Buffer.alloc(UPLOAD_MAX_BYTES, 'a') },
    });
    expect(exact.statusCode).toBe(201);
    expect(exact.json()).toMatchObject({ type: 'txt', sizeBytes: UPLOAD_MAX_BYTES });
  });

  it.each([
    ['starts with "BM" (a BMP signature)', 'bm.txt', 'BM stands for Business Manager.\n', 'txt'],
    ['matches the QuickTime signature', 'free.txt', 'Set free the birds, then write it down.\n', 'txt'],
    ['is Markdown starting with "BM"', 'bm.md', 'BM notes\n\n- one\n', 'md'],
  ])('stores a UTF-8 text file that %s as text', async (_label, filename, text, type) => {
    const { caller, base } = await callerWithBase();
    const res = await upload(caller, {
      knowledgeBaseId: base.id,
      file: { filename, content: Buffer.from(text) },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type, sizeBytes: Buffer.byteLength(text) });
  });

  describe('answers 400 for a malformed multipart body and stores nothing', () => {
    const form = (knowledgeBaseId: string) =>
      multipartBody({
        file: { filename: 'notes.txt', content: Buffer.from('Plain text notes.\n') },
        knowledgeBaseId,
        title: 'Notes',
      });

    it.each([
      ['without a boundary', (id: string) => ({ contentType: 'multipart/form-data', body: form(id).body })],
      [
        'cut in the middle of the file',
        (id: string) => {
          const { body, contentType } = form(id);
          return { contentType, body: cutBody(body, 'Plain text', 5) };
        },
      ],
      [
        'cut after the file, in a text field',
        (id: string) => {
          const { body, contentType } = form(id);
          return { contentType, body: cutBody(body, 'name="title"', 4) };
        },
      ],
    ])('%s', async (_label, make) => {
      const { caller, base } = await callerWithBase();
      const before = storedFiles().length;
      const { body, contentType } = make(base.id);
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/knowledge/upload',
        headers: { ...caller.headers, 'content-type': contentType },
        payload: body,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'BadRequestError',
        message: expect.stringMatching(/multipart/i),
        statusCode: 400,
      });
      expect(storedFiles().length).toBe(before);
      expect(incomingFiles()).toEqual([]);
      expect(
        await ctx.container.db.select().from(documents).where(eq(documents.knowledgeBaseId, base.id)),
      ).toEqual([]);
    });
  });

  it('answers 413 over UPLOAD_MAX_BYTES and keeps nothing', async () => {
    const { caller, base } = await callerWithBase();
    const res = await upload(caller, {
      knowledgeBaseId: base.id,
      title: 'Big',
      file: { filename: 'big.txt', content: Buffer.alloc(UPLOAD_MAX_BYTES + 1, 'a') },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('PayloadTooLargeError');
    expect(incomingFiles()).toEqual([]);
    const rows = await ctx.container.db
      .select()
      .from(documents)
      .where(eq(documents.knowledgeBaseId, base.id));
    expect(rows).toEqual([]);
  });

  it('answers 422 without a file or with a malformed knowledge base id, 415 for a JSON body', async () => {
    const { caller, base } = await callerWithBase();
    const noFile = await upload(caller, { knowledgeBaseId: base.id, title: 'X' });
    expect(noFile.statusCode).toBe(422);
    expect(noFile.json().details).toEqual([{ field: 'body.file', message: 'a file is required' }]);
    const badId = await upload(caller, {
      knowledgeBaseId: 'nope',
      file: { filename: 'a.txt', content: Buffer.from('a') },
    });
    expect(badId.statusCode).toBe(422);
    expect(badId.json().details[0].field).toBe('body.knowledgeBaseId');
    const json = await call(caller, 'POST', '/knowledge/upload', { knowledgeBaseId: base.id });
    expect(json.statusCode).toBe(415);
    expect(incomingFiles()).toEqual([]);
  });

  it('answers 404 for a knowledge base of another department', async () => {
    const caller = await createUser(ctx.container);
    const other = await createKnowledgeBase(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    const res = await upload(caller, {
      knowledgeBaseId: other.id,
      file: { filename: 'a.txt', content: Buffer.from('a') },
    });
    expect(res.statusCode).toBe(404);
    expect(incomingFiles()).toEqual([]);
  });
});

describe('POST /knowledge/documents (URL)', () => {
  it('creates a pending url document and queues it', async () => {
    const { caller, base } = await callerWithBase();
    const res = await call(caller, 'POST', '/knowledge/documents', {
      knowledgeBaseId: base.id,
      title: 'Remote work',
      type: 'url',
      originalUrl: 'https://intranet.example.com/remote-work',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      type: 'url',
      status: 'pending',
      originalUrl: 'https://intranet.example.com/remote-work',
      mimeType: null,
      sizeBytes: null,
    });
    expect(
      await ctx.container.queue.getJob('knowledge-ingest', ingestJobId(res.json().id, 1)),
    ).not.toBeNull();
  });

  it.each([
    ['a non-http scheme', { originalUrl: 'ftp://example.com/file' }],
    ['a type other than url', { type: 'pdf' }],
    ['no title', { title: undefined }],
    ['an over-long URL', { originalUrl: `https://example.com/${'a'.repeat(2100)}` }],
  ])('answers 422 for %s', async (_label, change) => {
    const { caller, base } = await callerWithBase();
    const body = {
      knowledgeBaseId: base.id,
      title: 'Page',
      type: 'url',
      originalUrl: 'https://example.com/',
      ...change,
    };
    const res = await call(caller, 'POST', '/knowledge/documents', body);
    expect(res.statusCode).toBe(422);
  });

  it('answers 404 for a knowledge base outside the caller’s departments', async () => {
    const caller = await createUser(ctx.container);
    const other = await createKnowledgeBase(ctx.container, {
      departmentId: (await createDepartment(ctx.container)).id,
    });
    const res = await call(caller, 'POST', '/knowledge/documents', {
      knowledgeBaseId: other.id,
      title: 'Page',
      type: 'url',
      originalUrl: 'https://example.com/',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /knowledge/documents', () => {
  it('lists the caller’s documents with filters and paging, never another department’s', async () => {
    const { caller, base } = await callerWithBase();
    const second = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
    const ready = await createDocumentRow(ctx.container, {
      knowledgeBaseId: base.id,
      departmentId: base.departmentId,
    });
    const failed = await createDocumentRow(ctx.container, {
      knowledgeBaseId: base.id,
      departmentId: base.departmentId,
      status: 'failed',
      type: 'url',
    });
    const elsewhere = await createDocumentRow(ctx.container, {
      knowledgeBaseId: second.id,
      departmentId: second.departmentId,
    });
    await otherDocument();

    const all = (await call(caller, 'GET', '/knowledge/documents')).json();
    expect(all.total).toBe(3);
    expect(all.items.map((d: { id: string }) => d.id).sort()).toEqual(
      [ready.id, failed.id, elsewhere.id].sort(),
    );

    const byBase = (await call(caller, 'GET', `/knowledge/documents?knowledgeBaseId=${base.id}`)).json();
    expect(byBase.items.map((d: { id: string }) => d.id).sort()).toEqual([ready.id, failed.id].sort());
    const byStatus = (await call(caller, 'GET', '/knowledge/documents?status=failed')).json();
    expect(byStatus.items.map((d: { id: string }) => d.id)).toEqual([failed.id]);
    const byType = (await call(caller, 'GET', '/knowledge/documents?type=txt&limit=1&offset=1')).json();
    expect(byType).toMatchObject({ total: 2, limit: 1, offset: 1 });
  });

  it('answers 403 for a department filter outside, 404 for another department’s base, 422 for bad filters', async () => {
    const caller = await createUser(ctx.container);
    const outside = await createDepartment(ctx.container);
    expect((await call(caller, 'GET', `/knowledge/documents?departmentId=${outside.id}`)).statusCode).toBe(
      403,
    );
    const otherBase = await createKnowledgeBase(ctx.container, { departmentId: outside.id });
    expect(
      (await call(caller, 'GET', `/knowledge/documents?knowledgeBaseId=${otherBase.id}`)).statusCode,
    ).toBe(404);
    expect((await call(caller, 'GET', '/knowledge/documents?status=done')).statusCode).toBe(422);
    expect((await call(caller, 'GET', '/knowledge/documents?type=exe')).statusCode).toBe(422);
    expect((await call(caller, 'GET', '/knowledge/documents?limit=500')).statusCode).toBe(422);
  });
});

describe('GET /knowledge/documents/:id', () => {
  it('answers the document with its chunks in order, paged, for holders of canViewKnowledge', async () => {
    const { caller, base } = await callerWithBase();
    const doc = await createDocumentRow(ctx.container, {
      knowledgeBaseId: base.id,
      departmentId: base.departmentId,
    });
    await ctx.container.db.insert(chunks).values(
      [2, 0, 1].map((i) => ({
        documentId: doc.id,
        knowledgeBaseId: base.id,
        chunkIndex: i,
        content: `chunk ${i}`,
        tokenCount: 2,
        metadata: { headingPath: ['H'] },
      })),
    );
    const res = await call(caller, 'GET', `/knowledge/documents/${doc.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: doc.id,
      chunkCount: 3,
      heldBackChunkCount: 0,
      heldBackChunks: [],
    });
    expect(res.json().chunks.map((c: { content: string }) => c.content)).toEqual([
      'chunk 0',
      'chunk 1',
      'chunk 2',
    ]);
    expect(res.json().chunks[0]).toEqual({
      id: expect.any(String),
      chunkIndex: 0,
      content: 'chunk 0',
      tokenCount: 2,
      metadata: { headingPath: ['H'] },
      heldBack: false,
    });
    const paged = (
      await call(caller, 'GET', `/knowledge/documents/${doc.id}?chunkLimit=1&chunkOffset=2`)
    ).json();
    expect(paged.chunks.map((c: { content: string }) => c.content)).toEqual(['chunk 2']);

    const withoutView = await createUser(ctx.container, {
      departmentId: caller.user.departmentId,
      revokedPermissions: ['canViewKnowledge'],
    });
    const limited = (await call(withoutView, 'GET', `/knowledge/documents/${doc.id}`)).json();
    expect(limited.chunkCount).toBe(3);
    expect(limited.chunks).toBeUndefined();
  });

  it('answers 404 for a missing document and 422 for a chunk limit over 500', async () => {
    const { caller, base } = await callerWithBase();
    expect((await call(caller, 'GET', `/knowledge/documents/${MISSING}`)).statusCode).toBe(404);
    const doc = await createDocumentRow(ctx.container, {
      knowledgeBaseId: base.id,
      departmentId: base.departmentId,
    });
    expect((await call(caller, 'GET', `/knowledge/documents/${doc.id}?chunkLimit=501`)).statusCode).toBe(422);
  });
});

describe('PATCH /knowledge/documents/:id', () => {
  it('changes the title and replaces the caller’s metadata keys, keeping the service’s', async () => {
    const { caller, base } = await callerWithBase();
    const doc = await createDocumentRow(ctx.container, {
      knowledgeBaseId: base.id,
      departmentId: base.departmentId,
    });
    await ctx.container.knowledge.repositories.documents.update(doc.id, {
      metadata: { ingestion: { run: 1, chunkCount: 4 }, owner: 'hr', stale: true },
    });
    const res = await call(caller, 'PATCH', `/knowledge/documents/${doc.id}`, {
      title: 'Renamed',
      originalUrl: 'https://example.com/source',
      metadata: { owner: 'finance' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      title: 'Renamed',
      originalUrl: 'https://example.com/source',
      status: 'ready',
      metadata: { owner: 'finance', ingestion: { run: 1, chunkCount: 4 } },
    });
    expect(res.json().metadata.stale).toBeUndefined();
  });

  it('queues a URL document again when its address changes', async () => {
    const { caller, base } = await callerWithBase();
    const doc = await createDocumentRow(ctx.container, {
      knowledgeBaseId: base.id,
      departmentId: base.departmentId,
      type: 'url',
      status: 'failed',
    });
    const res = await call(caller, 'PATCH', `/knowledge/documents/${doc.id}`, {
      originalUrl: 'https://example.com/new',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pending', metadata: { ingestion: { run: 2 } } });
    expect(await ctx.container.queue.getJob('knowledge-ingest', ingestJobId(doc.id, 2))).not.toBeNull();
  });

  it('answers 422 for reserved metadata keys, a URL document without address or an empty title, and changes nothing', async () => {
    const { caller, base } = await callerWithBase();
    const doc = await createDocumentRow(ctx.container, {
      knowledgeBaseId: base.id,
      departmentId: base.departmentId,
      type: 'url',
    });
    const url = `/knowledge/documents/${doc.id}`;
    const reserved = await call(caller, 'PATCH', url, {
      metadata: { error: 'fake', ingestion: {}, fileName: 'x.pdf' },
    });
    expect(reserved.statusCode).toBe(422);
    expect(reserved.json().details.map((d: { field: string }) => d.field)).toEqual([
      'body.metadata.error',
      'body.metadata.ingestion',
      'body.metadata.fileName',
    ]);
    expect((await call(caller, 'PATCH', url, { originalUrl: null })).statusCode).toBe(422);
    expect((await call(caller, 'PATCH', url, { title: '' })).statusCode).toBe(422);
    expect((await call(caller, 'PATCH', url, { metadata: { big: 'x'.repeat(20_000) } })).statusCode).toBe(
      422,
    );
    expect((await call(caller, 'GET', url)).json().title).toBe(doc.title);
  });
});

describe('POST /knowledge/documents/:id/reprocess', () => {
  it('puts a failed document back to pending with a new run and a new job, the old error gone', async () => {
    const { caller, base } = await callerWithBase();
    const doc = await createDocumentRow(ctx.container, {
      knowledgeBaseId: base.id,
      departmentId: base.departmentId,
      status: 'failed',
    });
    await ctx.container.knowledge.repositories.documents.update(doc.id, {
      metadata: { ingestion: { run: 1 }, error: 'boom', owner: 'hr' },
    });
    const res = await call(caller, 'POST', `/knowledge/documents/${doc.id}/reprocess`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'pending', metadata: { owner: 'hr', ingestion: { run: 2 } } });
    expect(res.json().metadata.error).toBeUndefined();
    expect(await ctx.container.queue.getJob('knowledge-ingest', ingestJobId(doc.id, 2))).not.toBeNull();
  });

  it('answers 404 for a missing document', async () => {
    const caller = await createUser(ctx.container);
    expect((await call(caller, 'POST', `/knowledge/documents/${MISSING}/reprocess`)).statusCode).toBe(404);
  });
});

describe('DELETE /knowledge/documents/:id', () => {
  it('deletes the document, its chunks and its stored file', async () => {
    const { caller, base } = await callerWithBase('dept_head');
    const uploaded = await upload(caller, {
      knowledgeBaseId: base.id,
      file: { filename: 'a.txt', content: Buffer.from('text') },
    });
    const id = uploaded.json().id;
    await ctx.container.db
      .insert(chunks)
      .values({ documentId: id, knowledgeBaseId: base.id, chunkIndex: 0, content: 'text' });
    expect(storedFiles()).toContain(`${id}.txt`);
    const res = await call(caller, 'DELETE', `/knowledge/documents/${id}`);
    expect(res.statusCode).toBe(204);
    expect(storedFiles()).not.toContain(`${id}.txt`);
    expect(await ctx.container.db.select().from(chunks).where(eq(chunks.documentId, id))).toEqual([]);
    expect((await call(caller, 'GET', `/knowledge/documents/${id}`)).statusCode).toBe(404);
  });

  it('answers 404 for a missing document', async () => {
    const caller = await createUser(ctx.container, { role: 'dept_head' });
    expect((await call(caller, 'DELETE', `/knowledge/documents/${MISSING}`)).statusCode).toBe(404);
  });
});
