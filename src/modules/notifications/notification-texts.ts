import type { notifications } from '../../core/db/schema/index.js';

/** The languages notifications are written in; a user without a language reads English. */
export type NotificationLanguage = 'en' | 'uk' | 'ru';

/** A notification's words in one language, as the row stores them. */
export interface RenderedNotification {
  title: string;
  body: string | null;
}

/**
 * A notification's text in every language: producers hand this over and
 * the code that writes the rows picks each recipient's language, so every
 * recipient of one event may read it differently.
 */
export type NotificationText = (language: NotificationLanguage) => RenderedNotification;

type NewNotification = typeof notifications.$inferInsert;

/** A row to write whose title and body are still to be put in the recipient's language. */
export type LocalisedNotification = Omit<NewNotification, 'title' | 'body'> & { text: NotificationText };

/** The stored language as notifications use it: en, uk or ru, and English for null or anything else. */
export function notificationLanguage(language: string | null | undefined): NotificationLanguage {
  return language === 'uk' || language === 'ru' ? language : 'en';
}

/**
 * The rows to insert, each in its recipient's language (`languages`: user
 * id → stored language, read in the writing transaction; a missing user
 * reads English).
 */
export function renderForRecipients(
  rows: readonly LocalisedNotification[],
  languages: ReadonlyMap<string, string | null>,
): NewNotification[] {
  return rows.map(({ text, ...row }) => ({
    ...row,
    ...text(notificationLanguage(languages.get(row.userId))),
  }));
}

const inEvery =
  (texts: Record<NotificationLanguage, RenderedNotification>): NotificationText =>
  (language) =>
    texts[language];

/**
 * Every text the service notifies with, one entry per kind, in en/uk/ru.
 * Parameters (a document's title, an intent, a snippet of a message, a
 * reason typed by a person or answered by a platform) are inserted as they
 * are, untranslated.
 */
