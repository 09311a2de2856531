import { NO_ANSWER_TEXTS } from './extractive-responder.js';

/** The fixed answer to a message that is itself a prompt injection; no model sees such a message. */
export const INJECTION_REFUSAL = {
  en: 'I cannot help with this request: it tries to change or reveal my instructions. A colleague will review it.',
  ru: 'Я не могу выполнить этот запрос: он пытается изменить или раскрыть мои инструкции. Коллега рассмотрит его.',
  uk: 'Я не можу виконати цей запит: він намагається змінити або розкрити мої інструкції. Колега його розгляне.',
} as const;

const NON_ANSWERS = new Set<string>([...NO_ANSWER_TEXTS, ...Object.values(INJECTION_REFUSAL)]);

/**
 * Whether a draft answers nothing whatever its sources: the offline responder's no-answer
 * replies or the injection refusal, in any language. Migration 0023 lists the same texts.
 */
export function isNonAnswer(text: string): boolean {
  return NON_ANSWERS.has(text.trim());
}
