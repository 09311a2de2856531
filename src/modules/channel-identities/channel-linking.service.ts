import type { AuditWriter } from '../../core/audit/audit-hook.js';
import type { AccessStamps } from '../../core/auth/access-stamps.js';
import type { Database } from '../../core/db/client.js';
import type { users } from '../../core/db/schema/index.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { ChannelIdentitiesRepository } from './channel-identities.repository.js';
import { type LinkChannel, normaliseChannelUserId, type UserLanguage } from './channel-user-id.js';
import type { IdentityLinker } from './identity-linker.js';
import { hashLinkCode, LINK_CODE_TTL_MS } from './link-codes.js';
import { type LinkingText, linkingText } from './linking-texts.js';

type UserRow = typeof users.$inferSelect;

/** Wrong codes one sender may send within the window before attempts are refused unchecked. */
export const MAX_WRONG_CODES = 5;
/** The window of {@link MAX_WRONG_CODES}, from the first wrong code (a fixed window in the key-value store). */
export const WRONG_CODES_WINDOW_MS = LINK_CODE_TTL_MS;

/** What a link attempt came to, and the text that answers it. */
export interface LinkAttemptResult {
  outcome: 'linked' | 'already_linked' | 'invalid_code' | 'held' | 'throttled';
  text: string;
  /** The user the sender is linked to, when linked. */
  userId: string | null;
}

const USER_LANGUAGES: readonly string[] = ['en', 'uk', 'ru'];
const userLanguageOf = (user: Pick<UserRow, 'language'>): UserLanguage | null =>
  user.language && USER_LANGUAGES.includes(user.language) ? (user.language as UserLanguage) : null;

/**
 * The channels' side of linking: who a sender is before a message goes to
 * the pipeline, and the link codes employees send from their messenger.
 */
export function createChannelLinking(deps: {
  db: Database;
  kv: KeyValue;
  identities: ChannelIdentitiesRepository;
  linker: IdentityLinker;
  audit: AuditWriter;
  accessStamps: AccessStamps;
  users: Pick<UsersRepository, 'findById'>;
}) {
  const { db, kv, identities, linker, audit } = deps;
  const wrongCodesKey = (channel: LinkChannel, sender: string) => `link-codes:wrong:${channel}:${sender}`;

  return {
    /**
     * The user a channel sender is linked to, or null: a stored identity
     * first; on channel A then a user whose phone is the sender's number, for
     * whom the identity is recorded at this first match. `channelUserId` is
     * normalised as the channel stores it (an unusable one matches nobody).
     */
    async findUser(channel: LinkChannel, rawChannelUserId: string): Promise<UserRow | null> {
      const channelUserId = normaliseChannelUserId(channel, rawChannelUserId);
      if (!channelUserId) return null;
      const holder = await identities.findHolder(channel, channelUserId);
      if (holder) return holder.user;
      if (channel !== 'chanA') return null;
      const byPhone = await identities.findByPhone(channelUserId);
      if (byPhone) await identities.insertIfAbsent('chanA', channelUserId, byPhone.id);
      return byPhone;
    },

    /**
     * Links the sender to the user whose link code `code` is (null: the
     * message was a link attempt without a well-formed code). The code must
     * be for this channel, unexpired, and is used up by a successful link; a
     * placeholder the sender had is merged into the user (conversations
     * kept). After {@link MAX_WRONG_CODES} wrong codes from one sender within
     * {@link WRONG_CODES_WINDOW_MS}, attempts are refused without looking at
     * the code. The user's language is set from `messageLanguage` when it has
     * none; the answer is in the user's language (the message's otherwise).
     * A sender linked to another real user is refused and the code kept.
     */
    async redeem(input: {
      channel: LinkChannel;
      channelUserId: string;
      code: string | null;
      messageLanguage: UserLanguage;
    }): Promise<LinkAttemptResult> {
      const { channel, messageLanguage } = input;
      const answer = (
        outcome: LinkAttemptResult['outcome'],
        language: UserLanguage,
        userId: string | null = null,
      ) => ({
        outcome,
        text: linkingText(outcome as LinkingText, language),
        userId,
      });
      const channelUserId = normaliseChannelUserId(channel, input.channelUserId);
      const key = wrongCodesKey(channel, channelUserId ?? input.channelUserId);
      if (Number((await kv.get(key)) ?? 0) >= MAX_WRONG_CODES) return answer('throttled', messageLanguage);
      const result =
        channelUserId && input.code
          ? await db
              .transaction(async (tx) => {
                const code = await identities.takeCode(hashLinkCode(input.code!), tx);
                if (!code || code.channel !== channel || code.expiresAt.getTime() <= Date.now()) return null;
                const user = await deps.users.findById(code.userId, tx);
                if (!user?.isActive) return null;
                const linked = await linker.link(user, channel, channelUserId, tx);
                // Refused: the code stays usable (the transaction's delete is undone by the throw).
                if (linked.kind === 'held') throw new HeldByAnother(user);
                await identities.setLanguageIfUnset(user.id, messageLanguage, tx);
                return { user, linked };
              })
              .catch((error: unknown) => {
                if (error instanceof HeldByAnother) return error;
                throw error;
              })
          : null;
      if (result === null) {
        await kv.increment(key, WRONG_CODES_WINDOW_MS);
        return answer('invalid_code', messageLanguage);
      }
      if (result instanceof HeldByAnother)
        return answer('held', userLanguageOf(result.user) ?? messageLanguage);
      const { user, linked } = result;
      await deps.accessStamps.bumpUser(user.id);
      if (linked.kind === 'linked' && linked.mergedPlaceholderId)
        await deps.accessStamps.bumpUser(linked.mergedPlaceholderId);
      await audit.record({
        userId: user.id,
        action: 'link-channel-identity',
        entityType: 'users',
        entityId: user.id,
        changes: {
          channel,
          channelUserId,
          by: 'link-code',
          ...(linked.kind === 'linked' && linked.mergedPlaceholderId
            ? { placeholderId: linked.mergedPlaceholderId, conversationsMoved: linked.conversationsMoved }
            : {}),
        },
        ipAddress: null,
        userAgent: null,
      });
      const language = userLanguageOf(user) ?? messageLanguage;
      return answer(linked.kind === 'unchanged' ? 'already_linked' : 'linked', language, user.id);
    },

    /** How to link, for a sender linked to nobody (CHANNEL_UNKNOWN_SENDER=instruct). */
    instructions(language: UserLanguage): string {
      return linkingText('instructions', language);
    },
  };
}

/** A code whose sender is linked to another real user: undoes the code's use. */
class HeldByAnother extends Error {
  constructor(readonly user: UserRow) {
    super('the sender is linked to another user');
  }
}

export type ChannelLinking = ReturnType<typeof createChannelLinking>;
