import type { ChatProvider, ContextPassage } from './llm.js';
import { lexicalWords } from './local-embedder.js';

type Language = 'en' | 'ru' | 'uk';

const TEXTS: Record<Language, { notFound: string; noGoodAnswer: string; sources: string }> = {
  en: {
    notFound: 'I could not find an answer to this in the knowledge base. A colleague will follow up.',
    noGoodAnswer:
      'I could not find a good answer to this in the knowledge base: the closest passages do not answer it.',
    sources: 'Sources',
  },
  ru: {
    notFound: 'Я не нашёл ответа на этот вопрос в базе знаний. Коллега свяжется с вами.',
    noGoodAnswer:
      'Я не нашёл в базе знаний хорошего ответа на этот вопрос: ближайшие фрагменты на него не отвечают.',
    sources: 'Источники',
  },
  uk: {
    notFound: 'Я не знайшов відповіді на це питання в базі знань. Колега зв’яжеться з вами.',
    noGoodAnswer:
      'Я не знайшов у базі знань доброї відповіді на це питання: найближчі фрагменти на нього не відповідають.',
    sources: 'Джерела',
  },
};

/**
 * Below this best passage score the passages are too far from the question
 * to quote: the same bar under which the assistant's confidence sends a reply
 * to a human (docs/knowledge.md).
 */
export const MIN_ANSWER_SCORE = 0.7;

/** Ukrainian-only letters decide Ukrainian; other Cyrillic reads as Russian; anything else English. */
export function guessLanguage(text: string): Language {
  if (/[іїєґІЇЄҐ]/u.test(text)) return 'uk';
  if (/[ыэъёЫЭЪЁ]/u.test(text)) return 'ru';
  if (/\p{Script=Cyrillic}/u.test(text)) return 'ru';
  return 'en';
}

const MAX_PASSAGES = 3;
const MAX_SENTENCES = 3;
const MAX_SENTENCE_CHARS = 400;

/**
 * The offline responder (no LLM_API_KEY): the reply is built from the best
 * retrieved passages, never invented. From the top three passages it takes up
 * to three sentences that share the most words with the question (ties go to
 * the better passage and the earlier sentence), keeps them in passage order
 * and names the passages' titles. Without passages it says that nothing was
 * found, and when the best passage scores below {@link MIN_ANSWER_SCORE} that
 * no good answer was found rather than quoting unrelated text, in the
 * question's language (English, Russian or Ukrainian).
 */
export function createExtractiveResponder(): ChatProvider {
  return {
    name: 'offline',
    model: 'extractive',
    async complete({ messages, passages = [] }) {
      const started = performance.now();
      const question = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const language = guessLanguage(question);
      const text = answerFrom(question, passages, language);
      const inputWords =
        messages.reduce((n, m) => n + lexicalWords(m.content).length, 0) +
        passages.reduce((n, p) => n + lexicalWords(p.content).length, 0);
      const outputWords = lexicalWords(text).length;
      return {
        text,
        usage: { inputTokens: inputWords, outputTokens: outputWords, totalTokens: inputWords + outputWords },
        provider: 'offline',
        model: 'extractive',
        latencyMs: Math.round(performance.now() - started),
      };
    },
  };
}

function answerFrom(question: string, passages: readonly ContextPassage[], language: Language): string {
  const top = [...passages].sort((a, b) => b.score - a.score).slice(0, MAX_PASSAGES);
  if (top.length === 0) return TEXTS[language].notFound;
  if (!(top[0]!.score >= MIN_ANSWER_SCORE)) return TEXTS[language].noGoodAnswer;
  const asked = new Set(lexicalWords(question));
  const candidates = top.flatMap((passage, passageRank) =>
    splitSentences(passage.content).map((sentence, position) => {
      const words = lexicalWords(sentence);
      const shared = new Set(words.filter((w) => asked.has(w))).size;
      return { sentence, passageRank, position, shared, words: words.length };
    }),
  );
  const useful = candidates.filter((c) => c.words > 0);
  const chosen = [...useful]
    .sort((a, b) => b.shared - a.shared || a.passageRank - b.passageRank || a.position - b.position)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.passageRank - b.passageRank || a.position - b.position);
  if (chosen.length === 0) return TEXTS[language].notFound;
  const body = chosen.map((c) => clip(c.sentence)).join(' ');
  const titles = [...new Set(chosen.map((c) => top[c.passageRank]?.title).filter(Boolean))];
  return `${body}\n\n${TEXTS[language].sources}: ${titles.join('; ')}`;
}

/** Sentences end at `.`, `!`, `?`, `…` followed by space, or at a blank line or line break. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((s) => s.replace(/\s+/gu, ' ').trim())
    .filter((s) => s.length > 0);
}

function clip(sentence: string): string {
  return sentence.length <= MAX_SENTENCE_CHARS ? sentence : `${sentence.slice(0, MAX_SENTENCE_CHARS - 1)}…`;
}
