import type { AfterCommit } from '../../core/after-commit.js';
import type { AuditEntryInput, AuditWriter } from '../../core/audit/audit-hook.js';
import type { Actor } from '../../core/auth/actor.js';
import type { Database, Transaction } from '../../core/db/client.js';
import { NotFoundError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { ApprovalTrust } from '../approvals/approval-trust.js';
import { notificationTexts } from '../notifications/notification-texts.js';
import type { NotificationsRepository } from '../notifications/notifications.repository.js';
import type { Recipients } from '../notifications/recipients.js';
import type { FeedbackRepository, RateableReply, ReplyFeedbackRow } from './feedback.repository.js';

export type FeedbackChannel = 'web' | 'chanA' | 'chanB';
export type Rating = 'up' | 'down';

/** The part of the approvals' trust (approval-trust.ts) a rating moves; it owns every trust rule. */
export type FeedbackTrust = Pick<ApprovalTrust, 'afterFeedback'>;

export interface FeedbackInput {
  messageId: string;
  /** Who rates: must be the employee of the reply's conversation. */
  userId: string;
  /** null removes the sender's rating. */
  rating: Rating | null;
  comment?: string | null;
  /** Where the rating came from; the reply's conversation must be on this channel. */
  channel: FeedbackChannel;
}

/** What a rating came to: `ignored` when the message is not an assistant reply of the sender's conversation. */
export type FeedbackOutcome =
  | { status: 'stored'; feedback: ReplyFeedbackRow }
  | { status: 'removed' | 'unchanged'; feedback: null }
  | { status: 'ignored'; feedback: null };

export interface FeedbackServiceDeps {
  db: Database;
  feedback: FeedbackRepository;
  recipients: Pick<Recipients, 'withPermission'>;
  notifications: Pick<NotificationsRepository, 'insertLocalised'>;
  /** After the commit: publishes `notification.created` for the rows written (pipeline delivery's publish). */
  publish(effects: AfterCommit): Promise<void>;
  audit: AuditWriter;
  /** The approvals' trust; null leaves trust alone (a deployment without it). */
  trust: FeedbackTrust | null;
}

const SNIPPET = 200;
const snippet = (text: string) => (text.length > SNIPPET ? `${text.slice(0, SNIPPET - 1)}…` : text);

/** The web answer of a stored rating. */
function toFeedback(row: ReplyFeedbackRow) {
  return {
    messageId: row.messageId,
    rating: row.rating as Rating,
    comment: row.comment,
    updatedAt: iso(row.updatedAt),
  };
}

/**
 * Employees' ratings of assistant replies, from the web chat, channel A reactions and channel B
 * buttons or reactions: one per reply and sender, a new rating replacing the old.
 */
export function createFeedbackService(deps: FeedbackServiceDeps) {
  const { db, feedback, recipients, notifications, trust, audit } = deps;

  /** The reply when the sender may rate it: an assistant reply of their own conversation on `channel`. */
  function rateable(reply: RateableReply | null, input: FeedbackInput): reply is RateableReply {
    return reply !== null && reply.userId === input.userId && reply.conversationChannel === input.channel;
  }

  /** The approvers' `system` notifications of a "down" (the rater is not told of their own rating). */
  async function notifyDown(tx: Transaction, reply: RateableReply, input: FeedbackInput) {
    const approvers = await recipients.withPermission(reply.departmentId, 'canApprove', { tx });
    const text = notificationTexts.replyRatedDown({
      employeeName: reply.userName,
      comment: input.comment ?? null,
      snippet: snippet(reply.content),
    });
    return notifications.insertLocalised(
      approvers
        .filter((userId) => userId !== input.userId)
        .map((userId) => ({
          userId,
          type: 'system',
          text,
          entityType: 'message',
          entityId: reply.messageId,
        })),
      tx,
    );
  }

  async function apply(tx: Transaction, input: FeedbackInput) {
    const effects: AfterCommit = { jobs: [], notifications: [] };
    const later: AuditEntryInput[] = [];
    const reply = await feedback.findReply(input.messageId, tx);
    if (!rateable(reply, input))
      return { outcome: { status: 'ignored', feedback: null } as const, effects, later };
    await feedback.lockReply(reply.messageId, tx);
    const previous = (await feedback.find(reply.messageId, input.userId, tx))?.rating ?? null;
    let outcome: FeedbackOutcome;
    if (input.rating === null) {
      if (previous === null)
        return { outcome: { status: 'unchanged', feedback: null } as const, effects, later };
      await feedback.remove(reply.messageId, input.userId, tx);
      outcome = { status: 'removed', feedback: null };
    } else {
      const row = await feedback.upsert(
        {
          messageId: reply.messageId,
          userId: input.userId,
          rating: input.rating,
          comment: input.comment ?? null,
          channel: input.channel,
        },
        tx,
      );
      outcome = { status: 'stored', feedback: row };
    }
    if (previous === input.rating) return { outcome, effects, later };
    // Only the assistant's own decisions are trust evidence: an approved reply was a human's.
    if (trust && reply.approvalId === null && reply.namespaceId && reply.intent) {
      const moved = await trust.afterFeedback(tx, {
        namespaceId: reply.namespaceId,
        intentName: reply.intent,
        messageId: reply.messageId,
        departmentId: reply.departmentId,
        rating: input.rating,
        actorUserId: input.userId,
      });
      effects.notifications.push(...moved.notifications);
      later.push(...moved.audit);
    }
    if (input.rating === 'down') effects.notifications.push(...(await notifyDown(tx, reply, input)));
    return { outcome, effects, later };
  }

  /**
   * Records `input.userId`'s rating of reply `input.messageId` (`rating` null removes it), in
   * one transaction with the reply locked, so ratings of one reply apply one after another.
   * Only an assistant reply (an outbound message an agent task produced) of the rater's own
   * conversation on `input.channel` can be rated; anything else is `ignored`, nothing written.
   * When the rating changes on an auto-sent reply whose task has a namespace and an intent,
   * the trust hook runs in the same transaction. A "down" that was not a "down" before
   * notifies the department's approvers. Notifications are published and the trust hook's
   * audit entries recorded after the commit.
   */
  async function recordFeedback(input: FeedbackInput): Promise<FeedbackOutcome> {
    const { outcome, effects, later } = await db.transaction((tx) => apply(tx, input));
    await deps.publish(effects);
    for (const entry of later) await audit.record(entry);
    return outcome;
  }

  return {
    recordFeedback,

    /**
     * A rating given on a platform (a reaction, a button) to the reply it knows as
     * `platformMessageId`, by the user the channel resolved the sender to; as
     * {@link recordFeedback}, `ignored` when no assistant reply of the sender's own
     * conversation has that id. `recipient` narrows to a conversation with that channel
     * user id (channel B's message ids count per chat).
     */
    async recordPlatformFeedback(input: {
      channel: 'chanA' | 'chanB';
      platformMessageId: string;
      recipient?: string | null;
      userId: string;
      rating: Rating | null;
    }): Promise<FeedbackOutcome> {
      const reply = await feedback.findReplyByPlatformId(
        input.channel,
        input.platformMessageId,
        input.recipient ?? null,
      );
      if (!reply) return { status: 'ignored', feedback: null };
      return recordFeedback({
        messageId: reply.messageId,
        userId: input.userId,
        rating: input.rating,
        channel: input.channel,
      });
    },

    /**
     * The caller's rating of an assistant reply of their own web conversation; a second rating
     * replaces the first.
     * @throws NotFoundError for any other message: another user's, an inbound one, a missing id.
     */
    async rateWebReply(actor: Actor, messageId: string, body: { rating: Rating; comment?: string }) {
      const outcome = await recordFeedback({
        messageId,
        userId: actor.userId,
        rating: body.rating,
        comment: body.comment ?? null,
        channel: 'web',
      });
      if (outcome.status !== 'stored') throw new NotFoundError(`Message ${messageId} not found`);
      return toFeedback(outcome.feedback);
    },

    /** The ratings of the reply approval `approvalId` released, for the approval detail. */
    async ofApproval(approvalId: string) {
      const rows = await feedback.ofApproval(approvalId);
      return rows.map((row) => ({
        userId: row.userId,
        rating: row.rating as Rating,
        comment: row.comment,
        channel: row.channel as FeedbackChannel,
        updatedAt: iso(row.updatedAt),
      }));
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
