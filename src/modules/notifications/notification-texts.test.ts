import { describe, expect, it } from 'vitest';
import { notificationLanguage, notificationTexts, renderForRecipients } from './notification-texts.js';

/** Each kind with sample parameters. */
const samples = Object.entries({
  replyAwaitingApproval: notificationTexts.replyAwaitingApproval('snippet'),
  escalatedReplyAwaitingReview: notificationTexts.escalatedReplyAwaitingReview('snippet'),
  replyEscalatedToYou: notificationTexts.replyEscalatedToYou({ actorName: 'Olena', reason: null }),
  overdueReplyEscalated: notificationTexts.overdueReplyEscalated(30),
  intentDemoted: notificationTexts.intentDemoted('vacation', 3),
  documentReady: notificationTexts.documentReady('Handbook', 2),
  documentFailed: notificationTexts.documentFailed('Handbook', 'no text found'),
  assistantReply: notificationTexts.assistantReply('snippet'),
  replyUndelivered: notificationTexts.replyUndelivered('chanA', 'blocked', 'snippet'),
});

describe('notification texts', () => {
  it.each(samples)('%s has a title of its own in uk and ru, parameters kept', (_kind, text) => {
    const en = text('en');
    for (const language of ['uk', 'ru'] as const) {
      const local = text(language);
      expect(local.title).not.toBe(en.title);
      expect(local.title.trim()).not.toBe('');
    }
    expect(text('uk').title).not.toBe(text('ru').title);
  });

  it('inserts the parameters in every language', () => {
    const text = notificationTexts.intentDemoted('vacation', 3);
    for (const language of ['en', 'uk', 'ru'] as const) {
      expect(text(language).title).toContain('vacation');
      expect(text(language).body).toContain('3');
    }
    expect(
      notificationTexts.replyEscalatedToYou({ actorName: 'Olena', reason: 'Check the dates' })('uk').body,
    ).toBe('Check the dates');
  });

  it('renders each row in its recipient’s language, English for null, unknown or missing', () => {
    const text = notificationTexts.assistantReply('Hi');
    const rows = ['a', 'b', 'c', 'd'].map((userId) => ({ userId, type: 'assistant_reply', text }));
    const languages = new Map<string, string | null>([
      ['a', 'uk'],
      ['b', 'ru'],
      ['c', null],
    ]);
    expect(renderForRecipients(rows, languages).map((row) => row.title)).toEqual([
      'Нова відповідь асистента',
      'Новый ответ ассистента',
      'New reply from the assistant',
      'New reply from the assistant',
    ]);
    expect(notificationLanguage('de')).toBe('en');
  });
});
