/**
 * Ingestion-time prompt-injection scan. Every chunk is checked before it is
 * stored; a flagged chunk is stored held back (`chunks.held_back`), so
 * retrieval never offers it, and the document's detail lists it with the
 * verdict. Pure: no I/O.
 */
import type { ChunkInjection } from '../../core/db/schema/knowledge.js';
import { detectInjection, type InjectionVerdict } from '../rag/injection-detection.js';
import { hiddenHtmlTexts } from './ingestion/hidden-html.js';

/** What the detector is told about the text: a stored document, not a user's message. */
interface DetectOptions {
  kind?: 'message' | 'document';
}

/** The verdict fields newer detectors add (score, family, span); read when present. */
type RichVerdict = InjectionVerdict & { score?: number; family?: string; span?: string };

/**
 * The detector as this scan calls it: with the kind of text, which a
 * detector that knows the difference uses (a document is longer and quotes
 * more than a message); one that does not simply ignores it.
 */
const detect: (text: string, options?: DetectOptions) => RichVerdict = detectInjection;

const REASON_MAX = 1000;
const SPAN_MAX = 120;

/** What a chunk's source offers the scan besides the chunk texts. */
export interface ChunkSource {
  /** The raw HTML of a web page, when the document is one: hidden text is checked there. */
  html?: string | null | undefined;
}

function toInjection(verdict: RichVerdict, source: ChunkInjection['source'], prefix = ''): ChunkInjection {
  const reason = `${prefix}${verdict.reason ?? 'prompt injection'}`;
  return {
    reason: reason.length > REASON_MAX ? `${reason.slice(0, REASON_MAX - 1)}…` : reason,
    ...(typeof verdict.family === 'string' ? { family: verdict.family } : {}),
    ...(typeof verdict.score === 'number' && Number.isFinite(verdict.score)
      ? { score: Math.min(1, Math.max(0, verdict.score)) }
      : {}),
    ...(typeof verdict.span === 'string' ? { span: verdict.span.slice(0, SPAN_MAX) } : {}),
    source,
  };
}

/**
 * The verdict on text a web page hides from its readers (display:none,
 * white or zero-size text, comments…), or null when it holds no injection.
 */
function scanHiddenHtml(html: string): ChunkInjection | null {
  for (const text of hiddenHtmlTexts(html)) {
    const verdict = detect(text, { kind: 'document' });
    if (verdict.detected) {
      const fallbackFamily = verdict.family ?? 'hidden-text';
      return toInjection({ ...verdict, family: fallbackFamily }, 'hidden-html', 'hidden text in the page: ');
    }
  }
  return null;
}

/**
 * The scan result of each chunk, in order: null for a chunk that may be
 * served, its verdict for one to hold back.
 *
 * Each chunk is checked on its own text. A web page is also checked for
 * hidden text: an instruction the page hides from its human readers was
 * written for a machine, and once the layout is gone it cannot be told
 * which visible passage it rides with, so every chunk of such a page is
 * held back with that reason (a chunk whose own text is flagged keeps its
 * own verdict).
 */
export function scanChunks(
  contents: readonly string[],
  source: ChunkSource = {},
): Array<ChunkInjection | null> {
  const hidden = source.html ? scanHiddenHtml(source.html) : null;
  return contents.map((content) => {
    const verdict = detect(content, { kind: 'document' });
    if (verdict.detected) return toInjection(verdict, 'text');
    return hidden;
  });
}

const EXCERPT_MAX = 200;

/**
 * Up to 200 characters of a held-back chunk for reviewers: around the
 * matched text when it is found in the chunk, else the chunk's start.
 */
export function heldBackExcerpt(content: string, span: string | undefined): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  if (flat.length <= EXCERPT_MAX) return flat;
  const at = span ? flat.toLowerCase().indexOf(span.replace(/\s+/g, ' ').trim().toLowerCase()) : -1;
  const start = at < 0 ? 0 : Math.max(0, Math.min(at - 40, flat.length - (EXCERPT_MAX - 2)));
  const body = flat.slice(start, start + EXCERPT_MAX - 2);
  return `${start > 0 ? '…' : ''}${body}${start + body.length < flat.length ? '…' : ''}`.slice(
    0,
    EXCERPT_MAX,
  );
}
