import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database, DbExecutor } from '../../core/db/client.js';
import { passwordResetTokens } from '../../core/db/schema/index.js';

export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;

export function createAuthRepository(db: Database) {
  return {
    async insertResetToken(
      values: { userId: string; tokenHash: string; expiresAt: Date },
      tx: DbExecutor = db,
    ): Promise<void> {
      await tx.insert(passwordResetTokens).values(values);
    },

    /** Marks an unused, unexpired token as used and answers it; null when none matches (single use). */
    async consumeResetToken(
      tokenHash: string,
      now: Date,
      tx: DbExecutor = db,
    ): Promise<PasswordResetTokenRow | null> {
      const [row] = await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        )
        .returning();
      return row ?? null;
    },
  };
}

export type AuthRepository = ReturnType<typeof createAuthRepository>;
