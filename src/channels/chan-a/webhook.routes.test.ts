import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChanATestApp,
  startChanATestApp,
  TEST_APP_SECRET,
  TEST_VERIFY_TOKEN,
} from '../../../test/chanA-app.js';
import {
  otherMessage,
  postWebhook,
  sign,
  statusUpdate,
  textMessage,
  wamid,
  webhookPayload,
} from '../../../test/fakes/chanA-webhooks.js';
import { createPipelineScene, type PipelineTestContext, waitFor } from '../../../test/pipeline-factories.js';
import { agentTasks, channelInbox, messages } from '../../core/db/schema/index.js';
import { ForbiddenError } from '../../core/errors/app-errors.js';
import { WEBHOOK_BODY_LIMIT } from './webhook.routes.js';
import { createWebhookService, messageJobId } from './webhook.service.js';

const APP_SECRET = TEST_APP_SECRET;
const VERIFY_TOKEN = TEST_VERIFY_TOKEN;

let ctx: PipelineTestContext;
let scene: ChanATestApp;

beforeAll(async () => {
  scene = await startChanATestApp();
  ({ ctx } = scene);
});
afterAll(async () => {
  await scene?.close();
});

const handshake = (query: string) => ctx.app.inject({ url: `/api/v1/chanA/webhook?${query}` });

