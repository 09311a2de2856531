import type { DbExecutor } from '../../core/db/client.js';
import type { users } from '../../core/db/schema/index.js';
import { ConflictError } from '../../core/errors/app-errors.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import type { ChannelIdentitiesRepository } from './channel-identities.repository.js';
import type { LinkChannel } from './channel-user-id.js';
import type { PlaceholderMerge } from './placeholder-merge.repository.js';

type UserRow = typeof users.$inferSelect;

/** A user created from a channel for an unlinked sender, who never got a password (so never signed in). */
export const isPlaceholder = (user: Pick<UserRow, 'isPlaceholder' | 'passwordHash'>): boolean =>
  user.isPlaceholder && user.passwordHash === null;

/** What linking an identity came to. */
export type LinkResult =
  /** The identity now belongs to the user; `mergedPlaceholderId` when a placeholder held it and was merged. */
  | { kind: 'linked'; mergedPlaceholderId: string | null; conversationsMoved: number }
  /** The user held it already: nothing changed. */
  | { kind: 'unchanged' }
  /** Another real user holds it (or, on channel A, has it as their phone with no identity of their own). */
  | { kind: 'held'; holderId: string };

/**
 * The one linking step the administrators' PUT and the link codes share:
 * inside the caller's transaction, gives the identity (channel, channel user
 * id) to `target`, merging a placeholder that held it (by identity, or on
 * channel A by its phone number) into `target`. The target's earlier
 * identity on the channel is replaced, and its open conversation closed.
 */
export function createIdentityLinker(deps: {
  identities: ChannelIdentitiesRepository;
  merge: PlaceholderMerge;
  conversations: Pick<ConversationsRepository, 'closeOpenOfSender'>;
}) {
  const { identities, merge, conversations } = deps;
  return {
    /**
     * Links inside `tx` (see {@link createIdentityLinker}); answers `held`
     * without writing anything when a real user holds the identity.
     * @throws ConflictError when a concurrent link of the same sender won (the transaction rolls back).
     */
    async link(
      target: UserRow,
      channel: LinkChannel,
      channelUserId: string,
      tx: DbExecutor,
    ): Promise<LinkResult> {
      const holder = await identities.findHolder(channel, channelUserId, tx, { lock: true });
      if (holder?.user.id === target.id) return { kind: 'unchanged' };
      // On channel A a sender without an identity record is matched by phone: that user holds it too.
      const phoneHolder =
        !holder && channel === 'chanA' ? await identities.findByPhone(channelUserId, tx) : null;
      const held = holder?.user ?? (phoneHolder && phoneHolder.id !== target.id ? phoneHolder : null);
      if (held && !isPlaceholder(held)) return { kind: 'held', holderId: held.id };
      const previous = await identities.deleteOfUser(target.id, channel, tx);
      if (previous) await conversations.closeOpenOfSender(channel, previous.channelUserId, tx);
      let moved = 0;
      if (held) {
        moved = (await merge.merge(held.id, target, tx)).conversations;
      }
      await identities.insertIfAbsent(channel, channelUserId, target.id, tx);
      // A concurrent link of the same sender may have inserted first: undo this one (the throw rolls back).
      const now = await identities.findHolder(channel, channelUserId, tx);
      if (now?.user.id !== target.id) {
        throw new ConflictError(
          `The ${channel} identity ${channelUserId} was linked to another user meanwhile`,
        );
      }
      return { kind: 'linked', mergedPlaceholderId: held?.id ?? null, conversationsMoved: moved };
    },
  };
}

export type IdentityLinker = ReturnType<typeof createIdentityLinker>;
