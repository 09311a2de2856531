import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../../test/app.js';
import { createKnowledgeBase, createUser, type TestUser } from '../../../../test/factories.js';
import { corruptPng, pngDeclaring } from '../../../../test/files.js';
import { docxBomb, textPdf } from '../../../../test/fixtures/documents.js';
import { uploadKnowledgeFile, waitForDocumentRun } from '../../../../test/knowledge-documents.js';

const ctx = useTestApp({}, { workers: true });

interface DocumentBody {
  id: string;
  status: string;
  metadata: { error?: string };
}

async function upload(caller: TestUser, filename: string, content: Buffer): Promise<string> {
  const base = await createKnowledgeBase(ctx.container, { departmentId: caller.user.departmentId });
  return (
    await uploadKnowledgeFile(ctx.app, caller, {
      knowledgeBaseId: base.id,
      title: filename,
      filename,
      content,
    })
  ).id;
}

/** Statuses of GET /health asked every few event-loop turns while a hostile file is decoded. */
let healthStatuses: number[] = [];
let probing = false;
let prober: Promise<void> | null = null;

beforeEach(() => {
  healthStatuses = [];
  probing = true;
  prober = (async () => {
    while (probing) {
      healthStatuses.push((await ctx.app.inject({ url: '/health' })).statusCode);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  })();
});
afterEach(async () => {
  probing = false;
  await prober;
});

/** Polls until the document's run ends and answers it; /health was answering all along. */
async function settled(caller: TestUser, id: string): Promise<DocumentBody> {
  const doc = await waitForDocumentRun<DocumentBody>(ctx.app, caller, id, { timeout: 60_000 });
  expect(healthStatuses.length).toBeGreaterThan(0);
  expect(new Set(healthStatuses)).toEqual(new Set([200]));
  return doc;
}

/** Another upload is read normally once the hostile one has failed: the service carried on. */
async function expectOtherDocumentsRead(caller: TestUser): Promise<void> {
  const id = await upload(caller, 'after.pdf', textPdf(['Parking permits renew every January.']));
  const doc = await settled(caller, id);
  expect(doc.status).toBe('ready');
}

describe('hostile files are decoded in isolated processes', () => {
  it('fails a PNG with a corrupt checksum with a reason, and the service carries on', async () => {
    const caller = await createUser(ctx.container);
    const id = await upload(caller, 'scan.png', corruptPng());
    const doc = await settled(caller, id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toMatch(/^The PNG image could not be read: .*read image/);
    await expectOtherDocumentsRead(caller);
  });

  it('refuses a DOCX that inflates to 400 MB by its declared sizes, before mammoth reads it', async () => {
    const caller = await createUser(ctx.container);
    const bomb = await docxBomb({ inflatedBytes: 400 * 1024 * 1024 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const id = await upload(caller, 'bomb.docx', bomb);
    const doc = await settled(caller, id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toBe(
      `The DOCX file inflates to more than ${ctx.container.config.decoders.maxInflatedBytes} bytes (DECODER_MAX_INFLATED_BYTES)`,
    );
    await expectOtherDocumentsRead(caller);
  });

  it('refuses a DOCX whose zip claims a small size and inflates to 400 MB', async () => {
    const caller = await createUser(ctx.container);
    const liar = await docxBomb({ inflatedBytes: 400 * 1024 * 1024, declaredBytes: 2048 });
    const id = await upload(caller, 'liar.docx', liar);
    const doc = await settled(caller, id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toMatch(
      /^The DOCX file cannot be read: its entry word\/document\.xml is damaged or larger than it declares/,
    );
    await expectOtherDocumentsRead(caller);
  });

  it('refuses an image whose header declares 100000 × 100000 pixels, before OCR', async () => {
    const caller = await createUser(ctx.container);
    const id = await upload(caller, 'huge.png', pngDeclaring(100_000, 100_000));
    const doc = await settled(caller, id);
    expect(doc.status).toBe('failed');
    expect(doc.metadata.error).toBe(
      `The PNG image is 100000 × 100000 pixels, more than ${ctx.container.config.decoders.maxPixels} (DECODER_MAX_PIXELS)`,
    );
    await expectOtherDocumentsRead(caller);
  });
});
