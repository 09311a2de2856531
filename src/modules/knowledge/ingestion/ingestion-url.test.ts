import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/app.js';
import { createKnowledgeBase, createUser, type TestUser } from '../../../../test/factories.js';
import { textPdf } from '../../../../test/fixtures/documents.js';
import { type LocalHttpServer, startHttpServer } from '../../../../test/http-server.js';
import { waitForDocumentRun } from '../../../../test/knowledge-documents.js';
import { INGEST_ATTEMPTS } from '../documents.service.js';

// The test server is on 127.0.0.1, which the default configuration refuses (see ingestion.test.ts).
const ctx = useTestApp({ KNOWLEDGE_URL_ALLOW_PRIVATE: 'true' }, { workers: true });
let server: LocalHttpServer;
let serverUrl: string;
const hits: string[] = [];

const article = Array.from(
  { length: 5 },
  (_, i) =>
    `<p>Rule ${i + 1}: staff may work remotely up to three days a week when their manager agrees in advance.</p>`,
).join('');

beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    hits.push(req.url ?? '');
    switch (req.url) {
      case '/article':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
          `<html><head><title>Remote work</title></head><body>
            <nav><a href="/">Home</a> <a href="/jobs">Jobs at the company</a></nav>
            <main><h1>Remote work policy</h1>${article}</main>
            <footer>All rights reserved, footer text</footer></body></html>`,
        );
        return;
      case '/moved':
        res.writeHead(302, { location: '/article' }).end();
        return;
      case '/policy.pdf':
        res
          .writeHead(200, { 'content-type': 'application/pdf' })
          .end(textPdf(['Parking permits renew every January.']));
        return;
      case '/notes':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Кава на кухні безкоштовна.');
        return;
      case '/flaky':
        res.writeHead(503).end('try later');
        return;
      case '/image.gif':
        res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('GIF89a....'));
        return;
      default:
        res.writeHead(404).end('not here');
    }
  });
  serverUrl = server.url;
});
afterAll(async () => {
  await server?.close();
});

interface DocumentBody {
  status: string;
  metadata: { error?: string; ingestion?: Record<string, unknown> };
  chunks: Array<{ content: string; metadata: { headingPath: string[] } }>;
}

async function addUrl(path: string): Promise<{ caller: TestUser; id: string }> {
  const caller = await createUser(ctx.container);
  const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/knowledge/documents',
    headers: caller.headers,
    payload: { knowledgeBaseId: base.id, title: path, type: 'url', originalUrl: `${serverUrl}${path}` },
  });
  expect(res.statusCode).toBe(201);
  return { caller, id: res.json().id };
}

const settled = (caller: TestUser, id: string) => waitForDocumentRun<DocumentBody>(ctx.app, caller, id);

const text = (doc: DocumentBody) => doc.chunks.map((c) => c.content).join(' ');

describe('URL documents when private addresses are allowed', () => {
  it('fetches a page and keeps its main text only', async () => {
    const { caller, id } = await addUrl('/article');
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(text(doc)).toContain('Rule 1: staff may work remotely');
    expect(text(doc)).toContain('Rule 5: staff may work remotely');
    expect(text(doc)).not.toContain('Jobs at the company');
    expect(text(doc)).not.toContain('footer text');
    expect(doc.metadata.ingestion).toMatchObject({
      extractor: 'html',
      sourceUrl: `${serverUrl}/article`,
      redirects: 0,
      contentTitle: 'Remote work',
    });
  });

  it('follows a redirect', async () => {
    const { caller, id } = await addUrl('/moved');
    const doc = await settled(caller, id);
    expect(doc.status).toBe('ready');
    expect(doc.metadata.ingestion).toMatchObject({ sourceUrl: `${serverUrl}/article`, redirects: 1 });
  });

  it('reads a PDF and plain text behind a URL', async () => {
    const pdf = await addUrl('/policy.pdf');
    const pdfDoc = await settled(pdf.caller, pdf.id);
    expect(pdfDoc.status).toBe('ready');
    expect(text(pdfDoc)).toBe('Parking permits renew every January.');
    const notes = await addUrl('/notes');
    const notesDoc = await settled(notes.caller, notes.id);
    expect(text(notesDoc)).toBe('Кава на кухні безкоштовна.');
  });

  it('fails at once on a 404 or an unsupported content type', async () => {
    const missing = await addUrl('/missing');
    const missingDoc = await settled(missing.caller, missing.id);
    expect(missingDoc.status).toBe('failed');
    expect(missingDoc.metadata.error).toMatch(/HTTP 404/);
    const gif = await addUrl('/image.gif');
    expect((await settled(gif.caller, gif.id)).metadata.error).toMatch(/not a supported document type/);
  });

  it('retries a server error and, after the last try, fails with its reason instead of staying in processing', async () => {
    const before = hits.filter((h) => h === '/flaky').length;
    const { caller, id } = await addUrl('/flaky');
    const doc = await settled(caller, id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toMatch(/HTTP 503/);
    expect(hits.filter((h) => h === '/flaky').length - before).toBe(INGEST_ATTEMPTS);
  });
});
