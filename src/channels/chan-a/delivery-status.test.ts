import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sentChanAMessage } from '../../../test/chanA-outbound.js';
import { postWebhook, statusUpdate, wamid, webhookPayload } from '../../../test/fakes/chanA-webhooks.js';
import { usePipelineTestApp, waitFor } from '../../../test/pipeline-factories.js';
import { messages } from '../../core/db/schema/index.js';
import { createDeliveryStatuses, OUTSIDE_WINDOW_ERROR } from './delivery-status.js';
import { createDeliveryStatusRepository } from './delivery-status.repository.js';
import { statusJobId } from './webhook.service.js';

const APP_SECRET = 'test-app-secret';
const ctx = usePipelineTestApp({ CHANA_APP_SECRET: APP_SECRET }, { workers: true });

/** An outbound channel A message as the sending side leaves it (test/chanA-outbound.ts). */
const sentMessage = (parts = 1, status = 'sent') => sentChanAMessage(ctx.container, { parts, status });

const current = async (id: string) =>
  (await ctx.container.db.select().from(messages).where(eq(messages.id, id)))[0]!;

/** Posts the receipts and waits until each one's job has finished. */
async function receipts(...statuses: Array<ReturnType<typeof statusUpdate>>) {
  const res = await postWebhook(ctx.app, webhookPayload({ statuses }), { appSecret: APP_SECRET });
  expect(res.json()).toEqual({ received: true });
  for (const status of statuses) {
    await waitFor(`the receipt ${status.status} of ${status.id}`, async () => {
      const job = await ctx.container.queue.getJob(
        'chanA-inbound',
        statusJobId(String(status.id), String(status.status)),
      );
      return job?.state === 'completed';
    });
  }
}

describe('receipts (status callbacks)', () => {
  it('moves a message sent → delivered → read and records when each state was reached', async () => {
    const { row, ids } = await sentMessage();
    await receipts(statusUpdate(ids[0]!, 'sent'));
    expect((await current(row.id)).status).toBe('sent');
    await receipts(statusUpdate(ids[0]!, 'delivered'));
    expect((await current(row.id)).status).toBe('delivered');
    await receipts(statusUpdate(ids[0]!, 'read'));
    const read = await current(row.id);
    expect(read.status).toBe('read');
    expect(read.metadata.receipts).toEqual({
      sent: expect.any(String),
      delivered: expect.any(String),
      read: expect.any(String),
    });
    expect(read.metadata.platformMessageIds).toEqual(ids);
  });

  it('holds a receipt back while the message is still being sent, and applies it once it is sent', async () => {
    const { row, ids } = await sentMessage(2, 'queued');
    const statuses = createDeliveryStatuses({
      repository: createDeliveryStatusRepository(ctx.container.db),
      logger: ctx.container.logger,
    });
    const item = {
      id: ids[0]!,
      status: 'delivered' as const,
      timestamp: null,
      recipientId: null,
      errors: [],
    };
    expect(await statuses.apply(item)).toBe('pending');
    expect((await current(row.id)).status).toBe('queued');
    // Through the webhook: the job retries until the sender has marked the message sent.
    const res = await postWebhook(
      ctx.app,
      webhookPayload({ statuses: [statusUpdate(ids[0]!, 'delivered')] }),
      {
        appSecret: APP_SECRET,
      },
    );
    expect(res.json()).toEqual({ received: true });
    await waitFor('the first try of the receipt', async () => {
      const job = await ctx.container.queue.getJob('chanA-inbound', statusJobId(ids[0]!, 'delivered'));
      return (job?.attemptsMade ?? 0) >= 1;
    });
    expect((await current(row.id)).status).toBe('queued');
    await ctx.container.db.update(messages).set({ status: 'sent' }).where(eq(messages.id, row.id));
    await waitFor('the receipt to apply', async () => (await current(row.id)).status === 'delivered');
  });

  it('never moves a status backwards, and repeats change nothing', async () => {
    const { row, ids } = await sentMessage();
    await receipts(statusUpdate(ids[0]!, 'read'));
    await receipts(statusUpdate(ids[0]!, 'delivered'), statusUpdate(ids[0]!, 'sent'));
    await receipts(statusUpdate(ids[0]!, 'read'));
    expect((await current(row.id)).status).toBe('read');
  });

  it('applies a receipt for any part of a split message', async () => {
    const { row, ids } = await sentMessage(3);
    await receipts(statusUpdate(ids[0]!, 'delivered'));
    expect((await current(row.id)).status).toBe('delivered');
  });

  it('records the platform’s error on failed, which is final', async () => {
    const { row, ids } = await sentMessage(2);
    await receipts(
      statusUpdate(ids[0]!, 'failed', {
        errors: [
          { code: 131026, title: 'Message undeliverable', details: 'Receiver is incapable of receiving' },
        ],
      }),
    );
    const failed = await current(row.id);
    expect(failed.status).toBe('failed');
    expect(failed.metadata.deliveryError).toMatchObject({
      platformMessageId: ids[0],
      code: 131026,
      title: 'Message undeliverable',
      details: 'Receiver is incapable of receiving',
    });
    expect(failed.metadata.failureReason).toBe(
      'The platform reports the message as failed (code 131026): Message undeliverable: Receiver is incapable of receiving',
    );
    await receipts(statusUpdate(ids[1]!, 'delivered'), statusUpdate(ids[1]!, 'read'));
    expect((await current(row.id)).status).toBe('failed');
  });

  it('hands a failure outside the 24-hour window (131047) to the re-engagement path once', async () => {
    const handed: Array<[string, string]> = [];
    const statuses = createDeliveryStatuses({
      repository: createDeliveryStatusRepository(ctx.container.db),
      logger: ctx.container.logger,
      onOutsideWindow: async (messageId, reason) => {
        handed.push([messageId, reason]);
      },
    });
    const { row, ids } = await sentMessage();
    const item = {
      id: ids[0]!,
      status: 'failed' as const,
      timestamp: null,
      recipientId: null,
      errors: [{ code: OUTSIDE_WINDOW_ERROR, title: 'Re-engagement message', message: null, details: null }],
    };
    expect(await statuses.apply(item)).toBe('applied');
    expect(await statuses.apply(item)).toBe('unchanged');
    expect(handed).toEqual([[row.id, 'Re-engagement message']]);
    const failed = await current(row.id);
    expect(failed.status).toBe('failed');
    expect(failed.metadata.deliveryError).toMatchObject({ code: OUTSIDE_WINDOW_ERROR });
    // The re-engagement path writes the reason itself.
    expect(failed.metadata.failureReason).toBeUndefined();
  });

  it('answers unknown for a receipt of a message we did not send', async () => {
    const statuses = createDeliveryStatuses({
      repository: createDeliveryStatusRepository(ctx.container.db),
      logger: ctx.container.logger,
    });
    const item = {
      id: wamid(),
      status: 'delivered' as const,
      timestamp: null,
      recipientId: null,
      errors: [],
    };
    expect(await statuses.apply(item)).toBe('unknown');
  });
});
