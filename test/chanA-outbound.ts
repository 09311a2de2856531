import { eq } from 'drizzle-orm';
import type { Container } from '../src/container.js';
import { conversations, messages } from '../src/core/db/schema/index.js';
import { createApprovalFixture } from './approval-factories.js';
import { wamid } from './fakes/chanA-webhooks.js';

/**
 * An outbound channel A message as the sending side leaves it: the last part's platform id in
 * `channel_message_id`, every part's in `metadata.platformMessageIds`. With `phone`, the
 * conversation is that number's, so receipts and replies from it meet this message.
 */
export async function sentChanAMessage(
  container: Container,
  options: { parts?: number; status?: string; phone?: string } = {},
) {
  const fixture = await createApprovalFixture(container, { channel: 'chanA' });
  if (options.phone) {
    await container.db
      .update(conversations)
      .set({ channelUserId: options.phone })
      .where(eq(conversations.id, fixture.conversationId));
  }
  const ids = Array.from({ length: options.parts ?? 1 }, () => wamid());
  const [row] = await container.db
    .insert(messages)
    .values({
      conversationId: fixture.conversationId,
      channel: 'chanA',
      direction: 'outbound',
      content: 'You get twenty four days of paid vacation.',
      status: options.status ?? 'sent',
      approvalId: fixture.approval.id,
      channelMessageId: ids[ids.length - 1]!,
      metadata: { platformMessageIds: ids },
    })
    .returning();
  return { row: row!, ids };
}
