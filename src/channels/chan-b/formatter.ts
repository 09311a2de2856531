import { Lexer, type Token, type Tokens } from 'marked';

/**
 * The reply (Markdown, as the pipeline writes it) in the three forms the Bot
 * API takes: MarkdownV2 (first choice), HTML (when the platform refuses the
 * MarkdownV2 entities) and plain text (when it refuses those too). Bold,
 * italic, strikethrough, inline code, code blocks and links keep their
 * meaning; headings become bold lines, lists bullet or number lines, quotes
 * quotations. Everything else is text, escaped for the mode.
 */
export type ParseMode = 'MarkdownV2' | 'HTML' | 'plain';

/** Characters MarkdownV2 reserves outside entities; each must be preceded by `\`. */
const MARKDOWN_V2_RESERVED = /[_*[\]()~`>#+\-=|{}.!\\]/g;

/** Escapes text for MarkdownV2 outside entities. */
export function escapeMarkdownV2(text: string): string {
  return text.replace(MARKDOWN_V2_RESERVED, '\\$&');
}

/** Inside `code` and `pre` only the backtick and the backslash are escaped. */
function escapeCode(text: string): string {
  return text.replace(/[`\\]/g, '\\$&');
}

/** Inside a link's address only `)` and the backslash are escaped. */
function escapeUrl(url: string): string {
  return url.replace(/[)\\]/g, '\\$&');
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeHtmlAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;');
}

/** Only addresses a chat client opens become links; others stay as text. */
function linkable(href: string): boolean {
  return /^(https?:|mailto:|tg:)/i.test(href);
}

interface Style {
  strong(inner: string): string;
  em(inner: string): string;
  del(inner: string): string;
  code(text: string): string;
  link(inner: string, href: string): string;
  pre(text: string, lang: string): string;
  text(text: string): string;
  quote(inner: string): string;
  /** The marker in front of a list item (`• `, `1. `), escaped for the mode. */
  bullet(marker: string): string;
}

const MARKDOWN_V2: Style = {
  strong: (inner) => `*${inner}*`,
  em: (inner) => `_${inner}_`,
  del: (inner) => `~${inner}~`,
  code: (text) => `\`${escapeCode(text)}\``,
  link: (inner, href) => (linkable(href) ? `[${inner}](${escapeUrl(href)})` : inner),
  pre: (text, lang) => `\`\`\`${/^[A-Za-z0-9_+-]+$/.test(lang) ? lang : ''}\n${escapeCode(text)}\n\`\`\``,
  text: escapeMarkdownV2,
  quote: (inner) =>
    inner
      .split('\n')
      .map((line) => `>${line}`)
      .join('\n'),
  bullet: escapeMarkdownV2,
};

const HTML: Style = {
  strong: (inner) => `<b>${inner}</b>`,
  em: (inner) => `<i>${inner}</i>`,
  del: (inner) => `<s>${inner}</s>`,
  code: (text) => `<code>${escapeHtml(text)}</code>`,
  link: (inner, href) => (linkable(href) ? `<a href="${escapeHtmlAttribute(href)}">${inner}</a>` : inner),
  pre: (text, lang) =>
    /^[A-Za-z0-9_+-]+$/.test(lang)
      ? `<pre><code class="language-${lang}">${escapeHtml(text)}</code></pre>`
      : `<pre>${escapeHtml(text)}</pre>`,
  text: escapeHtml,
  quote: (inner) => `<blockquote>${inner}</blockquote>`,
  bullet: escapeHtml,
};

const PLAIN: Style = {
  strong: (inner) => inner,
  em: (inner) => inner,
  del: (inner) => inner,
  code: (text) => text,
  link: (inner, href) => (inner === href || !linkable(href) ? inner : `${inner} (${href})`),
  pre: (text) => text,
  text: (text) => text,
  quote: (inner) =>
    inner
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n'),
  bullet: (marker) => marker,
};

const STYLES: Record<ParseMode, Style> = { MarkdownV2: MARKDOWN_V2, HTML, plain: PLAIN };

/** Markdown's character references (`&amp;`, `&#39;`) as the characters they stand for. */
function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code =
        name[1]?.toLowerCase() === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return named[name.toLowerCase()] ?? whole;
  });
}

