import type { RagWeights } from '../../core/db/schema/knowledge.js';
import { splitSentences } from '../../core/llm/extractive-responder.js';
import { lexicalWords } from '../../core/llm/local-embedder.js';

/** Used when a knowledge base's weights are missing or add up to 0 (the documented default, 0.7 / 0.3). */
export const DEFAULT_RAG_WEIGHTS: RagWeights = { vector: 0.7, keyword: 0.3 };

/** A message that repeats a chunk's sentence word for word scores at least this (docs/knowledge.md). */
export const VERBATIM_FLOOR = 0.9;

/** Shortest sentence (in words) that counts as repeated word for word; shorter ones match by chance. */
export const VERBATIM_MIN_WORDS = 4;

/**
 * Whether the message repeats a sentence of a chunk word for word (case,
 * punctuation and spacing aside), or the chunk contains the whole message:
 * at least {@link VERBATIM_MIN_WORDS} words in a row in either case. The
 * answer is asked of each chunk; the message's words are read once.
 */
export function verbatimCheck(message: string): (chunkContent: string) => boolean {
  const messageWords = lexicalWords(message);
  if (messageWords.length < VERBATIM_MIN_WORDS) return () => false;
  const messageLine = ` ${messageWords.join(' ')} `;
  return (chunkContent) => repeatsIn(messageLine, chunkContent);
}

function repeatsIn(messageLine: string, chunkContent: string): boolean {
  const chunkLine = ` ${lexicalWords(chunkContent).join(' ')} `;
  if (chunkLine.includes(messageLine)) return true;
  return splitSentences(chunkContent).some((sentence) => {
    const words = lexicalWords(sentence);
    return words.length >= VERBATIM_MIN_WORDS && messageLine.includes(` ${words.join(' ')} `);
  });
}

/**
 * The final score of a chunk: the blended score, lifted to at least
 * {@link VERBATIM_FLOOR} (keeping the order among lifted chunks) when the
 * message repeats one of its sentences. The lift exists because a sentence's
 * cosine to a whole chunk shrinks as the chunk grows, while a word-for-word
 * quotation is the strongest evidence that the chunk answers the message.
 */
export function finalScore(blended: number, verbatim: boolean): number {
  return verbatim ? Math.max(blended, VERBATIM_FLOOR + (1 - VERBATIM_FLOOR) * blended) : blended;
}
