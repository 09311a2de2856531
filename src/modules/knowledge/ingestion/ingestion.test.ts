import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/app.js';
import {
  createDocumentRow,
  createKnowledgeBase,
  createUser,
  type TestUser,
} from '../../../../test/factories.js';
import { docx, fixture, imageOnlyPdf, OCR_IMAGES, textPdf } from '../../../../test/fixtures/documents.js';
import { type LocalHttpServer, startHttpServer } from '../../../../test/http-server.js';
import {
  getKnowledgeDocument,
  uploadKnowledgeFile,
  waitForDocumentRun,
} from '../../../../test/knowledge-documents.js';
import { chunks, notifications } from '../../../core/db/schema/index.js';
import { type EventEnvelope, NOTIFICATION_CHANNEL, subscribeEvents } from '../../../core/realtime/events.js';
import { ingestJobId } from '../document-metadata.js';

const ctx = useTestApp({}, { workers: true });
let server: LocalHttpServer;
let serverUrl: string;
/** Every `notification.created` published on the bus. */
const published: EventEnvelope<'notification.created'>[] = [];

beforeAll(async () => {
  await subscribeEvents(ctx.container.bus, NOTIFICATION_CHANNEL, (envelope) =>
    published.push(envelope as EventEnvelope<'notification.created'>),
  );
  server = await startHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Internal page</p>');
  });
  serverUrl = server.url;
});
afterAll(async () => {
  await server?.close();
});

interface DocumentBody {
  id: string;
  status: string;
  metadata: Record<string, unknown> & { error?: string; ingestion?: Record<string, unknown> };
  chunkCount: number;
  chunks: Array<{ content: string; metadata: { headingPath: string[]; page?: number } }>;
}

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

async function setup(): Promise<{ caller: TestUser; knowledgeBaseId: string }> {
  const caller = await createUser(ctx.container);
  const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
  return { caller, knowledgeBaseId: base.id };
}

async function uploadFile(filename: string, content: Buffer) {
  const { caller, knowledgeBaseId } = await setup();
  const { id } = await uploadKnowledgeFile(ctx.app, caller, {
    knowledgeBaseId,
    title: filename,
    filename,
    content,
  });
  return { caller, id };
}

const getDocument = (caller: TestUser, id: string) => getKnowledgeDocument<DocumentBody>(ctx.app, caller, id);

/** Polls the document until its run ends; answers it with its chunks. */
const settled = (caller: TestUser, id: string) => waitForDocumentRun<DocumentBody>(ctx.app, caller, id);

const allText = (doc: DocumentBody) => squash(doc.chunks.map((c) => c.content).join(' '));

describe('ingestion of each accepted format', () => {
  it('reads a TXT file, embeds its chunks and tells the uploader', async () => {
    const { caller, id } = await uploadFile(
      'policy.txt',
      Buffer.from('Expense claims are paid monthly.\n\nAsk finance about exceptions.\n'),
    );
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(allText(doc)).toBe('Expense claims are paid monthly. Ask finance about exceptions.');
    expect(doc.metadata.ingestion).toMatchObject({ run: 1, extractor: 'text', chunkCount: 1 });
    expect(doc.metadata.error).toBeUndefined();

    const embedded = await ctx.container.db
      .select({ id: chunks.id })
      .from(chunks)
      .where(and(eq(chunks.documentId, id), isNotNull(chunks.embedding)));
    expect(embedded).toHaveLength(doc.chunkCount);

    const inbox = await ctx.container.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, caller.user.id));
    expect(inbox).toEqual([
      expect.objectContaining({ type: 'document_ready', entityType: 'document', entityId: id, readAt: null }),
    ]);
    // Published after the commit, for the notification socket.
    await expect.poll(() => published.find((e) => e.payload.id === inbox[0]!.id)).toBeTruthy();
    expect(published.find((e) => e.payload.id === inbox[0]!.id)).toEqual({
      event: 'notification.created',
      payload: expect.objectContaining({
        userId: caller.user.id,
        type: 'document_ready',
        entityId: id,
        createdAt: inbox[0]!.createdAt.toISOString(),
      }),
    });
  });

  it('reads Markdown with its heading path', async () => {
    const markdown =
      '# Handbook\n\n## Leave\n\nAnnual leave is twenty four days.\n\n## Travel\n\nBook trains early.\n';
    const { caller, id } = await uploadFile('handbook.md', Buffer.from(markdown));
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(doc.chunks.map((c) => [c.content, c.metadata.headingPath])).toEqual([
      ['Annual leave is twenty four days.', ['Handbook', 'Leave']],
      ['Book trains early.', ['Handbook', 'Travel']],
    ]);
  });

  it('reads the text layer of a PDF with page numbers', async () => {
    const pdf = textPdf([
      'Travel expenses are reimbursed within ten days.',
      'Receipts must be attached to every claim.',
    ]);
    const { caller, id } = await uploadFile('travel.pdf', pdf);
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(allText(doc)).toBe(
      'Travel expenses are reimbursed within ten days. Receipts must be attached to every claim.',
    );
    expect(doc.chunks[0]!.metadata.page).toBe(1);
    expect(doc.metadata.ingestion).toMatchObject({ extractor: 'pdf', pages: 1, ocrPages: [] });
  });

  it('reads a DOCX with its headings', async () => {
    const file = docx([
      { text: 'Onboarding', heading: 1 },
      { text: 'First week', heading: 2 },
      { text: 'New staff meet their mentor on Monday.' },
    ]);
    const { caller, id } = await uploadFile('onboarding.docx', file);
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(doc.chunks.map((c) => [c.content, c.metadata.headingPath])).toEqual([
      ['New staff meet their mentor on Monday.', ['Onboarding', 'First week']],
    ]);
  });

  it('reads Ukrainian text from a PNG by OCR, offline', async () => {
    const { caller, id } = await uploadFile('leave.png', fixture(OCR_IMAGES.ukPng.file));
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(allText(doc)).toContain(OCR_IMAGES.ukPng.text);
    expect(doc.metadata.ingestion).toMatchObject({ extractor: 'ocr' });
  });

  it('reads English text from a JPEG by OCR', async () => {
    const { caller, id } = await uploadFile('report.jpg', fixture(OCR_IMAGES.enJpg.file));
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(allText(doc)).toContain(OCR_IMAGES.enJpg.text);
  });

  it('reads a PDF without a text layer by rendering the page for OCR', async () => {
    const { caller, id } = await uploadFile('scan.pdf', imageOnlyPdf(fixture(OCR_IMAGES.scanJpg.file)));
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(allText(doc)).toContain(OCR_IMAGES.scanJpg.text);
    expect(doc.metadata.ingestion).toMatchObject({ extractor: 'pdf', ocrPages: [1] });
    expect(doc.chunks[0]!.metadata.page).toBe(1);
  });
});

