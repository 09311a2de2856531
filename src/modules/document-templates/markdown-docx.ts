import {
  AlignmentType,
  Document,
  ExternalHyperlink,
  HeadingLevel,
  LevelFormat,
  Packer,
  Paragraph,
  type ParagraphChild,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import type { Token, Tokens } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { markdown } from './render.js';

/**
 * Builds a DOCX from Markdown by walking marked's tokens: headings become
 * Word headings, paragraphs paragraphs, bold/italic/strikethrough/code runs,
 * bullet and numbered lists (nested) Word lists, tables Word tables, block
 * quotes indented paragraphs, code blocks monospaced lines. Links keep their
 * text and address. Raw HTML in a template is written as its text, tags dropped.
 */

const HEADINGS = [
  HeadingLevel.HEADING_1,
  HeadingLevel.HEADING_2,
  HeadingLevel.HEADING_3,
  HeadingLevel.HEADING_4,
  HeadingLevel.HEADING_5,
  HeadingLevel.HEADING_6,
] as const;

const ORDERED = 'ordered-list';
const MONOSPACE = 'Courier New';

interface RunStyle {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  code?: boolean;
}

/** marked escapes text tokens for HTML; Word wants the characters themselves. */
const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/** The text of raw HTML, its tags (and scripts and styles with their content) dropped. */
const htmlText = (raw: string) => decode(sanitizeHtml(raw, { allowedTags: [], allowedAttributes: {} }));

const runStyle = (style: RunStyle) => ({
  bold: style.bold,
  italics: style.italics,
  strike: style.strike,
  ...(style.code ? { font: MONOSPACE } : {}),
});

function run(text: string, style: RunStyle): TextRun {
  return new TextRun({ text: decode(text), ...runStyle(style) });
}

/** Word runs for inline tokens, carrying bold/italic/strike/code down nested tokens. */
function inline(tokens: readonly Token[] | undefined, style: RunStyle = {}): ParagraphChild[] {
  const out: ParagraphChild[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        out.push(...inline(token.tokens, { ...style, bold: true }));
        break;
      case 'em':
        out.push(...inline(token.tokens, { ...style, italics: true }));
        break;
      case 'del':
        out.push(...inline(token.tokens, { ...style, strike: true }));
        break;
      case 'codespan':
        out.push(run(token.text, { ...style, code: true }));
        break;
      case 'br':
        out.push(new TextRun({ break: 1 }));
        break;
      case 'link': {
        const children = inline(token.tokens, style).filter((c): c is TextRun => c instanceof TextRun);
        if (/^(https?|mailto):/i.test(token.href))
          out.push(new ExternalHyperlink({ link: token.href, children }));
        else out.push(...children);
        break;
      }
      case 'image':
        out.push(run(token.text, style));
        break;
      case 'text':
        if (token.tokens?.length) out.push(...inline(token.tokens, style));
        else out.push(run(token.text, style));
        break;
      case 'html':
        out.push(new TextRun({ text: htmlText(token.raw), ...runStyle(style) }));
        break;
      default:
        // escape and anything else inline: its text as written.
        out.push(run('text' in token && typeof token.text === 'string' ? token.text : token.raw, style));
    }
  }
  return out;
}

interface BlockContext {
  /** The next numbered list's instance, so each list counts from 1. */
  nextList: () => number;
}

function listParagraphs(list: Tokens.List, level: number, context: BlockContext): Paragraph[] {
  const instance = list.ordered ? context.nextList() : 0;
  const paragraphs: Paragraph[] = [];
  for (const item of list.items) {
    let first = true;
    for (const child of item.tokens) {
      if (child.type === 'list') {
        paragraphs.push(...listParagraphs(child as Tokens.List, Math.min(level + 1, 8), context));
        continue;
      }
      if (child.type === 'space') continue;
      const runs = 'tokens' in child && child.tokens ? inline(child.tokens) : [run(child.raw.trim(), {})];
      paragraphs.push(
        new Paragraph({
          children: runs,
          ...(first
            ? list.ordered
              ? { numbering: { reference: ORDERED, level, instance } }
              : { bullet: { level } }
            : { indent: { left: 720 * (level + 1) } }),
        }),
      );
      first = false;
    }
  }
  return paragraphs;
}

function table(token: Tokens.Table): Table {
  const cell = (c: Tokens.TableCell, header: boolean) =>
    new TableCell({
      children: [
        new Paragraph({
          children: inline(c.tokens, header ? { bold: true } : {}),
          alignment:
            c.align === 'center'
              ? AlignmentType.CENTER
              : c.align === 'right'
                ? AlignmentType.RIGHT
                : AlignmentType.LEFT,
        }),
      ],
    });
  return new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      new TableRow({ tableHeader: true, children: token.header.map((c) => cell(c, true)) }),
      ...token.rows.map((row) => new TableRow({ children: row.map((c) => cell(c, false)) })),
    ],
  });
}

function blocks(tokens: readonly Token[], context: BlockContext, quoted = false): Array<Paragraph | Table> {
  const out: Array<Paragraph | Table> = [];
  const indent = quoted ? { indent: { left: 720 } } : {};
  for (const token of tokens) {
    switch (token.type) {
      case 'heading':
        out.push(
          new Paragraph({ heading: HEADINGS[Math.min(token.depth, 6) - 1], children: inline(token.tokens) }),
        );
        break;
      case 'paragraph':
        out.push(
          new Paragraph({ children: inline(token.tokens, quoted ? { italics: true } : {}), ...indent }),
        );
        break;
      case 'list':
        out.push(...listParagraphs(token as Tokens.List, 0, context));
        break;
      case 'table':
        out.push(table(token as Tokens.Table));
        break;
      case 'blockquote':
        out.push(...blocks(token.tokens ?? [], context, true));
        break;
      case 'code':
        out.push(
          new Paragraph({
            children: token.text
              .split('\n')
              .map(
                (line: string, i: number) =>
                  new TextRun({ text: line, font: MONOSPACE, break: i > 0 ? 1 : 0 }),
              ),
            ...indent,
          }),
        );
        break;
      case 'hr':
        out.push(new Paragraph({ thematicBreak: true, children: [] }));
        break;
      case 'space':
      case 'def':
        break;
      case 'html': {
        const text = htmlText(token.raw).trim();
        if (text) out.push(new Paragraph({ children: [new TextRun(text)], ...indent }));
        break;
      }
      default:
        // text and anything else: as written.
        if (token.raw.trim()) out.push(new Paragraph({ children: [run(token.raw.trim(), {})], ...indent }));
    }
  }
  return out;
}

/** A DOCX file (its bytes) with the content of `md`; `title` goes into the document properties. */
export async function markdownToDocx(md: string, title: string): Promise<Buffer> {
  let lists = 0;
  const children = blocks(markdown.lexer(md), { nextList: () => ++lists });
  const document = new Document({
    title,
    numbering: {
      config: [
        {
          reference: ORDERED,
          levels: Array.from({ length: 9 }, (_, level) => ({
            level,
            format: LevelFormat.DECIMAL,
            text: `%${level + 1}.`,
            alignment: AlignmentType.START,
            style: { paragraph: { indent: { left: 720 * (level + 1), hanging: 360 } } },
          })),
        },
      ],
    },
    sections: [{ children: children.length > 0 ? children : [new Paragraph({ children: [] })] }],
  });
  return Packer.toBuffer(document);
}
