import { eq, type SQL, sql } from 'drizzle-orm';
import { type Database, type DbExecutor, rowsOf } from '../core/db/client.js';
import {
  channelIdentities,
  departments,
  employeeProfiles,
  namespaces,
  users,
} from '../core/db/schema/index.js';
import { rowFromJson } from '../core/db/sql-helpers.js';

export type UserRow = typeof users.$inferSelect;

/**
 * The id of the namespace a department's channel messages go to: the
 * department's `settings.defaultNamespaceId` when it names one of its
 * namespaces, otherwise its oldest namespace; null when it has none.
 */
export function routedNamespaceOf(departmentId: SQL): SQL {
  return sql`(SELECT n.id FROM ${namespaces} n JOIN ${departments} d ON d.id = n.department_id
    WHERE n.department_id = ${departmentId}
    ORDER BY n.id::text = d.settings ->> 'defaultNamespaceId' DESC NULLS LAST, n.created_at, n.id
    LIMIT 1)`;
}

/**
 * How a message's sender is found among the users: by id (web chat, whose
 * user is authenticated), by phone number (channel A, E.164 digits: a stored
 * channel A identity first, then `users.phone`) or by a stored channel
 * identity (channel B).
 */
export type SenderLookup =
  | { by: 'id'; userId: string }
  | { by: 'phone'; digits: string }
  | { by: 'identity'; channel: string; channelUserId: string };

/** The sender's user row, at most one, as a subquery (the inbound route reads it with the conversation). */
export function senderQuery(lookup: SenderLookup): SQL {
  switch (lookup.by) {
    case 'id':
      return sql`SELECT * FROM ${users} WHERE id = ${lookup.userId}::uuid LIMIT 1`;
    case 'phone':
      // A stored channel A identity wins over a phone match (docs/channels.md, linking).
      return sql`SELECT * FROM ${users} WHERE id = coalesce(
        (SELECT i.user_id FROM ${channelIdentities} i WHERE i.channel = 'chanA' AND i.channel_user_id = ${lookup.digits}),
        (SELECT p.id FROM ${users} p WHERE p.phone = ${lookup.digits} LIMIT 1)) LIMIT 1`;
    case 'identity':
      return sql`SELECT u.* FROM ${channelIdentities} i JOIN ${users} u ON u.id = i.user_id
        WHERE i.channel = ${lookup.channel} AND i.channel_user_id = ${lookup.channelUserId} LIMIT 1`;
  }
}

/** The channel senders behind conversations: who a sender is, and the placeholder users channels create. */
export function createSendersRepository(db: Database) {
  return {
    /** The user a message's sender is (see {@link senderQuery}, which the inbound statement reads too). */
    async findSender(lookup: SenderLookup): Promise<UserRow | null> {
      const [row] = rowsOf<{ sender: Record<string, unknown> }>(
        await db.execute(sql`SELECT row_to_json(s) AS sender FROM (${senderQuery(lookup)}) s`),
      );
      return row ? rowFromJson(users, row.sender) : null;
    },

    async findUserByEmail(email: string, tx: DbExecutor = db): Promise<UserRow | null> {
      const [row] = await tx.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
      return row ?? null;
    },

    /**
     * Creates a channel user (a placeholder: linking the sender later merges
     * it into the real user) with an empty profile; answers null when a
     * concurrent message created the same sender first (same email or phone).
     */
    async insertChannelUser(values: typeof users.$inferInsert, tx: DbExecutor): Promise<UserRow | null> {
      const [user] = await tx
        .insert(users)
        .values({ ...values, isPlaceholder: true })
        .onConflictDoNothing()
        .returning();
      if (!user) return null;
      await tx.insert(employeeProfiles).values({ userId: user.id }).onConflictDoNothing();
      return user;
    },

    async insertIdentity(channel: string, channelUserId: string, userId: string, tx: DbExecutor) {
      await tx.insert(channelIdentities).values({ channel, channelUserId, userId }).onConflictDoNothing();
    },
  };
}

export type SendersRepository = ReturnType<typeof createSendersRepository>;
