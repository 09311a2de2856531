import { Marked } from 'marked';
import Mustache from 'mustache';
import sanitizeHtml from 'sanitize-html';
import type { VariableValue } from './template-variables.js';

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

/** Fills a template body with values, each escaped as Markdown text. No partials are given. */
export function renderMarkdown(body: string, values: Readonly<Record<string, VariableValue>>): string {
  // No prototype: a variable called `constructor` or `toString` without a value renders empty,
  // instead of Mustache finding (and calling) the inherited function.
  const view = Object.assign(Object.create(null) as Record<string, VariableValue>, values);
  return new Mustache.Writer().render(body, view, {}, { escape: escapeMarkdown });
}

/** One parser for the service: GitHub-flavoured Markdown (tables, strikethrough), no global state. */
export const markdown = new Marked({ gfm: true, async: false });

/** Tags an HTML rendering may keep: text structure and tables, no scripts, styles, forms, frames or images. */
const ALLOWED_TAGS = [
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code'],
  ...['ul', 'ol', 'li', 'strong', 'em', 'del', 's', 'a', 'span'],
  ...['table', 'thead', 'tbody', 'tr', 'th', 'td'],
];

/** Markdown to HTML, then sanitised: only {@link ALLOWED_TAGS}, links only to http, https and mailto. */
export function markdownToHtmlFragment(md: string): string {
  const html = markdown.parse(md) as string;
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: { a: ['href', 'title'], th: ['align'], td: ['align'], ol: ['start'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    disallowedTagsMode: 'discard',
  });
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A whole UTF-8 HTML page around the sanitised rendering of `md`, titled `title`. */
export function markdownToHtmlPage(md: string, title: string): string {
  return [
    '<!doctype html>',
    '<html>',
    `<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    `<body>\n${markdownToHtmlFragment(md)}</body>`,
    '</html>',
    '',
  ].join('\n');
}
