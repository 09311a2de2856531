import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TEST_APP_SECRET, useChanATestApp } from '../../../test/chanA-app.js';
import { chanAApprovalOf, sendChanAMessage } from '../../../test/chanA-inbound.js';
import { createUser } from '../../../test/factories.js';
import {
  postWebhook,
  statusUpdate,
  TEST_PHONE_NUMBER_ID,
  textMessage,
  wamid,
  webhookPayload,
} from '../../../test/fakes/chanA-webhooks.js';
import { createPipelineScene, VACATION_QUESTION, waitFor } from '../../../test/pipeline-factories.js';
import { messages } from '../../core/db/schema/index.js';

const chanA = useChanATestApp();

describe('channel A end to end: webhook → approval → platform', () => {
  it('turns a signed webhook into a pending approval; approving it sends the reply to the sender through Graph, and receipts update it', async () => {
    const scene = await createPipelineScene(chanA.ctx.container);
    const approver = await createUser(chanA.ctx.container, {
      role: 'approver',
      departmentId: scene.departmentId,
    });
    const id = wamid();
    await sendChanAMessage(chanA.ctx.app, scene.phone, textMessage(scene.phone, VACATION_QUESTION, id));

    // A first interaction with the intent always waits for a human.
    const approval = await chanAApprovalOf(chanA.ctx.container, id);
    expect(approval.status).toBe('pending');
    expect(chanA.graph.messageCalls()).toEqual([]);

    const approved = await chanA.ctx.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${approval.id}/approve`,
      headers: approver.headers,
      payload: {},
    });
    expect(approved.statusCode).toBe(200);

    const call = await waitFor('the Graph messages call', () =>
      chanA.graph.messageCalls().find((c) => c.body.to === scene.phone),
    );
    expect(call.path).toBe(`/${TEST_PHONE_NUMBER_ID}/messages`);
    expect(call.headers.authorization).toBe('Bearer test-access-token');
    expect(call.body).toMatchObject({ messaging_product: 'whatsapp', type: 'text' });
    expect(JSON.stringify(call.body)).toContain('twenty four days');

    const [outbound] = await chanA.ctx.container.db
      .select()
      .from(messages)
      .where(eq(messages.approvalId, approval.id));
    const platformId = await waitFor('the stored platform id', async () => {
      const [row] = await chanA.ctx.container.db.select().from(messages).where(eq(messages.id, outbound!.id));
      return row?.channelMessageId;
    });
    await postWebhook(chanA.ctx.app, webhookPayload({ statuses: [statusUpdate(platformId, 'read')] }), {
      appSecret: TEST_APP_SECRET,
    });
    await waitFor('the read receipt', async () => {
      const [row] = await chanA.ctx.container.db.select().from(messages).where(eq(messages.id, outbound!.id));
      return row?.status === 'read';
    });
  }, 120_000);
});
