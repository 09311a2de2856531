/**
 * Structure-aware chunking: extracted text arrives as blocks (headings,
 * paragraphs, list items and table rows, with the page they came from);
 * chunks follow sections, grow a paragraph (or a list item, or a table row)
 * at a time up to a passage-sized target, split long paragraphs by sentences
 * (and, failing that, by words), and repeat the last sentences of a chunk at
 * the start of the next one within the same section. A list item or table
 * row is never cut unless it alone is over the target; a table continued in
 * the next chunk repeats its header row; a line introducing a list ("You
 * may take leave for:") moves with the list's first item. Pure: no I/O.
 */

/** A paragraph that is one item of a list, or one row of a table (cells joined with ` | `). */
export type BlockUnit = 'list-item' | 'table-row';

export type Block =
  | { kind: 'heading'; level: number; text: string; page?: number }
  | { kind: 'paragraph'; text: string; page?: number; unit?: BlockUnit };

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

/**
 * Passage-sized: a handbook section of two or three paragraphs stays whole,
 * a longer one splits near a paragraph boundary (docs/knowledge.md gives the
 * measurement behind the figures).
 */
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
  /** A list item or table row: joined to a neighbour of the same kind by one line break. */
  unit?: BlockUnit;
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

/**
 * The overlap carried into the next chunk, within `budget` tokens: the
 * closing sentences of prose, or the closing whole items of a list (a table
 * carries its header row instead, see chunkBlocks).
 */
function overlapTail(pieces: readonly Piece[], budget: number): Piece[] {
  if (budget <= 0) return [];
  const last = pieces.at(-1);
  if (last?.unit === 'table-row') return [];
  if (last?.unit === 'list-item') {
    const items: Piece[] = [];
    let tokens = 0;
    for (let i = pieces.length - 1; i >= 0 && pieces[i]!.unit === 'list-item'; i--) {
      if (tokens + pieces[i]!.tokens > budget) break;
      items.unshift({ ...pieces[i]!, overlap: true });
      tokens += pieces[i]!.tokens;
    }
    // Never repeat the whole chunk: overlap is context, not a copy.
    return items.length === pieces.length ? [] : items;
  }
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
  let previous: Piece | undefined;
  for (const piece of pieces) {
    if (content) {
      const sameList = piece.unit !== undefined && piece.unit === previous?.unit && piece.paragraphStart;
      content += sameList ? '\n' : piece.paragraphStart ? '\n\n' : ' ';
    }
    content += piece.text;
    previous = piece;
  }
  return content;
}

/** A paragraph that introduces what follows ("Leave may be taken for:"). */
const INTRODUCES = /:\s*$/;

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

  // The header row of the table being laid out, repeated when the table continues in a new chunk.
  let tableHeader: Piece | null = null;
  let previousUnit: BlockUnit | undefined;

  for (const block of blocks) {
    const text = block.text.trim();
    if (!text) continue;
    if (block.kind === 'heading') {
      closeSection();
      tableHeader = null;
      previousUnit = undefined;
      while (headings.length > 0 && headings.at(-1)!.level >= block.level) headings.pop();
      headings.push({ level: block.level, text });
      continue;
    }
    const unit = block.unit;
    const startsTable = unit === 'table-row' && previousUnit !== 'table-row';
    previousUnit = unit;
    // A paragraph, list item or row that fits stays whole; a longer one is laid out sentence by
    // sentence (over-long sentences cut to leave room for overlap), so chunks fill evenly.
    const units =
      estimateTokens(text) <= targetTokens
        ? [text]
        : splitSentences(text).flatMap((s) => splitToFit(s, Math.max(1, targetTokens - overlapTokens)));
    units.forEach((part, index) => {
      const cost = estimateTokens(part);
      if (tokens + cost > targetTokens && pieces.some((p) => !p.overlap)) {
        // A line introducing a list moves to the next chunk with the list's first item.
        const last = pieces.at(-1)!;
        const carried =
          unit === 'list-item' &&
          index === 0 &&
          !last.overlap &&
          last.unit === undefined &&
          INTRODUCES.test(last.text) &&
          pieces.filter((p) => !p.overlap).length > 1
            ? pieces.pop()!
            : null;
        emit();
        const budget = Math.min(overlapTokens, targetTokens - cost - (carried?.tokens ?? 0));
        const continuesTable = unit === 'table-row' && !startsTable && tableHeader !== null;
        pieces = carried
          ? []
          : continuesTable
            ? tableHeader!.tokens <= budget
              ? [{ ...tableHeader!, overlap: true }]
              : []
            : overlapTail(pieces, budget);
        if (carried) pieces.push(carried);
        tokens = pieces.reduce((sum, p) => sum + p.tokens, 0);
      }
      const piece: Piece = {
        text: part,
        tokens: cost,
        paragraphStart: index === 0,
        page: block.page,
        overlap: false,
        ...(unit ? { unit } : {}),
      };
      if (unit !== 'table-row') tableHeader = null;
      else if (startsTable && index === 0) tableHeader = piece;
      pieces.push(piece);
      tokens += cost;
    });
  }
  closeSection();
  return chunks;
}
