import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { channelIdentities, channelLinkCodes, users } from '../../core/db/schema/index.js';
import type { LinkChannel, UserLanguage } from './channel-user-id.js';

export type ChannelIdentityRow = typeof channelIdentities.$inferSelect;
export type LinkCodeRow = typeof channelLinkCodes.$inferSelect;
type UserRow = typeof users.$inferSelect;

/** Channel identities and link codes (the tables this module owns), and the user fields linking sets. */
export function createChannelIdentitiesRepository(db: Database) {
  return {
    /** The user's identities, chanA before chanB. */
    async listOfUser(userId: string, tx: DbExecutor = db): Promise<ChannelIdentityRow[]> {
      return tx
        .select()
        .from(channelIdentities)
        .where(eq(channelIdentities.userId, userId))
        .orderBy(asc(channelIdentities.channel));
    },

    /**
     * Who holds the identity (channel, channel user id), with the identity;
     * with `lock` the identity row is locked for the caller's transaction.
     */
    async findHolder(
      channel: LinkChannel,
      channelUserId: string,
      tx: DbExecutor = db,
      options: { lock?: boolean } = {},
    ): Promise<{ identity: ChannelIdentityRow; user: UserRow } | null> {
      const query = tx
        .select({ identity: channelIdentities, user: users })
        .from(channelIdentities)
        .innerJoin(users, eq(users.id, channelIdentities.userId))
        .where(
          and(eq(channelIdentities.channel, channel), eq(channelIdentities.channelUserId, channelUserId)),
        )
        .limit(1);
      const [row] = options.lock ? await query.for('update', { of: channelIdentities }) : await query;
      return row ?? null;
    },

    /** The user whose phone (E.164 digits) is `digits`, if any. */
    async findByPhone(digits: string, tx: DbExecutor = db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(users.phone, digits)).limit(1);
      return row ?? null;
    },

    /** Records an identity unless the sender or the user already has one on the channel (a concurrent message). */
    async insertIfAbsent(channel: LinkChannel, channelUserId: string, userId: string, tx: DbExecutor = db) {
      await tx.insert(channelIdentities).values({ channel, channelUserId, userId }).onConflictDoNothing();
    },

    /** Removes the user's identity on the channel; answers the removed row, or null when there was none. */
    async deleteOfUser(userId: string, channel: LinkChannel, tx: DbExecutor = db) {
      const [row] = await tx
        .delete(channelIdentities)
        .where(and(eq(channelIdentities.userId, userId), eq(channelIdentities.channel, channel)))
        .returning();
      return row ?? null;
    },

    /** Sets the channels where the user receives approval requests. */
    async setApprovalChannels(userId: string, channels: LinkChannel[], tx: DbExecutor = db) {
      await tx.update(users).set({ approvalChannels: channels }).where(eq(users.id, userId));
    },

    /** Stops approval requests on a channel the user no longer holds an identity on. */
    async dropApprovalChannel(userId: string, channel: LinkChannel, tx: DbExecutor) {
      await tx
        .update(users)
        .set({ approvalChannels: sql`array_remove(${users.approvalChannels}, ${channel})` })
        .where(eq(users.id, userId));
    },

    /** Sets the user's language when they have none yet. */
    async setLanguageIfUnset(userId: string, language: UserLanguage, tx: DbExecutor) {
      await tx
        .update(users)
        .set({ language })
        .where(and(eq(users.id, userId), sql`${users.language} is null`));
    },

    /** Stores a code for the user and channel, replacing the previous one. */
    async replaceCode(values: { userId: string; channel: LinkChannel; codeHash: string; expiresAt: Date }) {
      await db
        .insert(channelLinkCodes)
        .values(values)
        .onConflictDoUpdate({
          target: [channelLinkCodes.userId, channelLinkCodes.channel],
          set: { codeHash: values.codeHash, expiresAt: values.expiresAt, createdAt: sql`now()` },
        });
    },

    /** Takes the code with this hash out (one use): answers the deleted row, or null when none. */
    async takeCode(codeHash: string, tx: DbExecutor): Promise<LinkCodeRow | null> {
      const [row] = await tx
        .delete(channelLinkCodes)
        .where(eq(channelLinkCodes.codeHash, codeHash))
        .returning();
      return row ?? null;
    },
  };
}

export type ChannelIdentitiesRepository = ReturnType<typeof createChannelIdentitiesRepository>;
