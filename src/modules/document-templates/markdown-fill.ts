import Mustache from 'mustache';

/**
 * Filling a template body, with nothing but Mustache: the service renders
 * documents with it (render.ts) and the console's live preview imports this
 * very file, so the preview shows the Markdown the service would produce.
 */

/** Characters that open inline structure anywhere: emphasis, code, links, HTML, strikethrough, table cells, escapes. */
const INLINE_SIGNIFICANT = /[\\`*_[\]<~|]/g;
/** An entity reference (`&amp;`, `&#60;`), which Markdown would decode. */
const ENTITY = /&(?=#?[A-Za-z0-9]+;)/g;
/** What starts a block when it opens a line: heading, list, quote, setext underline, table, ordered list. */
const BLOCK_START = /^([#+\-=>|.)]|\d+[.)])/;

/**
 * A value as literal Markdown text. Line breaks (and the spaces around them)
 * become one space, so a value cannot start a block of its own or break a
 * table row; characters that open inline structure (emphasis, code, links,
 * images, HTML, strikethrough, table cells) are backslash-escaped, and so is
 * the first character when it would start a block at the beginning of a
 * line. Everything else stays as typed, so names, dates, amounts and
 * addresses read the same in the Markdown (and in a knowledge base made
 * from it). Visible web and e-mail addresses may become links; a value can
 * never hide a link behind other text.
 */
export function escapeMarkdown(value: unknown): string {
  const text = String(value)
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim()
    .replace(INLINE_SIGNIFICANT, '\\$&')
    .replace(ENTITY, '\\&');
  return text.replace(BLOCK_START, (start) => `${start.slice(0, -1)}\\${start.slice(-1)}`);
}

/**
 * Fills a template body with values, each escaped as Markdown text. No partials are given.
 * @throws the Mustache parser's error for a body that does not parse.
 */
export function fillMarkdown(body: string, values: Readonly<Record<string, unknown>>): string {
  // No prototype: a variable called `constructor` or `toString` without a value renders empty,
  // instead of Mustache finding (and calling) the inherited function.
  const view = Object.assign(Object.create(null) as Record<string, unknown>, values);
  return new Mustache.Writer().render(body, view, {}, { escape: escapeMarkdown });
}
