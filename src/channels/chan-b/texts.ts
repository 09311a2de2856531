import type { BotLanguage } from './updates.js';

/** What the bot writes itself, without the pipeline. */
export type BotText = 'greeting' | 'text_only' | 'feedback_thanks';

const TEXTS: Record<BotText, Record<BotLanguage, string>> = {
  greeting: {
    en: 'Hello! I am the company assistant. Write your question as a message and I will answer from the company’s knowledge. Some answers are checked by a colleague first, so they may take a little while.',
    uk: 'Вітаю! Я асистент компанії. Напишіть своє запитання повідомленням, і я відповім на основі знань компанії. Деякі відповіді спершу перевіряє колега, тож вони можуть надійти не одразу.',
    ru: 'Здравствуйте! Я ассистент компании. Напишите свой вопрос сообщением, и я отвечу на основе знаний компании. Некоторые ответы сначала проверяет коллега, поэтому они могут прийти не сразу.',
  },
  // The short toast a rating button press is answered with (answerCallbackQuery).
  feedback_thanks: {
    en: 'Thanks for the feedback!',
    uk: 'Дякую за відгук!',
    ru: 'Спасибо за отзыв!',
  },
  text_only: {
    en: 'Sorry, I can only read text messages. Please send your question as text.',
    uk: 'Вибачте, я читаю лише текстові повідомлення. Будь ласка, надішліть запитання текстом.',
    ru: 'Извините, я читаю только текстовые сообщения. Пожалуйста, отправьте вопрос текстом.',
  },
};

/** The text in the sender's language (Markdown, like a reply). */
export function botText(text: BotText, language: BotLanguage): string {
  return TEXTS[text][language];
}
