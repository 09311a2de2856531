import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useChanATestApp } from '../../../test/chanA-app.js';
import { chanAInboundRow, sendChanAMessage } from '../../../test/chanA-inbound.js';
import { documentMessage, imageMessage, textMessage, wamid } from '../../../test/fakes/chanA-webhooks.js';
import { corruptPng, pngDeclaring } from '../../../test/files.js';
import { docxBomb } from '../../../test/fixtures/documents.js';
import { createPipelineScene, waitFor } from '../../../test/pipeline-factories.js';
import { agentTasks, messages } from '../../core/db/schema/index.js';
import { fixedReply } from './replies.js';

const chanA = useChanATestApp();
const send = (phone: string, message: Record<string, unknown>, name?: string) =>
  sendChanAMessage(chanA.ctx.app, phone, message, name);
const inboundRow = (id: string) => chanAInboundRow(chanA.ctx.container, id);

const outboundTexts = async (conversationId: string) =>
  (
    await chanA.ctx.container.db
      .select()
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.direction, 'outbound')))
      .orderBy(asc(messages.createdAt))
  ).map((row) => row.content);

/** The message was stored with the reading's reason as its note, and the employee was told. */
async function expectToldUnreadable(id: string, reason: RegExp) {
  const row = await inboundRow(id);
  expect(row.content).toMatch(/^\[(image|document) message\]$/);
  expect(row.metadata).toMatchObject({ fixedReply: 'unreadable' });
  expect((row.metadata.attachment as { error?: string }).error).toMatch(reason);
  const replies = await waitFor('the could-not-read reply', async () => {
    const texts = await outboundTexts(row.conversationId);
    return texts.length > 0 ? texts : null;
  });
  expect(replies).toContain(fixedReply('unreadable', 'en'));
  expect(
    await chanA.ctx.container.db.select().from(agentTasks).where(eq(agentTasks.messageId, row.id)),
  ).toEqual([]);
}

/** The process is alive and serving: /health answers and the sender's next text reaches the pipeline. */
async function expectServiceCarriesOn(phone: string) {
  expect((await chanA.ctx.app.inject({ url: '/health' })).statusCode).toBe(200);
  const next = wamid();
  await send(phone, textMessage(phone, 'How many vacation days do I get?', next));
  const row = await inboundRow(next);
  await waitFor('the agent task of the next text', async () => {
    const [task] = await chanA.ctx.container.db
      .select()
      .from(agentTasks)
      .where(eq(agentTasks.messageId, row.id));
    return task;
  });
}

describe('chanA-inbound: hostile attachments', () => {
  it('stores a corrupt PNG image with a note and tells the employee, without taking the process down', async () => {
    const people = await createPipelineScene(chanA.ctx.container);
    chanA.graph.addMedia('media-corrupt-png', { mimeType: 'image/png', bytes: corruptPng() });
    const id = wamid();
    await send(people.phone, imageMessage(people.phone, 'media-corrupt-png', undefined, id));
    await expectToldUnreadable(id, /^The PNG image could not be read: .*read image/);
    await expectServiceCarriesOn(people.phone);
  });

  it('refuses a DOCX bomb sent as a document by its inflated size', async () => {
    const people = await createPipelineScene(chanA.ctx.container);
    chanA.graph.addMedia('media-docx-bomb', {
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: await docxBomb({ inflatedBytes: 400 * 1024 * 1024 }),
    });
    const id = wamid();
    await send(
      people.phone,
      documentMessage(
        people.phone,
        'media-docx-bomb',
        {
          mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          filename: 'figures.docx',
        },
        id,
      ),
    );
    await expectToldUnreadable(id, /\(DECODER_MAX_INFLATED_BYTES\)$/);
    await expectServiceCarriesOn(people.phone);
  });

  it('keeps the caption of an image that declares too many pixels, noting why its text was not read', async () => {
    const people = await createPipelineScene(chanA.ctx.container);
    chanA.graph.addMedia('media-huge-png', { mimeType: 'image/png', bytes: pngDeclaring(100_000, 100_000) });
    const id = wamid();
    await send(people.phone, imageMessage(people.phone, 'media-huge-png', 'Please read my payslip', id));
    const row = await inboundRow(id);
    expect(row.content).toBe('Please read my payslip');
    expect(row.metadata.attachment).toMatchObject({
      type: 'image',
      characters: 0,
      error: expect.stringMatching(/100000 × 100000 pixels, more than \d+ \(DECODER_MAX_PIXELS\)$/),
    });
    await expectServiceCarriesOn(people.phone);
  });
});
