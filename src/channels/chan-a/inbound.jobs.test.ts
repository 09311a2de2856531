import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useChanATestApp } from '../../../test/chanA-app.js';
import { chanAInboundRow, sendChanAMessage } from '../../../test/chanA-inbound.js';
import { createUser } from '../../../test/factories.js';
import {
  buttonReply,
  documentMessage,
  imageMessage,
  otherMessage,
  textMessage,
  wamid,
} from '../../../test/fakes/chanA-webhooks.js';
import { docx, fixture, OCR_IMAGES } from '../../../test/fixtures/documents.js';
import { createPipelineScene, waitFor } from '../../../test/pipeline-factories.js';
import { agentTasks, approvals, employeeProfiles, messages } from '../../core/db/schema/index.js';
import { LAST_INBOUND_KEY } from './inbound.service.js';
import { fixedReply } from './replies.js';
import { messageJobId } from './webhook.service.js';

const chanA = useChanATestApp();
const send = (phone: string, message: Record<string, unknown>, name?: string) =>
  sendChanAMessage(chanA.ctx.app, phone, message, name);
const inboundRow = (id: string) => chanAInboundRow(chanA.ctx.container, id);

/** The outbound messages of a conversation, oldest first. */
const outboundOf = (conversationId: string) =>
  chanA.ctx.container.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.direction, 'outbound')))
    .orderBy(asc(messages.createdAt));

const taskOf = (messageId: string) =>
  waitFor('the agent task', async () => {
    const [task] = await chanA.ctx.container.db
      .select()
      .from(agentTasks)
      .where(eq(agentTasks.messageId, messageId));
    return task;
  });

