/** How long a part is as the platform counts it (channel B: after escaping); characters by default. */
export type Measure = (text: string) => number;

export interface SplitOptions {
  measure?: Measure;
}

interface Unit {
  text: string;
  /** A fenced code block (```), kept whole when it fits. */
  code: boolean;
}

interface Level {
  split: (text: string) => string[];
  join: string;
}

/** Finer and finer cuts for a paragraph that does not fit: lines, sentences, words. */
const LEVELS: readonly Level[] = [
  { split: (text) => text.split('\n'), join: '\n' },
  { split: (text) => text.split(/(?<=[.!?…])\s+/), join: ' ' },
  { split: (text) => text.split(/\s+/), join: ' ' },
];

/**
 * Splits a (formatted) reply into parts of at most `limit` each, in order.
 * It cuts on paragraph boundaries (blank lines) first, packing as many
 * whole paragraphs into a part as fit; a paragraph too long for one part
 * is cut at lines, then sentences, then words, and only a single word
 * longer than the limit is cut inside. A fenced code block is never cut
 * while it fits in a part; one that does not is cut at its lines, and each
 * piece is fenced again so every part reads as code. Shared by both
 * channels; pure.
 */
export function splitMessage(text: string, limit: number, options: SplitOptions = {}): string[] {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`limit must be a positive integer (got ${limit})`);
  const measure = options.measure ?? ((part: string) => part.length);
  const whole = text.trim();
  if (!whole) return [];
  if (measure(whole) <= limit) return [whole];

  const fits = (part: string, max = limit) => measure(part) <= max;

  function pack(pieces: readonly string[], join: string, max: number): string[] {
    const parts: string[] = [];
    let current = '';
    for (const piece of pieces) {
      const candidate = current ? `${current}${join}${piece}` : piece;
      if (fits(candidate, max)) current = candidate;
      else {
        if (current) parts.push(current);
        current = piece;
      }
    }
    if (current) parts.push(current);
    return parts;
  }

  function cutText(piece: string, max: number, level = 0): string[] {
    if (fits(piece, max)) return [piece];
    const cut = LEVELS[level];
    if (!cut) return cutInside(piece, max);
    const pieces = cut.split(piece).filter((p) => p.trim().length > 0);
    if (pieces.length <= 1) return cutText(piece, max, level + 1);
    const chunks = pieces.flatMap((p) => (fits(p, max) ? [p] : cutText(p, max, level + 1)));
    return pack(chunks, cut.join, max);
  }

  /** The longest prefixes that fit, by code points (so no surrogate pair is broken). */
  function cutInside(piece: string, max: number): string[] {
    const chars = Array.from(piece);
    const parts: string[] = [];
    let start = 0;
    while (start < chars.length) {
      let low = 1;
      let high = chars.length - start;
      // Binary search for the longest run that fits (at least one character, whatever it measures).
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (fits(chars.slice(start, start + mid).join(''), max)) low = mid;
        else high = mid - 1;
      }
      parts.push(chars.slice(start, start + low).join(''));
      start += low;
    }
    return parts;
  }

  function cutCode(block: string): string[] {
    const lines = block.split('\n');
    const open = lines[0] ?? '```';
    const closed = lines.length > 1 && /^\s*```\s*$/.test(lines[lines.length - 1] ?? '');
    const inner = lines.slice(1, closed ? -1 : undefined).join('\n');
    const room = limit - measure(`${open}\n\n\`\`\``);
    if (room < 1 || !inner.trim()) return cutText(block, limit);
    return cutText(inner, room).map((piece) => `${open}\n${piece}\n\`\`\``);
  }

  const pieces = units(whole).flatMap((unit) => {
    if (fits(unit.text)) return [unit.text];
    return unit.code ? cutCode(unit.text) : cutText(unit.text, limit);
  });
  return pack(pieces, '\n\n', limit);
}

/** Paragraphs (separated by blank lines) and fenced code blocks (kept whole, blank lines and all). */
function units(text: string): Unit[] {
  const result: Unit[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) result.push({ text: paragraph.join('\n'), code: false });
    paragraph = [];
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = /^\s*```/.test(line);
    if (fence) {
      flush();
      const block = [line];
      // A one-line block (```code```) closes on its own line.
      const oneLine = line.trim().length > 3 && line.trim().endsWith('```') && line.trim() !== '```';
      while (!oneLine && i + 1 < lines.length) {
        i += 1;
        block.push(lines[i] ?? '');
        if (/^\s*```\s*$/.test(lines[i] ?? '')) break;
      }
      result.push({ text: block.join('\n'), code: true });
    } else if (line.trim() === '') {
      flush();
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return result;
}
