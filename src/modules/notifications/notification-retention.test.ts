import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { notifications } from '../../core/db/schema/index.js';
import { createNotificationRetention, NOTIFICATION_RETENTION_EVERY_MS } from './notification-retention.js';
import { NOTIFICATION_RETENTION_DAYS } from './notifications.service.js';

const ctx = useTestApp();
const DAY = 86_400_000;

describe('notification retention', () => {
  it('deletes rows read more than 90 days ago and keeps unread and recently read rows', async () => {
    expect(NOTIFICATION_RETENTION_DAYS).toBe(90);
    const { user } = await createUser(ctx.container);
    const now = new Date();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const rows = await ctx.container.db
      .insert(notifications)
      .values([
        { userId: user.id, type: 'system', title: 'old read', createdAt: ago(200), readAt: ago(120) },
        { userId: user.id, type: 'system', title: 'just past', createdAt: ago(95), readAt: ago(91) },
        { userId: user.id, type: 'system', title: 'old unread', createdAt: ago(400), readAt: null },
        { userId: user.id, type: 'system', title: 'old, read lately', createdAt: ago(200), readAt: ago(10) },
        { userId: user.id, type: 'system', title: 'recent read', createdAt: ago(2), readAt: ago(1) },
      ])
      .returning();

    // A slot of its own, far from the one a worker timer may have claimed.
    const deleted = await ctx.container.notifications.retention.runSlot(now.getTime() + 1000 * DAY);
    expect(deleted).toBe(2);
    const left = await ctx.container.db
      .select({ title: notifications.title })
      .from(notifications)
      .where(
        inArray(
          notifications.id,
          rows.map((r) => r.id),
        ),
      );
    expect(left.map((r) => r.title).sort()).toEqual(['old unread', 'old, read lately', 'recent read']);
  });

  it('runs once per time slot, whichever process ticks (a slot claim in the shared store)', async () => {
    const purges: string[] = [];
    const replica = (name: string) =>
      createNotificationRetention({
        kv: ctx.container.kv,
        purge: async () => {
          purges.push(name);
          return 0;
        },
      });
    const first = replica('first');
    const second = replica('second');
    const slotStart =
      (Math.floor(Date.now() / NOTIFICATION_RETENTION_EVERY_MS) + 2000) * NOTIFICATION_RETENTION_EVERY_MS;

    expect(await first.runSlot(slotStart)).toBe(0);
    expect(await second.runSlot(slotStart + 1)).toBeNull();
    expect(await first.runSlot(slotStart + NOTIFICATION_RETENTION_EVERY_MS - 1)).toBeNull();
    expect(purges).toEqual(['first']);

    expect(await second.runSlot(slotStart + NOTIFICATION_RETENTION_EVERY_MS)).toBe(0);
    expect(await first.runSlot(slotStart + NOTIFICATION_RETENTION_EVERY_MS)).toBeNull();
    expect(purges).toEqual(['first', 'second']);
  });
});