describe('chanA-inbound: text', () => {
  it('hands a text message to the pipeline with the sender’s phone digits, name and message id', async () => {
    const scene = await createPipelineScene(chanA.ctx.container);
    const id = wamid();
    await send(scene.phone, textMessage(scene.phone, 'How many vacation days do I get?', id));
    const row = await inboundRow(id);
    expect(row.content).toBe('How many vacation days do I get?');
    expect(row.metadata).toMatchObject({ senderName: 'Olena' });
    const task = await taskOf(row.id);
    expect(task.namespaceId).toBe(scene.namespaceId);
    expect(await chanA.ctx.container.kv.get(LAST_INBOUND_KEY)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('treats a button reply as text', async () => {
    const scene = await createPipelineScene(chanA.ctx.container);
    const id = wamid();
    await send(scene.phone, buttonReply(scene.phone, 'Yes, book my vacation', id));
    const row = await inboundRow(id);
    expect(row.content).toBe('Yes, book my vacation');
    expect(row.metadata).toMatchObject({ platformType: 'interactive' });
    await taskOf(row.id);
  });
});

describe('chanA-inbound: images and documents', () => {
  it('reads an image by OCR, hands caption and text to the pipeline, and the task answers it', async () => {
    const scene = await createPipelineScene(chanA.ctx.container);
    chanA.graph.addMedia('media-ocr-png', { mimeType: 'image/png', bytes: fixture(OCR_IMAGES.ukPng.file) });
    const id = wamid();
    await send(scene.phone, imageMessage(scene.phone, 'media-ocr-png', 'What does this say?', id));
    const row = await inboundRow(id);
    expect(row.content.startsWith('What does this say?\n\n[image text]\n')).toBe(true);
    expect(row.content).toContain(OCR_IMAGES.ukPng.text);
    expect(row.metadata.attachment).toMatchObject({
      type: 'image',
      mimeType: 'image/png',
      mediaId: 'media-ocr-png',
      characters: expect.any(Number),
    });
    const mediaCalls = chanA.graph.requests.filter((r) => r.path === '/media-ocr-png');
    expect(mediaCalls[0]?.headers.authorization).toBe('Bearer test-access-token');
    // Answered: the pipeline finished the task and routed the reply (an approval on a first interaction).
    const task = await taskOf(row.id);
    await waitFor(
      'the task to finish',
      async () => {
        const [current] = await chanA.ctx.container.db
          .select()
          .from(agentTasks)
          .where(eq(agentTasks.id, task.id));
        return current?.status === 'done';
      },
      60_000,
    );
    const [approval] = await chanA.ctx.container.db
      .select()
      .from(approvals)
      .where(eq(approvals.taskId, task.id));
    expect(approval?.originalContent.length).toBeGreaterThan(0);
  }, 120_000);

  it('reads a DOCX document and labels its text with the file name', async () => {
    const scene = await createPipelineScene(chanA.ctx.container);
    chanA.graph.addMedia('media-docx', {
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      bytes: docx([{ text: 'Travel expenses are refunded within ten working days.' }]),
    });
    const id = wamid();
    const message = documentMessage(
      scene.phone,
      'media-docx',
      {
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        filename: 'expenses.docx',
      },
      id,
    );
    await send(scene.phone, message);
    const row = await inboundRow(id);
    expect(row.content).toBe(
      '[document text: expenses.docx]\nTravel expenses are refunded within ten working days.',
    );
    await taskOf(row.id);
  });

  it('tries again when the platform fails for a passing reason, and then reads the file', async () => {
    const scene = await createPipelineScene(chanA.ctx.container);
    chanA.graph.addMedia('media-txt-retry', {
      mimeType: 'text/plain',
      bytes: Buffer.from('Overtime is paid double.'),
    });
    chanA.graph.replyNext('media', {
      status: 503,
      body: { error: { message: 'Service unavailable', code: 2 } },
    });
    const id = wamid();
    await send(
      scene.phone,
      documentMessage(
        scene.phone,
        'media-txt-retry',
        { mimeType: 'text/plain', filename: 'overtime.txt' },
        id,
      ),
    );
    const row = await inboundRow(id);
    expect(row.content).toBe('[document text: overtime.txt]\nOvertime is paid double.');
    const job = await chanA.ctx.container.queue.getJob('chanA-inbound', messageJobId(id));
    expect(job?.attemptsMade).toBeGreaterThanOrEqual(1);
  });

  it('keeps the caption when the media cannot be fetched, and answers a captionless one with a fixed reply', async () => {
    const scene = await createPipelineScene(chanA.ctx.container);
    const withCaption = wamid();
    await send(
      scene.phone,
      imageMessage(scene.phone, 'media-missing', 'Please check my payslip', withCaption),
    );
    const captioned = await inboundRow(withCaption);
    expect(captioned.content).toBe('Please check my payslip');
    expect(captioned.metadata.attachment).toMatchObject({
      type: 'image',
      characters: 0,
      error: expect.any(String),
    });
    await taskOf(captioned.id);

    const bare = wamid();
    await send(scene.phone, imageMessage(scene.phone, 'media-missing-too', undefined, bare));
    const row = await inboundRow(bare);
    expect(row.content).toBe('[image message]');
    expect(row.metadata).toMatchObject({ fixedReply: 'unreadable' });
    const replies = await waitFor('the fixed reply', async () => {
      const rows = await outboundOf(row.conversationId);
      return rows.length > 0 ? rows : null;
    });
    expect(replies.map((r) => r.content)).toContain(fixedReply('unreadable', 'en'));
    expect(
      await chanA.ctx.container.db.select().from(agentTasks).where(eq(agentTasks.messageId, row.id)),
    ).toEqual([]);
  });
});

describe('chanA-inbound: types that are not read', () => {
  it('stores the message and queues a fixed reply on chanA-outbound, in English by default', async () => {
    const scene = await createPipelineScene(chanA.ctx.container);
    const conversations = new Set<string>();
    // A reaction is not among them: it rates the reply it is on (src/modules/feedback), unanswered.
    for (const type of ['audio', 'sticker', 'location', 'video', 'unsupported']) {
      const id = wamid();
      await send(scene.phone, otherMessage(scene.phone, type, id));
      const row = await inboundRow(id);
      expect(row.content).toBe(`[${type} message]`);
      expect(row.metadata).toMatchObject({ fixedReply: 'unsupported', attachment: { type } });
      expect(
        await chanA.ctx.container.db.select().from(agentTasks).where(eq(agentTasks.messageId, row.id)),
      ).toEqual([]);
      conversations.add(row.conversationId);
    }
    expect(conversations.size).toBe(1);
    const [conversationId] = [...conversations] as [string];
    const replies = await waitFor('five fixed replies', async () => {
      const rows = await outboundOf(conversationId);
      return rows.length === 5 ? rows : null;
    });
    for (const reply of replies) {
      expect(reply.content).toBe(fixedReply('unsupported', 'en'));
      const job = await chanA.ctx.container.queue.getJob('chanA-outbound', `outbound-${reply.id}`);
      expect(job?.data).toEqual({ messageId: reply.id });
    }
  });

  it('answers in the employee’s stored language, else in the language of their last text', async () => {
    const ukScene = await createPipelineScene(chanA.ctx.container);
    await chanA.ctx.container.db
      .update(employeeProfiles)
      .set({ preferences: { language: 'uk' } })
      .where(eq(employeeProfiles.userId, ukScene.employee.user.id));
    const ukId = wamid();
    await send(ukScene.phone, otherMessage(ukScene.phone, 'audio', ukId));
    const ukRow = await inboundRow(ukId);

    const ruScene = await createPipelineScene(chanA.ctx.container);
    const textId = wamid();
    await send(ruScene.phone, textMessage(ruScene.phone, 'Сколько дней отпуска у меня осталось?', textId));
    await inboundRow(textId);
    const ruId = wamid();
    await send(ruScene.phone, otherMessage(ruScene.phone, 'video', ruId));
    const ruRow = await inboundRow(ruId);

    const replyOf = (conversationId: string, content: string) =>
      waitFor(`the reply ${content.slice(0, 20)}`, async () =>
        (await outboundOf(conversationId)).find((r) => r.content === content),
      );
    await replyOf(ukRow.conversationId, fixedReply('unsupported', 'uk'));
    await replyOf(ruRow.conversationId, fixedReply('unsupported', 'ru'));
  });

  it('stores an unknown sender’s message as a new employee and does not answer a deactivated one', async () => {
    const phone = `4474${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
    const id = wamid();
    await send(phone, otherMessage(phone, 'audio', id), 'New Person');
    const row = await inboundRow(id);
    await waitFor(
      'the reply to the new sender',
      async () => (await outboundOf(row.conversationId)).length === 1,
    );

    const inactive = await createUser(chanA.ctx.container, {
      phone: `4475${Math.floor(10_000_000 + Math.random() * 89_999_999)}`,
      isActive: false,
    });
    const silent = wamid();
    const inactivePhone = inactive.user.phone!;
    await send(inactivePhone, otherMessage(inactivePhone, 'audio', silent));
    const stored = await inboundRow(silent);
    await waitFor('the job to finish', async () => {
      const jobs = await chanA.ctx.container.queue.counts('chanA-inbound');
      return jobs.active === 0 && jobs.waiting === 0;
    });
    expect(await outboundOf(stored.conversationId)).toEqual([]);
  });
});
