import type { AuditWriter } from '../../core/audit/audit-hook.js';
import { assertCanManage } from '../../core/auth/access-guards.js';
import type { AccessStamps } from '../../core/auth/access-stamps.js';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import type { Database } from '../../core/db/client.js';
import { ConflictError, NotFoundError, ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { ChannelIdentitiesRepository, ChannelIdentityRow } from './channel-identities.repository.js';
import {
  CHANNEL_USER_ID_RULE,
  LINK_CHANNELS,
  type LinkChannel,
  normaliseChannelUserId,
} from './channel-user-id.js';
import type { IdentityLinker } from './identity-linker.js';
import { generateLinkCode, hashLinkCode, LINK_CODE_TTL_MS } from './link-codes.js';

export interface ChannelIdentitiesServiceDeps {
  db: Database;
  identities: ChannelIdentitiesRepository;
  users: UsersRepository;
  linker: IdentityLinker;
  audit: AuditWriter;
  /** Moved after a merge deletes a placeholder user, so its cached actor is dropped everywhere. */
  accessStamps: AccessStamps;
  /** A removed identity's open conversation is closed. */
  conversations: Pick<ConversationsRepository, 'closeOpenOfSender'>;
  /** The bot's username (Bot API getMe, cached), or null when channel B has no token or is unreachable. */
  botUsername(): Promise<string | null>;
}

const toIdentityResponse = (row: ChannelIdentityRow) => ({
  channel: row.channel as LinkChannel,
  channelUserId: row.channelUserId,
  createdAt: iso(row.createdAt)!,
});

/** Channel identities as administrators and employees manage them, and the employees' link codes. */
export function createChannelIdentitiesService(deps: ChannelIdentitiesServiceDeps) {
  const { db, identities, users, linker, audit } = deps;

  /** The user with their role; 404 when missing or outside the caller's departments. */
  async function loadVisible(actor: Actor, userId: string) {
    const found = await users.findWithRole(userId);
    return assertVisible(actor, found, (f) => f.user.departmentId, `User ${userId} not found`);
  }

  return {
    /**
     * The user's channel identities (caller holds canManageUsers).
     * @throws NotFoundError when the user is missing or outside the caller's departments.
     */
    async list(actor: Actor, userId: string) {
      await loadVisible(actor, userId);
      return { items: (await identities.listOfUser(userId)).map(toIdentityResponse) };
    },

    /**
     * Sets the user's identity on the channel (replacing an earlier one). An
     * identity a placeholder held moves to the user and the placeholder is
     * merged into the user (its conversations kept), audited as `merge-placeholder`.
     * @throws ValidationError for a channel user id the channel does not use.
     * @throws NotFoundError when the user is missing or out of scope.
     * @throws ForbiddenError when the user's role holds more access than the caller.
     * @throws ConflictError when another user who is not a placeholder holds the identity.
     */
    async set(actor: Actor, userId: string, channel: LinkChannel, rawChannelUserId: string) {
      const channelUserId = normaliseChannelUserId(channel, rawChannelUserId);
      if (!channelUserId) {
        throw new ValidationError([{ field: 'body.channelUserId', message: CHANNEL_USER_ID_RULE[channel] }]);
      }
      const { user, role } = await loadVisible(actor, userId);
      assertCanManage(actor, role);
      const result = await db.transaction((tx) => linker.link(user, channel, channelUserId, tx));
      if (result.kind === 'held') {
        throw new ConflictError(`The ${channel} identity ${channelUserId} belongs to another user`);
      }
      if (result.kind === 'linked' && result.mergedPlaceholderId) {
        await deps.accessStamps.bumpUser(result.mergedPlaceholderId);
        await audit.record({
          userId: actor.userId,
          action: 'merge-placeholder',
          entityType: 'users',
          entityId: userId,
          changes: {
            placeholderId: result.mergedPlaceholderId,
            channel,
            channelUserId,
            conversationsMoved: result.conversationsMoved,
          },
          ipAddress: null,
          userAgent: null,
        });
      }
      const [row] = (await identities.listOfUser(userId)).filter((i) => i.channel === channel);
      return toIdentityResponse(row!);
    },

    /**
     * Removes the user's identity on the channel; the sender's open conversation is closed.
     * @throws NotFoundError when the user is missing or out of scope, or has no identity on the channel.
     * @throws ForbiddenError when the user's role holds more access than the caller.
     */
    async remove(actor: Actor, userId: string, channel: LinkChannel) {
      const { role } = await loadVisible(actor, userId);
      assertCanManage(actor, role);
      await removeOf(userId, channel);
    },

    /** The caller's own channel identities. */
    async listMine(actor: Actor) {
      return { items: (await identities.listOfUser(actor.userId)).map(toIdentityResponse) };
    },

    /**
     * Removes the caller's own identity on the channel.
     * @throws NotFoundError when the caller has none there.
     */
    async removeMine(actor: Actor, channel: LinkChannel) {
      await removeOf(actor.userId, channel);
    },

    /**
     * Sets the channels where the caller receives approval requests (an
     * empty list turns them off); answers the stored list, chanA before chanB.
     * @throws ValidationError for a channel the caller holds no identity on.
     */
    async setMyApprovalChannels(actor: Actor, channels: LinkChannel[]) {
      const held = new Set((await identities.listOfUser(actor.userId)).map((row) => row.channel));
      const missing = channels.filter((channel) => !held.has(channel));
      if (missing.length > 0) {
        throw new ValidationError(
          missing.map((channel) => ({
            field: 'body.channels',
            message: `you have no ${channel} identity: link one first (POST /me/channel-link-codes)`,
          })),
        );
      }
      const approvalChannels = LINK_CHANNELS.filter((channel) => channels.includes(channel));
      await identities.setApprovalChannels(actor.userId, approvalChannels);
      // The user row is cached per request stamp (GET /me shows the list).
      await deps.accessStamps.bumpUser(actor.userId);
      return { approvalChannels };
    },

    /**
     * A one-time link code for the caller on the channel, valid 15 minutes,
     * replacing the caller's previous code there; only its hash is stored.
     * For chanB `deepLink` opens the bot with the code (absent when the
     * bot's username is unknown).
     */
    async createLinkCode(actor: Actor, channel: LinkChannel) {
      const code = generateLinkCode();
      const expiresAt = new Date(Date.now() + LINK_CODE_TTL_MS);
      await identities.replaceCode({
        userId: actor.userId,
        channel,
        codeHash: hashLinkCode(code),
        expiresAt,
      });
      const username = channel === 'chanB' ? await deps.botUsername() : null;
      return {
        code,
        expiresAt: expiresAt.toISOString(),
        ...(username ? { deepLink: `https://t.me/${username}?start=${code}` } : {}),
      };
    },
  };

  async function removeOf(userId: string, channel: LinkChannel) {
    const removed = await db.transaction(async (tx) => {
      const row = await identities.deleteOfUser(userId, channel, tx);
      if (row) {
        await deps.conversations.closeOpenOfSender(channel, row.channelUserId, tx);
        await identities.dropApprovalChannel(userId, channel, tx);
      }
      return row;
    });
    if (!removed) throw new NotFoundError(`User ${userId} has no ${channel} identity`);
    await deps.accessStamps.bumpUser(userId);
  }
}

export type ChannelIdentitiesService = ReturnType<typeof createChannelIdentitiesService>;
