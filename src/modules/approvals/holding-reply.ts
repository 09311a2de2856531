import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../core/db/client.js';
import { guessLanguage, type Language } from '../../core/text/language.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import type { ReplyRelease } from './approval-ports.js';
import type { ApprovalsRepository } from './approvals.repository.js';

/** The sweep's name on the scheduler (part of its slot claim key). */
export const HOLDING_REPLY_SWEEP_NAME = 'approvals-holding-reply';
/** How often the holding reply sweep runs (one time slot). */
export const HOLDING_REPLY_EVERY_MS = 60_000;
/** Holding replies sent per sweep at most; the rest follow in the next slots. */
const SWEEP_BATCH = 200;

const LANGUAGES: readonly Language[] = ['en', 'uk', 'ru'];
const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The default holding replies: with the promised wait when one is known, without it otherwise. */
const DEFAULT_TEXTS: Record<Language, (minutes: number | null) => string> = {
  en: (minutes) =>
    minutes === null
      ? 'A colleague is checking the answer to your question. You will get it as soon as possible.'
      : `A colleague is checking the answer to your question. Expect an answer within ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  uk: (minutes) =>
    minutes === null
      ? 'Колега перевіряє відповідь на ваше запитання. Ви отримаєте її якнайшвидше.'
      : `Колега перевіряє відповідь на ваше запитання. Очікуйте відповідь протягом ${minutes} хв.`,
  ru: (minutes) =>
    minutes === null
      ? 'Коллега проверяет ответ на ваш вопрос. Вы получите его как можно скорее.'
      : `Коллега проверяет ответ на ваш вопрос. Ожидайте ответа в течение ${minutes} мин.`,
};

const positiveInteger = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;

/**
 * The holding reply a namespace config asks for, in `language`; null when
 * the config sets none. `{minutes}` in a configured text becomes
 * `holdingReply.expectMinutes`, else `approvalSlaMinutes`; a configured text
 * that needs the number when neither is set gives way to the default text
 * without it (a message saying "within {minutes}" would read as broken).
 */
export function holdingReplyText(config: Record<string, unknown> | null, language: Language): string | null {
  const setting = config?.holdingReply;
  if (!setting || typeof setting !== 'object') return null;
  const { expectMinutes, text } = setting as { expectMinutes?: unknown; text?: unknown };
  const minutes = positiveInteger(expectMinutes) ?? positiveInteger(config?.approvalSlaMinutes);
  const custom = text && typeof text === 'object' ? (text as Record<string, unknown>)[language] : undefined;
  if (typeof custom === 'string' && custom.trim() !== '') {
    if (!custom.includes('{minutes}')) return custom;
    if (minutes !== null) return custom.replaceAll('{minutes}', String(minutes));
  }
  return DEFAULT_TEXTS[language](minutes);
}

/**
 * The employee's language: the one they chose (`users.language`), else the
 * language the waiting reply was written in (the approval's context, the
 * conversation's language as the pipeline read it), else that of their
 * question, else English.
 */
export function holdingReplyLanguage(due: {
  employeeLanguage: string | null;
  context: Record<string, unknown>;
  question: string | null;
}): Language {
  if (isLanguage(due.employeeLanguage)) return due.employeeLanguage;
  if (isLanguage(due.context.language)) return due.context.language;
  return due.question ? guessLanguage(due.question) : 'en';
}

/**
 * The holding reply (`config.holdingReply` of a namespace): once an
 * approval has waited `afterMinutes`, the employee is told, once, in their
 * language, that a colleague is checking the answer. The message goes
 * through the reply routing as the bot's own (no task, no approval), so it
 * reaches the employee's channel as any reply does. The recurring sweep
 * (scheduler, like the deadline sweep in approval-sla.ts) claims each
 * approval in the transaction that writes the message, only while it still
 * waits and has had none: a decision that commits first (its reply is on
 * its way) leaves nothing to claim, and a repeated sweep sends nothing more.
 */
export function createHoldingReply(deps: {
  db: Database;
  logger: FastifyBaseLogger;
  approvals: ApprovalsRepository;
  conversations: Pick<ConversationsRepository, 'findConversation'>;
  release: ReplyRelease;
}) {
  const { db, logger, approvals, conversations, release } = deps;

  /** Writes the holding reply of one due approval; false when it no longer waits or had one. */
  async function send(id: string, content: string, now: Date): Promise<boolean> {
    const effects = await db.transaction(async (tx) => {
      const claimed = await approvals.claimHoldingReply(id, now, tx);
      if (!claimed) return null;
      const conversation = await conversations.findConversation(claimed.conversationId, tx);
      // An approval's conversation cannot go away under it (the approval would be deleted with it).
      if (!conversation) throw new Error(`the conversation of approval ${id} is missing`);
      const written = await release.deliverReply(tx, {
        conversation,
        taskId: null,
        approvalId: null,
        content,
      });
      return written.effects;
    });
    if (!effects) return false;
    await release.publish(effects);
    return true;
  }

  /**
   * Sends the holding reply of every approval due at `now` (the scheduler
   * passes nothing: the real clock); answers the ids of the approvals whose
   * employee was told. One approval's failure is logged and does not stop
   * the others; it is tried again at the next sweep.
   */
  async function run(now = new Date()): Promise<string[]> {
    const sent: string[] = [];
    for (const due of await approvals.holdingReplyDue(now, SWEEP_BATCH)) {
      const content = holdingReplyText(due.config, holdingReplyLanguage(due));
      if (content === null) continue;
      try {
        if (await send(due.id, content, now)) sent.push(due.id);
      } catch (error) {
        logger.error({ err: error, approvalId: due.id }, 'holding reply: sending failed');
      }
    }
    return sent;
  }

  return { name: HOLDING_REPLY_SWEEP_NAME, everyMs: HOLDING_REPLY_EVERY_MS, run };
}

export type HoldingReply = ReturnType<typeof createHoldingReply>;
