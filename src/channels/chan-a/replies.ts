import { guessLanguage } from '../../core/llm/extractive-responder.js';

export type ReplyLanguage = 'en' | 'uk' | 'ru';

/** Why a message gets a fixed reply instead of an assistant's answer. */
export type FixedReply =
  /** Audio, video, sticker, location, contacts, reaction or a type the platform does not name. */
  | 'unsupported'
  /** An image or document without a caption whose text could not be read. */
  | 'unreadable';

const TEXTS: Record<FixedReply, Record<ReplyLanguage, string>> = {
  unsupported: {
    en: 'Sorry, I can only read text messages, images and documents (PDF, DOCX or text files). Please send your question as text.',
    uk: 'Вибачте, я читаю лише текстові повідомлення, зображення та документи (PDF, DOCX або текстові файли). Будь ласка, надішліть запитання текстом.',
    ru: 'Извините, я читаю только текстовые сообщения, изображения и документы (PDF, DOCX или текстовые файлы). Пожалуйста, отправьте вопрос текстом.',
  },
  unreadable: {
    en: 'Sorry, I could not read any text in the file you sent. Please send your question as text, or a clearer image or document.',
    uk: 'Вибачте, мені не вдалося прочитати текст у надісланому файлі. Будь ласка, надішліть запитання текстом або чіткіше зображення чи документ.',
    ru: 'Извините, мне не удалось прочитать текст в отправленном файле. Пожалуйста, отправьте вопрос текстом или более чёткое изображение или документ.',
  },
};

/** The fixed reply in the employee's language. */
export function fixedReply(kind: FixedReply, language: ReplyLanguage): string {
  return TEXTS[kind][language];
}

const LANGUAGES: readonly string[] = ['en', 'uk', 'ru'];

/**
 * The language of a fixed reply: the employee's stored preference
 * (`preferences.language` of the profile) when it is en, uk or ru, else the
 * language of their last text message, else English.
 */
export function fixedReplyLanguage(preference: unknown, lastText: string | null): ReplyLanguage {
  if (typeof preference === 'string') {
    const code = preference.trim().toLowerCase().slice(0, 2);
    if (LANGUAGES.includes(code)) return code as ReplyLanguage;
  }
  return lastText ? guessLanguage(lastText) : 'en';
}
