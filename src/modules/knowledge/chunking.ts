/**
 * Structure-aware chunking: extracted text arrives as blocks (headings and
 * paragraphs, with the page they came from); chunks follow sections, grow a
 * paragraph at a time up to a few hundred tokens, split long paragraphs by
 * sentences (and, failing that, by words), and repeat the last sentences of a
 * chunk at the start of the next one within the same section. Pure: no I/O.
 */

export type Block =
  | { kind: 'heading'; level: number; text: string; page?: number }
  | { kind: 'paragraph'; text: string; page?: number };

export interface ChunkMetadata {
  /** The headings above the chunk, outermost first. */
  headingPath: string[];
  /** 1-based page the chunk starts on (PDF documents). */
  page?: number;
  /** Page the chunk ends on, when it differs from `page`. */
  pageEnd?: number;
}

export interface Chunk {
  content: string;
  tokenCount: number;
  metadata: ChunkMetadata;
}

export interface ChunkingOptions {
  /** A chunk stops growing once the next piece would take it past this many tokens. */
  targetTokens: number;
  /** Tokens of the previous chunk's closing sentences repeated at the start of the next. */
  overlapTokens: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { targetTokens: 300, overlapTokens: 50 };

/**
 * A tokenizer-free estimate close to what BPE embedding models count: about
 * four ASCII characters per token, and about two for other scripts
 * (Cyrillic words split into more tokens).
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const char of text) {
    if (/\s/.test(char)) continue;
    if (char.charCodeAt(0) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4 + other / 2);
}

const sentenceSegmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** Sentences of a text, trimmed, empty ones dropped. */
export function splitSentences(text: string): string[] {
  return [...sentenceSegmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s.length > 0);
}

interface Piece {
  text: string;
  tokens: number;
  /** Starts a new paragraph (joined with a blank line) rather than continuing one (a space). */
  paragraphStart: boolean;
  page: number | undefined;
  /** Carried over from the previous chunk as overlap. */
  overlap: boolean;
}

/** Splits text into pieces of at most `maxTokens`: by sentences, then words, then characters. */
export function splitToFit(text: string, maxTokens: number): string[] {
  if (estimateTokens(text) <= maxTokens) return [text];
  const out: string[] = [];
  let current = '';
  const push = (unit: string) => {
    const candidate = current ? `${current} ${unit}` : unit;
    if (estimateTokens(candidate) <= maxTokens) {
      current = candidate;
      return;
    }
    if (current) out.push(current);
    current = unit;
  };
  for (const sentence of splitSentences(text)) {
    if (estimateTokens(sentence) <= maxTokens) {
      push(sentence);
      continue;
    }
    for (const word of sentence.split(/\s+/).filter(Boolean)) {
      if (estimateTokens(word) <= maxTokens) {
        push(word);
        continue;
      }
      // A "word" longer than a chunk (a hash, a run of symbols): cut it by characters.
      const size = Math.max(1, maxTokens * 2);
      for (let i = 0; i < word.length; i += size) push(word.slice(i, i + size));
    }
  }
  if (current) out.push(current);
  return out;
}

/** The closing sentences of `pieces` that fit in `budget` tokens, as overlap pieces. */
function overlapTail(pieces: readonly Piece[], budget: number): Piece[] {
  if (budget <= 0) return [];
  const text = pieces.map((p) => p.text).join(' ');
  const sentences = splitSentences(text);
  const tail: string[] = [];
  let tokens = 0;
  for (let i = sentences.length - 1; i >= 0; i--) {
    const sentence = sentences[i]!;
    const cost = estimateTokens(sentence);
    if (tokens + cost > budget) break;
    tail.unshift(sentence);
    tokens += cost;
  }
  // Never repeat the whole chunk: overlap is context, not a copy.
  if (tail.length === 0 || tail.length === sentences.length) return [];
  const lastPage = pieces.at(-1)?.page;
  return [{ text: tail.join(' '), tokens, paragraphStart: true, page: lastPage, overlap: true }];
}

function render(pieces: readonly Piece[]): string {
  let content = '';
  for (const piece of pieces) {
    if (content) content += piece.paragraphStart ? '\n\n' : ' ';
    content += piece.text;
  }
  return content;
}

/**
 * Turns blocks into chunks. A heading closes the running chunk and opens a
 * section; overlap never crosses a section boundary. Every chunk holds at most
 * `targetTokens` estimated tokens, overlap included.
 */
export function chunkBlocks(blocks: readonly Block[], options: ChunkingOptions = DEFAULT_CHUNKING): Chunk[] {
  const { targetTokens, overlapTokens } = options;
  const chunks: Chunk[] = [];
  const headings: { level: number; text: string }[] = [];
  let pieces: Piece[] = [];
  let tokens = 0;

  const emit = (): void => {
    if (!pieces.some((p) => !p.overlap)) return;
    const pages = pieces.map((p) => p.page).filter((p): p is number => p !== undefined);
    const metadata: ChunkMetadata = { headingPath: headings.map((h) => h.text) };
    if (pages.length > 0) {
      metadata.page = Math.min(...pages);
      const end = Math.max(...pages);
      if (end !== metadata.page) metadata.pageEnd = end;
    }
    const content = render(pieces);
    chunks.push({ content, tokenCount: estimateTokens(content), metadata });
  };

  const closeSection = (): void => {
    emit();
    pieces = [];
    tokens = 0;
  };

  for (const block of blocks) {
    const text = block.text.trim();
    if (!text) continue;
    if (block.kind === 'heading') {
      closeSection();
      while (headings.length > 0 && headings.at(-1)!.level >= block.level) headings.pop();
      headings.push({ level: block.level, text });
      continue;
    }
    // A paragraph that fits stays whole; a longer one is laid out sentence by sentence
    // (over-long sentences cut to leave room for overlap), so chunks fill evenly.
    const units =
      estimateTokens(text) <= targetTokens
        ? [text]
        : splitSentences(text).flatMap((s) => splitToFit(s, Math.max(1, targetTokens - overlapTokens)));
    units.forEach((unit, index) => {
      const cost = estimateTokens(unit);
      if (tokens + cost > targetTokens && pieces.some((p) => !p.overlap)) {
        emit();
        pieces = overlapTail(pieces, Math.min(overlapTokens, targetTokens - cost));
        tokens = pieces.reduce((sum, p) => sum + p.tokens, 0);
      }
      pieces.push({
        text: unit,
        tokens: cost,
        paragraphStart: index === 0,
        page: block.page,
        overlap: false,
      });
      tokens += cost;
    });
  }
  closeSection();
  return chunks;
}
