import { continues, passageEvidence, questionUnits, type SentenceEvidence } from '../text/answer-evidence.js';
import type { Language } from '../text/language.js';
import { guessLanguage } from '../text/language.js';
import type { ChatProvider, ContextPassage } from './llm.js';
import { lexicalWords } from './local-embedder.js';

export { splitSentences } from '../text/answer-evidence.js';
export { guessLanguage } from '../text/language.js';

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

/** The offline responder's no-answer replies, in every language: drafts that answer nothing. */
export const NO_ANSWER_TEXTS: readonly string[] = Object.values(TEXTS).flatMap((t) => [
  t.notFound,
  t.noGoodAnswer,
]);

/**
 * Below this best passage score the passages are too far from the question
 * to quote: the same bar under which the assistant's confidence sends a reply
 * to a human (docs/knowledge.md).
 */
export const MIN_ANSWER_SCORE = 0.7;

const MAX_PASSAGES = 3;
/** Sentence groups quoted at most (a group: a sentence and the neighbour it runs on into). */
const MAX_GROUPS = 2;
const MAX_SENTENCE_CHARS = 400;
/** A second group is quoted only when it holds nearly as much of the question as the best one. */
const SECOND_GROUP_SHARE = 0.8;

/**
 * The offline responder (no LLM_API_KEY): the reply is built from the best
 * retrieved passages, never invented. Each sentence of the top three
 * passages is scored by the share of the question's content words it holds
 * (by stem or by workplace concept, in any of en/uk/ru) and by numbers; the
 * best sentence of the most confident passage is quoted, with the next one
 * when that runs on from it (or the one before when the best leans on it),
 * and a second sentence only when it answers nearly as well. Heading text glued to a sentence is cut
 * off. The Sources line names `<title> › <heading path>` of the passages
 * quoted. Without passages it says that nothing was found, and when the
 * best passage's confidence is below {@link MIN_ANSWER_SCORE} that no good
 * answer was found rather than quoting unrelated text, in the question's
 * language (English, Russian or Ukrainian).
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
        usage: {
          inputTokens: inputWords,
          outputTokens: outputWords,
          totalTokens: inputWords + outputWords,
          known: true,
        },
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
  const groups = sentenceGroups(question, top);
  // The answer comes from the most confident passage (its confidence already read its best
  // sentence); the others may add a second sentence.
  const best = groups.find((g) => g.passageRank === 0);
  if (!best) return TEXTS[language].notFound;
  const chosen = [best];
  for (const group of groups) {
    if (group === best) continue;
    if (chosen.length >= MAX_GROUPS) break;
    const addsWords = [...group.matched].some((i) => !best.matched.has(i));
    const overlaps = chosen.some(
      (c) => c.passageRank === group.passageRank && Math.abs(c.position - group.position) <= 1,
    );
    const confident = (top[group.passageRank]?.score ?? 0) >= MIN_ANSWER_SCORE;
    if (group.score >= SECOND_GROUP_SHARE * best.score && confident && addsWords && !overlaps)
      chosen.push(group);
  }
  chosen.sort((a, b) => a.passageRank - b.passageRank || a.position - b.position);
  const body = chosen.map((g) => g.sentences.map(clip).join(' ')).join(' ');
  const cited = [...new Set(chosen.map((g) => g.passageRank))].map((rank) => citation(top[rank]!));
  return `${body}\n\n${TEXTS[language].sources}: ${[...new Set(cited)].join('; ')}`;
}

interface SentenceGroup {
  sentences: string[];
  passageRank: number;
  position: number;
  matched: Set<number>;
  coverage: number;
  score: number;
}

/**
 * Candidate quotations, best first: each sentence that holds something of
 * the question, joined with its neighbour when one runs on into the other.
 * Score: the sentence's coverage, half of what its neighbour adds, a little
 * more for a number when the question asks how many / how much / when or
 * holds one, and the passage's own confidence as a tie-break.
 */
function sentenceGroups(question: string, top: readonly ContextPassage[]): SentenceGroup[] {
  const units = questionUnits(question);
  const wantsNumber = units.some((u) => u.number) || ASKS_AMOUNT.test(question);
  const groups: SentenceGroup[] = [];
  top.forEach((passage, passageRank) => {
    const sentences = passageEvidence(units, passage).sentences;
    sentences.forEach((sentence, i) => {
      if (sentence.heading || lexicalWords(sentence.text).length === 0) return;
      const members: SentenceEvidence[] = [sentence];
      const next = sentences[i + 1];
      const previous = sentences[i - 1];
      if (next && !next.heading && continuesInto(sentence.text, next.text)) members.push(next);
      if (previous && !previous.heading && continuesInto(previous.text, sentence.text))
        members.unshift(previous);
      const matched = new Set(members.flatMap((m) => [...m.matched]));
      const coverage = units.length === 0 ? 0 : matched.size / units.length;
      const numberBonus = wantsNumber && members.some((m) => m.hasNumber) ? 0.15 : 0;
      groups.push({
        sentences: members.map((m) => m.text),
        passageRank,
        position: members[0]!.position,
        matched,
        coverage,
        score: sentence.coverage + 0.5 * (coverage - sentence.coverage) + numberBonus + 0.05 * passage.score,
      });
    });
  });
  return groups
    .filter((g) => g.coverage > 0 || units.length === 0)
    .sort((a, b) => b.score - a.score || a.passageRank - b.passageRank || a.position - b.position);
}

/** A question about an amount, a time or a count: a sentence with a number answers it better. */
const ASKS_AMOUNT =
  /\b(?:how (?:many|much|long|often|soon)|when|what time|until|by what date)\b|скільки|коли|до якого|сколько|когда|до какого/iu;

/** `next` runs on from `sentence` (see `continues`), guarded against runaway quotes. */
function continuesInto(sentence: string, next: string): boolean {
  return continues(sentence, next) && sentence.length + next.length <= 2 * MAX_SENTENCE_CHARS;
}

/** `<title> › <heading path>`, the heading path without a first heading that repeats the title. */
function citation(passage: ContextPassage): string {
  const path = [...(passage.headingPath ?? [])].map((h) => h.trim()).filter(Boolean);
  if (path[0] && path[0].toLowerCase() === passage.title.trim().toLowerCase()) path.shift();
  return [passage.title, ...path].join(' › ');
}

function clip(sentence: string): string {
  return sentence.length <= MAX_SENTENCE_CHARS ? sentence : `${sentence.slice(0, MAX_SENTENCE_CHARS - 1)}…`;
}
