import { Lexer, type Token, type Tokens } from 'marked';

/**
 * Markdown (as the pipeline writes replies) → channel A's own formatting:
 * `*bold*`, `_italic_`, `~strikethrough~`, `` `inline code` ``,
 * ```` ```code blocks``` ````, `> ` quotes, lists as `• ` and `1. `, links
 * as `text (url)`, headings as bold lines, tables as `a | b` rows. Parsed
 * with marked's lexer (GitHub-flavoured Markdown), so emphasis, code and
 * nesting are read as a Markdown reader reads them, not by pattern. Pure.
 */
export function formatForChanA(markdown: string): string {
  const tokens = Lexer.lex(markdown.replace(/\r\n?/g, '\n'), { gfm: true });
  return blocks(tokens)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Block tokens joined by blank lines (by line breaks inside a tight list item). */
function blocks(tokens: readonly Token[], join = '\n\n'): string {
  return tokens
    .map(block)
    .filter((text) => text.length > 0)
    .join(join);
}

function block(token: Token): string {
  switch (token.type) {
    case 'space':
    case 'def':
      return '';
    case 'heading': {
      const text = inline((token as Tokens.Heading).tokens).trim();
      return text ? wrap('*', stripMarkers(text, '*')) : '';
    }
    case 'paragraph':
      return inline((token as Tokens.Paragraph).tokens).trim();
    case 'text': {
      const text = token as Tokens.Text;
      return (text.tokens ? inline(text.tokens) : text.text).trim();
    }
    case 'code':
      return `\`\`\`\n${(token as Tokens.Code).text.replace(/\n+$/, '')}\n\`\`\``;
    case 'blockquote':
      return blocks((token as Tokens.Blockquote).tokens)
        .split('\n')
        .map((line) => (line ? `> ${line}` : '>'))
        .join('\n');
    case 'list':
      return list(token as Tokens.List);
    case 'table':
      return table(token as Tokens.Table);
    case 'hr':
      return '———';
    case 'html':
      return stripTags((token as Tokens.HTML).text).trim();
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? inline(token.tokens) : token.raw.trim();
  }
}

function list(token: Tokens.List): string {
  const start = typeof token.start === 'number' ? token.start : 1;
  return token.items
    .map((item, index) => {
      const marker = token.ordered ? `${start + index}. ` : '• ';
      const check = item.task ? (item.checked ? '☑ ' : '☐ ') : '';
      const body = blocks(
        item.tokens.filter((t) => t.type !== 'checkbox'),
        item.loose ? '\n\n' : '\n',
      );
      const [first = '', ...rest] = body.split('\n');
      // Continuation lines (a nested list, a second paragraph) are indented under the marker.
      const indent = ' '.repeat(marker.length);
      return [`${marker}${check}${first}`, ...rest.map((line) => (line ? `${indent}${line}` : ''))].join(
        '\n',
      );
    })
    .join(token.loose ? '\n\n' : '\n');
}

function table(token: Tokens.Table): string {
  const row = (cells: Tokens.TableCell[]) => cells.map((cell) => inline(cell.tokens).trim()).join(' | ');
  const header = row(token.header);
  return [header ? wrap('*', stripMarkers(header, '*')) : '', ...token.rows.map(row)]
    .filter(Boolean)
    .join('\n');
}

function inline(tokens: readonly Token[]): string {
  return tokens.map(inlineToken).join('');
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case 'strong':
      return wrap('*', inline((token as Tokens.Strong).tokens));
    case 'em':
      return wrap('_', inline((token as Tokens.Em).tokens));
    case 'del':
      return wrap('~', inline((token as Tokens.Del).tokens));
    case 'codespan':
      return wrap('`', (token as Tokens.Codespan).text);
    case 'br':
      return '\n';
    case 'link': {
      const link = token as Tokens.Link;
      const text = inline(link.tokens).trim();
      const href = link.href.replace(/^mailto:/, '');
      return !text || text === href || text === link.href ? href : `${text} (${href})`;
    }
    case 'image': {
      const image = token as Tokens.Image;
      return image.text ? `${image.text} (${image.href})` : image.href;
    }
    case 'html':
      return stripTags((token as Tokens.Tag).text);
    case 'escape':
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? inline(text.tokens) : text.text;
    }
    default:
      return 'tokens' in token && Array.isArray(token.tokens) ? inline(token.tokens) : (token.raw ?? '');
  }
}

/**
 * Wraps `text` in a marker the way the platform recognises it: the marker
 * must touch a non-space character on each side, so surrounding spaces move
 * outside it; blank text stays as it is.
 */
function wrap(marker: string, text: string): string {
  const match = /^(\s*)([\s\S]*?)(\s*)$/.exec(text);
  const [, before = '', core = '', after = ''] = match ?? [];
  return core ? `${before}${marker}${core}${marker}${after}` : text;
}

/** Bold inside an already bold line would toggle it off: drop the inner markers. */
function stripMarkers(text: string, marker: string): string {
  return text.split(marker).join('');
}

function stripTags(html: string): string {
  return html.replace(/<br\s*\/?>/gi, '\n').replace(/<[^>]*>/g, '');
}