/** Every job the chanA-inbound queue has ever held, whatever its state. */
async function inboundJobTotal(): Promise<number> {
  const counts = await ctx.container.queue.counts('chanA-inbound');
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

const messagesWithId = (id: string) =>
  ctx.container.db
    .select()
    .from(messages)
    .where(and(eq(messages.channel, 'chanA'), eq(messages.channelMessageId, id)));

describe('GET /chanA/webhook (verification handshake)', () => {
  it('answers the challenge as plain text when the mode is subscribe and the token matches', async () => {
    const res = await handshake(
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('1158201444');
  });

  it('answers 403 in the error envelope for a wrong token, another mode or missing parameters', async () => {
    for (const query of [
      'hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1',
      `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
      `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}`,
      `hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`,
      '',
    ]) {
      const res = await handshake(query);
      expect(res.statusCode, query).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ForbiddenError', statusCode: 403 });
      expect(res.body).not.toContain(VERIFY_TOKEN);
    }
  });

  it('refuses every handshake when no verify token is configured', () => {
    const service = createWebhookService({
      inbox: ctx.container.inbox,
      appSecret: null,
      allowUnsigned: false,
      verifyToken: null,
      phoneNumberId: null,
    });
    expect(() => service.verifyHandshake({ mode: 'subscribe', token: '', challenge: '1' })).toThrow(
      ForbiddenError,
    );
    expect(() => service.verifyHandshake({ mode: 'subscribe', token: 'null', challenge: '1' })).toThrow(
      ForbiddenError,
    );
  });
});

describe('POST /chanA/webhook', () => {
  it('takes a signed payload: 200 { received: true } once kept in the inbox, then the message queued under its job id', async () => {
    const id = wamid();
    const res = await postWebhook(
      ctx.app,
      webhookPayload({ messages: [otherMessage('380501230000', 'audio', id)] }),
      {
        appSecret: APP_SECRET,
      },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    // Committed before the answer; the job is added after it (not waited for).
    const kept = await ctx.container.db
      .select({ payload: channelInbox.payload })
      .from(channelInbox)
      .where(and(eq(channelInbox.queue, 'chanA-inbound'), eq(channelInbox.jobId, messageJobId(id))));
    expect(kept).toEqual([{ payload: expect.objectContaining({ id, type: 'audio' }) }]);
    const job = await waitFor('the message job', () =>
      ctx.container.queue.getJob('chanA-inbound', messageJobId(id)),
    );
    expect(job).toMatchObject({ name: 'message', data: { id, type: 'audio', from: '380501230000' } });
  });

  it('answers 401 for a missing or wrong signature and stores and queues nothing', async () => {
    const id = wamid();
    const body = JSON.stringify(webhookPayload({ messages: [textMessage('380501230001', 'hello', id)] }));
    const before = await inboundJobTotal();
    for (const signature of [null, sign(body, 'another-secret'), 'sha256=00', sign(`${body} `, APP_SECRET)]) {
      const res = await postWebhook(ctx.app, body, { signature });
      expect(res.statusCode, String(signature)).toBe(401);
      expect(res.json()).toMatchObject({ error: 'UnauthorizedError', statusCode: 401 });
    }
    expect(await ctx.container.queue.getJob('chanA-inbound', messageJobId(id))).toBeNull();
    expect(await inboundJobTotal()).toBe(before);
    expect(await messagesWithId(id)).toEqual([]);
  });

  it('answers 400 for a signed body that is not JSON, and queues nothing', async () => {
    const before = await inboundJobTotal();
    for (const body of ['{"object":', '', 'not json', '{"entry":[}']) {
      const res = await postWebhook(ctx.app, body, { appSecret: APP_SECRET });
      expect(res.statusCode, body).toBe(400);
      expect(res.json()).toMatchObject({ error: 'BadRequestError', statusCode: 400 });
    }
    expect(await inboundJobTotal()).toBe(before);
  });

  it('checks the signature before the JSON: an unsigned body that is not JSON answers 401', async () => {
    const res = await postWebhook(ctx.app, '{"object":', { signature: null });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'UnauthorizedError' });
  });

  it('acknowledges JSON that is not a webhook payload without a 500 and queues nothing for it', async () => {
    const before = await inboundJobTotal();
    const shapes = [
      'null',
      '[1,2]',
      '"text"',
      '{}',
      JSON.stringify({ object: 'whatsapp_business_account' }),
      JSON.stringify({ object: 'whatsapp_business_account', entry: 5 }),
      JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ changes: [{ value: { messages: 'x' } }] }],
      }),
      JSON.stringify(webhookPayload({ messages: [{ id: 42, from: { x: 1 }, type: [] } as never] })),
      JSON.stringify({ object: 'page', entry: [] }),
    ];
    for (const body of shapes) {
      const res = await postWebhook(ctx.app, body, { appSecret: APP_SECRET });
      expect(res.statusCode, body).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    expect(await inboundJobTotal()).toBe(before);
  });

  it('acknowledges a status-only payload and refuses a body over the limit with 413', async () => {
    const res = await postWebhook(
      ctx.app,
      webhookPayload({ statuses: [statusUpdate(wamid(), 'delivered')] }),
      {
        appSecret: APP_SECRET,
      },
    );
    expect(res.json()).toEqual({ received: true });
    const huge = JSON.stringify({ object: 'whatsapp_business_account', pad: 'x'.repeat(WEBHOOK_BODY_LIMIT) });
    const tooLarge = await postWebhook(ctx.app, huge, { appSecret: APP_SECRET });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ error: 'PayloadTooLargeError' });
  });

  it('processes a repeated webhook once: one message row and one task', async () => {
    const scene = await createPipelineScene(ctx.container);
    const id = wamid();
    const payload = webhookPayload({
      contacts: [{ waId: scene.phone, name: 'Olena' }],
      messages: [textMessage(scene.phone, 'How many vacation days do I get?', id)],
    });
    const answers = await Promise.all(
      [1, 2, 3].map(() => postWebhook(ctx.app, payload, { appSecret: APP_SECRET })),
    );
    for (const res of answers) expect(res.json()).toEqual({ received: true });
    await waitFor('the inbound job to complete', async () => {
      const job = await ctx.container.queue.getJob('chanA-inbound', messageJobId(id));
      return job?.state === 'completed';
    });
    // Once more after the job finished: still acknowledged, still one message.
    expect((await postWebhook(ctx.app, payload, { appSecret: APP_SECRET })).statusCode).toBe(200);
    await waitFor('the repeat to be settled', async () => {
      const job = await ctx.container.queue.getJob('chanA-inbound', messageJobId(id));
      return job?.state === 'completed';
    });
    const rows = await messagesWithId(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ direction: 'inbound', content: 'How many vacation days do I get?' });
    expect(rows[0]!.metadata).toMatchObject({ senderName: 'Olena' });
    const tasks = await ctx.container.db
      .select()
      .from(agentTasks)
      .where(eq(agentTasks.messageId, rows[0]!.id));
    expect(tasks).toHaveLength(1);
  });
});
