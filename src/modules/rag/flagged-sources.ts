import type { InjectedChunk } from './retrieval.js';

/**
 * A retrieved chunk left out at query time because it carries a prompt
 * injection, as `/rag/draft`, the pipeline's `rag_search` output and the
 * approval's injection reason report it.
 */
export interface FlaggedSource {
  chunkId: string;
  documentId: string;
  documentTitle: string;
  knowledgeBaseId: string;
  /** The detector's reason: the rule or family and the matched text. */
  reason: string;
  family?: string;
  /** Detector score in [0, 1], when the detector gives one. */
  score?: number;
}

/** The verdict fields newer detectors add; read when present. */
interface RichVerdict {
  family?: unknown;
  score?: unknown;
}

/** The structured report of the chunks retrieval left out, best ranked first. */
export function flaggedSourcesOf(injected: readonly InjectedChunk[]): FlaggedSource[] {
  return injected.map((chunk) => {
    const { family, score } = chunk.verdict as RichVerdict;
    return {
      chunkId: chunk.chunkId,
      documentId: chunk.documentId,
      documentTitle: chunk.title,
      knowledgeBaseId: chunk.knowledgeBaseId,
      reason: chunk.reason,
      ...(typeof family === 'string' ? { family } : {}),
      ...(typeof score === 'number' && Number.isFinite(score)
        ? { score: Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000 }
        : {}),
    };
  });
}

/** The `injectionReason` text of left-out chunks: how many, and the first one's reason. */
export function flaggedSourcesReason(flagged: readonly FlaggedSource[]): string | undefined {
  const [first] = flagged;
  if (!first) return undefined;
  return `${flagged.length} retrieved passage(s) left out; chunk ${first.chunkId}: ${first.reason}`;
}
