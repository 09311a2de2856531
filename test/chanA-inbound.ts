import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Container } from '../src/container.js';
import { agentTasks, approvals, messages } from '../src/core/db/schema/index.js';
import { TEST_APP_SECRET } from './chanA-app.js';
import { postWebhook, webhookPayload } from './fakes/chanA-webhooks.js';
import { waitFor } from './pipeline-factories.js';

/**
 * Posts one message from `phone` to the channel A webhook, signed with
 * {@link TEST_APP_SECRET} as the platform signs it; expects it accepted.
 */
export async function sendChanAMessage(
  app: FastifyInstance,
  phone: string,
  message: Record<string, unknown>,
  name = 'Olena',
): Promise<void> {
  const res = await postWebhook(
    app,
    webhookPayload({ contacts: [{ waId: phone, name }], messages: [message] }),
    {
      appSecret: TEST_APP_SECRET,
    },
  );
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ received: true });
}

/** Waits for the stored inbound channel A message with the platform id `id`. */
export function chanAInboundRow(container: Container, id: string) {
  return waitFor(
    `the inbound message ${id}`,
    async () => {
      const [row] = await container.db
        .select()
        .from(messages)
        .where(and(eq(messages.channel, 'chanA'), eq(messages.channelMessageId, id)));
      return row;
    },
    60_000,
  );
}

/** Waits for the approval of the task made from the inbound channel A message with the platform id `id`. */
export function chanAApprovalOf(container: Container, id: string) {
  return waitFor(
    'the pending approval',
    async () => {
      const [inbound] = await container.db
        .select()
        .from(messages)
        .where(and(eq(messages.channel, 'chanA'), eq(messages.channelMessageId, id)));
      if (!inbound) return null;
      const [task] = await container.db.select().from(agentTasks).where(eq(agentTasks.messageId, inbound.id));
      if (!task) return null;
      const [row] = await container.db.select().from(approvals).where(eq(approvals.taskId, task.id));
      return row;
    },
    60_000,
  );
}
