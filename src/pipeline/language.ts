import { guessLanguage } from '../core/llm/extractive-responder.js';
import type { ReplyLanguage } from './steps/step-context.js';

const LANGUAGES: readonly ReplyLanguage[] = ['en', 'uk', 'ru'];

/**
 * The language of the reply: `persona.language` when it names en, uk or ru
 * (a namespace may fix its language), else the language of the employee's
 * message (core/text/language.ts: Latin en; Cyrillic uk or ru by telling
 * letters, then words only one of them writes, e.g. коли / когда).
 */
export function replyLanguage(text: string, personaLanguage: unknown): ReplyLanguage {
  if (typeof personaLanguage === 'string') {
    const fixed = personaLanguage.trim().toLowerCase().slice(0, 2);
    if ((LANGUAGES as readonly string[]).includes(fixed)) return fixed as ReplyLanguage;
  }
  return guessLanguage(text);
}
