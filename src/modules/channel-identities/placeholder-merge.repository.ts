import { sql } from 'drizzle-orm';
import type { DbExecutor } from '../../core/db/client.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import type { NotificationsRepository } from '../notifications/notifications.repository.js';

/**
 * Merging a placeholder user (created from a channel for an unlinked
 * sender) into the real user the sender turned out to be. Unlike other
 * repositories it writes every table that references a user: a merge is
 * one re-parenting of the placeholder's rows, which must happen in one
 * transaction or not at all, and nothing else in the service moves rows
 * between users. Conversations and notifications are moved by their own
 * writers (their repositories, passed in), in the same transaction.
 */
export function createPlaceholderMerge(deps: {
  conversations: Pick<ConversationsRepository, 'reassignUser'>;
  notifications: Pick<NotificationsRepository, 'reassignUser'>;
}) {
  return {
    /**
     * Moves everything of `placeholderId` to `targetId` inside `tx`:
     * conversations (with their messages, tasks and approvals, which hang
     * on the conversation), notifications, audit entries, first-intent
     * records, documents, templates and generations, and the channel
     * identities the target has no record of on that channel; then deletes
     * the placeholder (its profile, codes and leftover identities go with
     * it by cascade). A conversation of the placeholder still open in
     * another department than the target's is closed, so the sender's next
     * message opens one routed by the target's department.
     * Answers how many conversations moved.
     */
    async merge(placeholderId: string, target: { id: string; departmentId: string }, tx: DbExecutor) {
      const from = sql`${placeholderId}::uuid`;
      const to = sql`${target.id}::uuid`;
      const moved = await deps.conversations.reassignUser(placeholderId, target, tx);
      await deps.notifications.reassignUser(placeholderId, target.id, tx);
      await tx.execute(sql`UPDATE audit_logs SET user_id = ${to} WHERE user_id = ${from}`);
      await tx.execute(sql`UPDATE intent_interactions p SET user_id = ${to} WHERE p.user_id = ${from}
        AND NOT EXISTS (SELECT 1 FROM intent_interactions t WHERE t.user_id = ${to}
          AND t.namespace_id = p.namespace_id AND t.intent_name = p.intent_name)`);
      await tx.execute(sql`UPDATE documents SET uploaded_by_id = ${to} WHERE uploaded_by_id = ${from}`);
      await tx.execute(
        sql`UPDATE document_templates SET created_by_id = ${to} WHERE created_by_id = ${from}`,
      );
      await tx.execute(sql`UPDATE document_generations SET user_id = ${to} WHERE user_id = ${from}`);
      await tx.execute(sql`UPDATE channel_identities p SET user_id = ${to} WHERE p.user_id = ${from}
        AND NOT EXISTS (SELECT 1 FROM channel_identities t WHERE t.user_id = ${to} AND t.channel = p.channel)`);
      await tx.execute(sql`DELETE FROM users WHERE id = ${from} AND is_placeholder`);
      return { conversations: moved.length };
    },
  };
}

export type PlaceholderMerge = ReturnType<typeof createPlaceholderMerge>;
