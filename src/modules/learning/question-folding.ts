/**
 * When two employees' questions are "the same question" for the learning
 * suggestions (docs/learning.md): equal once normalised, or embeddings of the
 * same embedder at least {@link FOLD_SIMILARITY} apart in cosine.
 */

/** The cosine at or above which two questions fold into one suggestion (issue 41). */
export const FOLD_SIMILARITY = 0.95;

/** Characters an `answer` document title keeps of the question (`Q: …`). */
export const ANSWER_TITLE_QUESTION_CHARS = 80;

/**
 * A question as folding compares it: Unicode NFKC (full-width and composed
 * forms read alike), lower-cased without a locale (the same on every server),
 * punctuation and symbols removed, whitespace collapsed, trimmed.
 * `"  How MANY vacation-days?? "` → `"how many vacationdays"`.
 */
export function normalizeQuestion(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** Cosine similarity of two vectors; 0 when their lengths differ or either is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** What a new edit is compared by. */
export interface FoldKey {
  normalizedQuestion: string;
  embedding: readonly number[] | null;
  embedder: string | null;
}

/**
 * The open suggestion a new edit folds into: one with the same normalised
 * question first, else the most similar one whose embedding (same embedder)
 * reaches {@link FOLD_SIMILARITY}; null when none does.
 */
export function foldTarget<T extends FoldKey>(key: FoldKey, candidates: readonly T[]): T | null {
  const equal = candidates.find((c) => c.normalizedQuestion === key.normalizedQuestion);
  if (equal) return equal;
  if (!key.embedding || !key.embedder) return null;
  let best: T | null = null;
  let bestSimilarity = FOLD_SIMILARITY;
  for (const candidate of candidates) {
    if (!candidate.embedding || candidate.embedder !== key.embedder) continue;
    const similarity = cosineSimilarity(key.embedding, candidate.embedding);
    if (similarity >= bestSimilarity) {
      best = candidate;
      bestSimilarity = similarity;
    }
  }
  return best;
}

/**
 * The question-and-answer document an accepted `answer` suggestion becomes,
 * in Markdown: the question as its heading (`# Q: …`, the title when it is
 * short), the approved answer as its text. As a heading the question counts
 * for retrieval (the same question finds the passage with a high confidence)
 * but is never quoted itself, so a draft quotes the answer.
 */
export function answerDocument(question: string, answer: string): { title: string; markdown: string } {
  const oneLine = question.replace(/\s+/gu, ' ').trim();
  const cut =
    oneLine.length > ANSWER_TITLE_QUESTION_CHARS
      ? `${oneLine.slice(0, ANSWER_TITLE_QUESTION_CHARS - 1)}…`
      : oneLine;
  return { title: `Q: ${cut}`, markdown: `# Q: ${oneLine}\n\n${answer.trim()}\n` };
}