describe('documents that cannot be ingested', () => {
  it('fails a file without text, with the reason and a notice to the uploader', async () => {
    const { caller, id } = await uploadFile('empty.txt', Buffer.from('   \n\n  '));
    const doc = await settled(caller, id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toBe('No text was found in the document');
    expect(doc.chunkCount).toBe(0);
    const inbox = await ctx.container.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, caller.user.id));
    expect(inbox).toEqual([
      expect.objectContaining({ type: 'system', entityId: id, body: doc.metadata.error }),
    ]);
  });

  it('fails a damaged PDF with a reason', async () => {
    const { caller, id } = await uploadFile('broken.pdf', Buffer.from('%PDF-1.4\nthis is not really a pdf'));
    const doc = await settled(caller, id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toMatch(/PDF/);
  });

  it('refuses a URL on a private address by default', async () => {
    const { caller, knowledgeBaseId } = await setup();
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/knowledge/documents',
      headers: caller.headers,
      payload: { knowledgeBaseId, title: 'Intranet', type: 'url', originalUrl: `${serverUrl}/page` },
    });
    expect(res.statusCode).toBe(201);
    const doc = await settled(caller, res.json().id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toMatch(/private address/);
  });
});

describe('reprocessing', () => {
  it('runs the document again and replaces its chunks', async () => {
    const { caller, id } = await uploadFile('notes.txt', Buffer.from('Desk booking opens at nine.'));
    const first = await settled(caller, id);
    expect(first.status).toBe('ready');
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/knowledge/documents/${id}/reprocess`,
      headers: caller.headers,
    });
    expect(res.json()).toMatchObject({ status: 'pending', metadata: { ingestion: { run: 2 } } });
    await expect
      .poll(
        async () =>
          (await getDocument(caller, id)).metadata.ingestion?.run === 2 &&
          (await getDocument(caller, id)).status,
        {
          timeout: 25_000,
          interval: 200,
        },
      )
      .toBe('ready');
    const second = await getDocument(caller, id);
    expect(second.chunkCount).toBe(first.chunkCount);
    expect(allText(second)).toBe('Desk booking opens at nine.');
  });
});

describe('job runs', () => {
  async function processingDocument() {
    const { caller, knowledgeBaseId } = await setup();
    const doc = await createDocumentRow(ctx.container, {
      knowledgeBaseId,
      departmentId: caller.user.departmentId,
      status: 'processing',
    });
    return { caller, id: doc.id };
  }

  it('marks a document failed with the last error once its retries are used up', async () => {
    const { caller, id } = await processingDocument();
    await ctx.container.knowledge.ingestion.failAfterRetries(
      id,
      ingestJobId(id, 1),
      new Error('provider unavailable'),
    );
    const doc = await getDocument(caller, id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toBe('provider unavailable');
  });

  it('ignores a job of an older run, and a job whose document is gone', async () => {
    const { caller, id } = await processingDocument();
    const stale = ingestJobId(id, 0);
    expect(await ctx.container.knowledge.ingestion.ingest(id, stale)).toBe('stale');
    await ctx.container.knowledge.ingestion.failAfterRetries(id, stale, new Error('late failure'));
    expect((await getDocument(caller, id)).status).toBe('processing');
    expect(await ctx.container.knowledge.ingestion.ingest(randomUUID(), 'ingest-x-1')).toBe('gone');
  });
});