/**
 * Renders inline tokens. `open` holds the entity kinds around this point: the
 * Bot API does not nest an entity in one of its own kind, so an inner one
 * keeps only its text.
 */
function inline(
  tokens: readonly Token[] | undefined,
  style: Style,
  open: ReadonlySet<string> = new Set(),
): string {
  let out = '';
  let previous = '';
  for (const token of tokens ?? []) {
    const wrap = (kind: 'strong' | 'em' | 'del', inner: readonly Token[] | undefined) => {
      const text = inline(inner, style, new Set([...open, kind]));
      return open.has(kind) ? text : style[kind](text);
    };
    switch (token.type) {
      case 'strong':
        out += wrap('strong', (token as Tokens.Strong).tokens);
        break;
      case 'em':
        // MarkdownV2 reads `__` as underline: an empty bold entity separates two italics.
        if (previous === 'em' && style === MARKDOWN_V2 && !open.has('em'))
          out += !open.has('strong') ? '**' : !open.has('del') ? '~~' : '||';
        out += wrap('em', (token as Tokens.Em).tokens);
        break;
      case 'del':
        out += wrap('del', (token as Tokens.Del).tokens);
        break;
      case 'codespan':
        out += style.code(decodeEntities((token as Tokens.Codespan).text));
        break;
      case 'link': {
        const link = token as Tokens.Link;
        out += style.link(inline(link.tokens, style, open), link.href);
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        out += style.link(style.text(image.text || image.href), image.href);
        break;
      }
      case 'br':
        out += '\n';
        break;
      case 'text': {
        const text = token as Tokens.Text;
        out += text.tokens ? inline(text.tokens, style, open) : style.text(decodeEntities(text.text));
        break;
      }
      default:
        // escape, inline html and anything unknown: its text, escaped.
        out += style.text(decodeEntities('text' in token ? String(token.text) : token.raw));
    }
    previous = token.type;
  }
  return out;
}

function list(token: Tokens.List, style: Style, depth: number, quoted: boolean): string {
  const start = typeof token.start === 'number' ? token.start : 1;
  return token.items
    .map((item, index) => {
      const marker = token.ordered ? `${start + index}. ` : '• ';
      const body = blocks(item.tokens, style, depth + 1, quoted);
      const indent = '  '.repeat(depth);
      const [first = '', ...rest] = body.split('\n');
      return [`${indent}${style.bullet(marker)}${first}`, ...rest].join('\n');
    })
    .join('\n');
}

function blocks(tokens: readonly Token[], style: Style, depth = 0, quoted = false): string {
  const parts: string[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
        break;
      case 'heading':
        parts.push(style.strong(inline((token as Tokens.Heading).tokens, style)));
        break;
      case 'paragraph':
        parts.push(inline((token as Tokens.Paragraph).tokens, style));
        break;
      case 'text': {
        const text = token as Tokens.Text;
        parts.push(text.tokens ? inline(text.tokens, style) : style.text(decodeEntities(text.text)));
        break;
      }
      case 'code': {
        const code = token as Tokens.Code;
        parts.push(style.pre(code.text, code.lang ?? ''));
        break;
      }
      case 'blockquote': {
        // A quotation starts a line and does not nest: inside a list or another quote it keeps its text only.
        const inner = blocks((token as Tokens.Blockquote).tokens, style, depth, true);
        parts.push(depth > 0 || quoted ? inner : style.quote(inner));
        break;
      }
      case 'list':
        parts.push(list(token as Tokens.List, style, depth, quoted));
        break;
      case 'hr':
        parts.push(style.text('──────────'));
        break;
      case 'table': {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) =>
          cells.map((cell) => inline(cell.tokens, style)).join(style.text(' | '));
        parts.push([row(table.header), ...table.rows.map(row)].join('\n'));
        break;
      }
      default:
        // html blocks and anything unknown: the source text, escaped.
        parts.push(style.text(decodeEntities(token.raw.trimEnd())));
    }
  }
  // Lists inside a list item sit on their own lines, not after a blank one.
  return parts.join(depth > 0 ? '\n' : '\n\n');
}

/** Renders Markdown for the Bot API in `mode`. */
export function formatForBot(markdown: string, mode: ParseMode): string {
  const tokens = new Lexer({ gfm: true }).lex(markdown);
  return blocks(tokens, STYLES[mode]).trim();
}
