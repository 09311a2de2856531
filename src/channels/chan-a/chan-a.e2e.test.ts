import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChanATestApp, startChanATestApp, TEST_APP_SECRET } from '../../../test/chanA-app.js';
import { createUser } from '../../../test/factories.js';
import type { FakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import {
  postWebhook,
  statusUpdate,
  TEST_PHONE_NUMBER_ID,
  textMessage,
  wamid,
  webhookPayload,
} from '../../../test/fakes/chanA-webhooks.js';
import {
  createPipelineScene,
  type PipelineTestContext,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { agentTasks, approvals, messages } from '../../core/db/schema/index.js';

const APP_SECRET = TEST_APP_SECRET;

let graph: FakeGraphServer;
let ctx: PipelineTestContext;

let scene: ChanATestApp;

beforeAll(async () => {
  scene = await startChanATestApp();
  ({ graph, ctx } = scene);
});
afterAll(async () => {
  await scene?.close();
});

describe('channel A end to end: webhook → approval → platform', () => {
  it('turns a signed webhook into a pending approval; approving it sends the reply to the sender through Graph, and receipts update it', async () => {
    const scene = await createPipelineScene(ctx.container);
    const approver = await createUser(ctx.container, { role: 'approver', departmentId: scene.departmentId });
    const id = wamid();
    const res = await postWebhook(
      ctx.app,
      webhookPayload({
        contacts: [{ waId: scene.phone, name: 'Olena' }],
        messages: [textMessage(scene.phone, VACATION_QUESTION, id)],
      }),
      { appSecret: APP_SECRET },
    );
    expect(res.json()).toEqual({ received: true });

    // A first interaction with the intent always waits for a human.
    const approval = await waitFor(
      'the pending approval',
      async () => {
        const [inbound] = await ctx.container.db
          .select()
          .from(messages)
          .where(and(eq(messages.channel, 'chanA'), eq(messages.channelMessageId, id)));
        if (!inbound) return null;
        const [task] = await ctx.container.db
          .select()
          .from(agentTasks)
          .where(eq(agentTasks.messageId, inbound.id));
        if (!task) return null;
        const [row] = await ctx.container.db.select().from(approvals).where(eq(approvals.taskId, task.id));
        return row;
      },
      60_000,
    );
    expect(approval.status).toBe('pending');
    expect(graph.messageCalls()).toEqual([]);

    const approved = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${approval.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(approved.statusCode).toBe(200);

    const call = await waitFor('the Graph messages call', () =>
      graph.messageCalls().find((c) => c.body.to === scene.phone),
    );
    expect(call.path).toBe(`/${TEST_PHONE_NUMBER_ID}/messages`);
    expect(call.headers.authorization).toBe('Bearer test-access-token');
    expect(call.body).toMatchObject({ messaging_product: 'whatsapp', type: 'text' });
    expect(JSON.stringify(call.body)).toContain('twenty four days');

    const [outbound] = await ctx.container.db
      .select()
      .from(messages)
      .where(eq(messages.approvalId, approval.id));
    const platformId = await waitFor('the stored platform id', async () => {
      const [row] = await ctx.container.db.select().from(messages).where(eq(messages.id, outbound!.id));
      return row?.channelMessageId;
    });
    await postWebhook(ctx.app, webhookPayload({ statuses: [statusUpdate(platformId, 'read')] }), {
      appSecret: APP_SECRET,
    });
    await waitFor('the read receipt', async () => {
      const [row] = await ctx.container.db.select().from(messages).where(eq(messages.id, outbound!.id));
      return row?.status === 'read';
    });
  }, 120_000);
});
