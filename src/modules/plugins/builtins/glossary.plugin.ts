import type { ConfigProblem, PluginDefinition } from '../plugin.js';

export interface GlossaryTerm {
  term: string;
  replacement?: string;
  action: 'rewrite' | 'flag';
}

export interface GlossaryConfig {
  terms: GlossaryTerm[];
}

// A letter, mark, digit or underscore continues a word, as for trigger words.
const BEFORE = String.raw`(?<![\p{L}\p{M}\p{N}_])`;
const AFTER = String.raw`(?![\p{L}\p{M}\p{N}_])`;

/** The whole-word, case-insensitive, Unicode-aware pattern of a term (its words separated by any whitespace). */
export function termPattern(term: string): RegExp | null {
  const words = term.normalize('NFKC').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const body = words.map((w) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join(String.raw`\s+`);
  return new RegExp(`${BEFORE}${body}${AFTER}`, 'giu');
}

/**
 * Applies the glossary to a reply: `rewrite` terms are replaced (every
 * occurrence), then `flag` terms still present are answered as found.
 */
export function applyGlossary(reply: string, terms: readonly GlossaryTerm[]) {
  let text = reply.normalize('NFKC');
  const rewritten: string[] = [];
  for (const term of terms) {
    if (term.action !== 'rewrite') continue;
    const pattern = termPattern(term.term);
    if (!pattern?.test(text)) continue;
    pattern.lastIndex = 0;
    text = text.replace(pattern, () => term.replacement ?? '');
    rewritten.push(term.term);
  }
  const flagged = terms
    .filter((term) => term.action === 'flag' && termPattern(term.term)?.test(text))
    .map((term) => term.term);
  return { text, rewritten, flagged };
}

/** Glossary: rewrites forbidden terms in replies, or sends a reply that uses one to a human. */
export const glossaryPlugin: PluginDefinition<GlossaryConfig> = {
  id: 'glossary',
  name: 'Glossary',
  description:
    'Rewrites forbidden terms in replies (whole words, any case, any script) or, for terms marked flag, sends the reply to a human with the term as the reason.',
  version: '1.0.0',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['terms'],
    properties: {
      terms: {
        type: 'array',
        minItems: 1,
        maxItems: 500,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['term', 'action'],
          properties: {
            term: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
            replacement: { type: 'string', maxLength: 200 },
            action: { enum: ['rewrite', 'flag'] },
          },
        },
      },
    },
  },
  validateConfig(config) {
    const problems: ConfigProblem[] = [];
    config.terms.forEach((term, i) => {
      if (term.action === 'rewrite' && term.replacement === undefined) {
        problems.push({ path: `terms.${i}.replacement`, message: 'is required when action is rewrite' });
      }
    });
    return problems;
  },
  hooks: {
    after_confidence_check({ config }, { reply }) {
      const { text, rewritten, flagged } = applyGlossary(reply, config.terms);
      if (rewritten.length === 0 && flagged.length === 0) return undefined;
      return {
        ...(rewritten.length > 0 ? { reply: text } : {}),
        ...(flagged.length > 0 ? { hitl: `the reply uses forbidden terms: ${flagged.join(', ')}` } : {}),
      };
    },
  },
};
