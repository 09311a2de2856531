import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { fillMarkdown } from './markdown-fill.js';
import type { VariableValue } from './template-variables.js';

/** Fills a template body with values, each escaped as Markdown text. No partials are given. */
export function renderMarkdown(body: string, values: Readonly<Record<string, VariableValue>>): string {
  return fillMarkdown(body, values);
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