export const notificationTexts = {
  /** `approval_pending` from the pipeline: a reply waits for an approver; the body is the employee's message. */
  replyAwaitingApproval: (snippet: string) =>
    inEvery({
      en: { title: 'Reply awaiting approval', body: snippet },
      uk: { title: 'Відповідь чекає на схвалення', body: snippet },
      ru: { title: 'Ответ ждёт одобрения', body: snippet },
    }),

  /** `approval_pending` from the pipeline for a persona-boundary escalation to a role. */
  escalatedReplyAwaitingReview: (snippet: string) =>
    inEvery({
      en: { title: 'Escalated reply awaiting review', body: snippet },
      uk: { title: 'Передана на розгляд відповідь чекає на перевірку', body: snippet },
      ru: { title: 'Переданный на рассмотрение ответ ждёт проверки', body: snippet },
    }),

  /** `approval_pending` to the approver a reply was escalated to; the body is the reason when one was given. */
  replyEscalatedToYou: (by: { actorName: string; reason: string | null }) =>
    inEvery({
      en: {
        title: 'Reply escalated to you for review',
        body: by.reason ?? `${by.actorName} escalated a reply awaiting approval`,
      },
      uk: {
        title: 'Вам передано відповідь на перевірку',
        body: by.reason ?? `${by.actorName} передає вам відповідь, що чекає на схвалення`,
      },
      ru: {
        title: 'Вам передан ответ на проверку',
        body: by.reason ?? `${by.actorName} передаёт вам ответ, который ждёт одобрения`,
      },
    }),

  /** `approval_pending` to the department heads when a reply was not decided within the namespace's deadline. */
  overdueReplyEscalated: (minutes: number) =>
    inEvery({
      en: { title: 'Overdue reply escalated for review', body: `Not decided within ${minutes} minutes` },
      uk: {
        title: 'Прострочену відповідь передано на перевірку',
        body: `Рішення не ухвалено протягом ${minutes} хв`,
      },
      ru: {
        title: 'Просроченный ответ передан на проверку',
        body: `Решение не принято в течение ${minutes} мин`,
      },
    }),

  /** `system` to the department heads when an intent loses its autonomy after `count` failures in a row. */
  intentDemoted: (intent: string, count: number) =>
    inEvery({
      en: {
        title: `Intent "${intent}" is no longer autonomous`,
        body: `${count} replies in a row were rejected or edited; every reply of this intent goes to a human again until it earns trust anew.`,
      },
      uk: {
        title: `Намір «${intent}» більше не автономний`,
        body: `Відхилених або виправлених відповідей поспіль: ${count}. Тепер кожну відповідь цього наміру знову перевіряє людина, доки він знову не заслужить довіру.`,
      },
      ru: {
        title: `Намерение «${intent}» больше не автономно`,
        body: `Отклонённых или исправленных ответов подряд: ${count}. Теперь каждый ответ этого намерения снова проверяет человек, пока оно заново не заслужит доверие.`,
      },
    }),

  /**
   * `system` to the department heads when, in the confidence trust mode, the lower bound of an
   * autonomous intent's clean-approval rate falls below `floorPercent`.
   */
  intentDemotedByRate: (intent: string, boundPercent: number, floorPercent: number) =>
    inEvery({
      en: {
        title: `Intent "${intent}" is no longer autonomous`,
        body: `Its clean-approval rate is now at least ${boundPercent} % with confidence, below ${floorPercent} %; every reply of this intent goes to a human again until it earns trust anew.`,
      },
      uk: {
        title: `Намір «${intent}» більше не автономний`,
        body: `Частка схвалених без змін відповідей тепер не менша за ${boundPercent} % з упевненістю, що нижче за ${floorPercent} %. Кожну відповідь цього наміру знову перевіряє людина, доки він знову не заслужить довіру.`,
      },
      ru: {
        title: `Намерение «${intent}» больше не автономно`,
        body: `Доля одобренных без правок ответов теперь не ниже ${boundPercent} % с уверенностью, что меньше ${floorPercent} %. Каждый ответ этого намерения снова проверяет человек, пока оно заново не заслужит доверие.`,
      },
    }),

  /**
   * `system` to the department's approvers when an employee rates an assistant reply "down";
   * the body is the employee's comment when they wrote one, else the start of the reply.
   */
  replyRatedDown: (by: { employeeName: string; comment: string | null; snippet: string }) =>
    inEvery({
      en: {
        title: `${by.employeeName} rated an assistant reply down`,
        body: by.comment ?? by.snippet,
      },
      uk: {
        title: `${by.employeeName} оцінює відповідь асистента як погану`,
        body: by.comment ?? by.snippet,
      },
      ru: {
        title: `${by.employeeName} оценивает ответ ассистента как плохой`,
        body: by.comment ?? by.snippet,
      },
    }),

  /** `document_ready` to the uploader once a document is indexed. */
  documentReady: (title: string, passages: number) =>
    inEvery({
      en: {
        title: `Document "${title}" is ready`,
        body: `${passages} ${passages === 1 ? 'passage was' : 'passages were'} indexed.`,
      },
      uk: { title: `Документ «${title}» готовий`, body: `Проіндексовано фрагментів: ${passages}.` },
      ru: { title: `Документ «${title}» готов`, body: `Проиндексировано фрагментов: ${passages}.` },
    }),

  /** `system` to the uploader when a document could not be processed; the body is the reason. */
  documentFailed: (title: string, reason: string) =>
    inEvery({
      en: { title: `Document "${title}" could not be processed`, body: reason },
      uk: { title: `Не вдалося обробити документ «${title}»`, body: reason },
      ru: { title: `Не удалось обработать документ «${title}»`, body: reason },
    }),

  /** `assistant_reply` to the employee when a web-channel reply is delivered; the body is a snippet of it. */
  assistantReply: (snippet: string) =>
    inEvery({
      en: { title: 'New reply from the assistant', body: snippet },
      uk: { title: 'Нова відповідь асистента', body: snippet },
      ru: { title: 'Новый ответ ассистента', body: snippet },
    }),

  /** `system` to the department's approvers when a channel could not deliver a reply for good. */
  replyUndelivered: (channel: string, reason: string, snippet: string) =>
    inEvery({
      en: { title: 'A reply could not be delivered', body: `${channel}: ${reason} — “${snippet}”` },
      uk: { title: 'Не вдалося доставити відповідь', body: `${channel}: ${reason} — «${snippet}»` },
      ru: { title: 'Не удалось доставить ответ', body: `${channel}: ${reason} — «${snippet}»` },
    }),
} as const;
