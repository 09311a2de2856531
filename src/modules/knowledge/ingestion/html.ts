import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { Block } from '../chunking.js';

/** The slice of the DOM the walk needs; linkedom's nodes fit it. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const HEADING = /^H([1-6])$/;
/** Elements whose text is one paragraph, whatever is inside. */
const LEAF_BLOCKS = new Set(['P', 'LI', 'PRE', 'BLOCKQUOTE', 'DT', 'DD', 'FIGCAPTION', 'CAPTION', 'ADDRESS']);
const SKIPPED = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'IFRAME',
  'NAV',
  'HEAD',
  'BUTTON',
  'FORM',
]);
/** Elements that contain blocks; anything else is inline and joins the running paragraph. */
const CONTAINERS = new Set([
  'HTML',
  'BODY',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'HEADER',
  'FOOTER',
  'ASIDE',
  'UL',
  'OL',
  'DL',
  'TABLE',
  'THEAD',
  'TBODY',
  'TFOOT',
  'FIGURE',
  'DETAILS',
  'SUMMARY',
  'CENTER',
  'HR',
  'BR',
]);

const squash = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Headings and paragraphs of an HTML fragment or document, in reading order.
 * List items (`li`) and table rows (`tr`, cells joined with ` | `) are blocks
 * of their own, marked as such so chunking keeps each whole.
 */
export function htmlBlocks(root: DomNode): Block[] {
  const blocks: Block[] = [];
  let inline = '';
  // Inside an `li` that holds blocks (a nested list, paragraphs), its loose text is still the item's.
  let inlineUnit: 'list-item' | undefined;
  const flushInline = () => {
    const text = squash(inline);
    if (text)
      blocks.push(inlineUnit ? { kind: 'paragraph', text, unit: inlineUnit } : { kind: 'paragraph', text });
    inline = '';
  };

  const walk = (node: DomNode): void => {
    if (node.nodeType === TEXT_NODE) {
      inline += ` ${node.textContent ?? ''}`;
      return;
    }
    if (node.nodeType !== ELEMENT_NODE && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toUpperCase();
    if (SKIPPED.has(name)) return;
    const heading = HEADING.exec(name);
    if (heading) {
      flushInline();
      const text = squash(node.textContent);
      if (text) blocks.push({ kind: 'heading', level: Number(heading[1]), text });
      return;
    }
    if (LEAF_BLOCKS.has(name) && !hasBlockChild(node)) {
      flushInline();
      const text = squash(node.textContent);
      if (text)
        blocks.push(
          name === 'LI' ? { kind: 'paragraph', text, unit: 'list-item' } : { kind: 'paragraph', text },
        );
      return;
    }
    if (name === 'TR') {
      flushInline();
      const cells = Array.from(node.childNodes)
        .filter((c) => c.nodeType === ELEMENT_NODE)
        .map((c) => squash(c.textContent))
        .filter(Boolean);
      if (cells.length > 0) blocks.push({ kind: 'paragraph', text: cells.join(' | '), unit: 'table-row' });
      return;
    }
    const container = CONTAINERS.has(name) || LEAF_BLOCKS.has(name);
    if (container) flushInline();
    const outerUnit = inlineUnit;
    if (name === 'LI') inlineUnit = 'list-item';
    for (const child of Array.from(node.childNodes)) walk(child);
    if (container) flushInline();
    inlineUnit = outerUnit;
  };

  walk(root);
  flushInline();
  return blocks;
}

function hasBlockChild(node: DomNode): boolean {
  return Array.from(node.childNodes).some((child) => {
    if (child.nodeType !== ELEMENT_NODE) return false;
    const name = child.nodeName.toUpperCase();
    return LEAF_BLOCKS.has(name) || HEADING.test(name) || name === 'TABLE' || hasBlockChild(child);
  });
}

/** Headings and paragraphs of an HTML string (a DOCX converted by mammoth, say). */
export function htmlStringBlocks(html: string): Block[] {
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return htmlBlocks(document.body as unknown as DomNode);
}

/**
 * The main text of a web page: Readability picks the article and drops
 * navigation, footers and ads; a page it cannot read falls back to the
 * whole body. Answers the page's title too.
 */
export function webPageBlocks(html: string): { title: string | null; blocks: Block[] } {
  const { document } = parseHTML(html);
  const title = squash(document.title ?? null) || null;
  const article = new Readability<DomNode>(document, {
    serializer: (node: unknown) => node as DomNode,
    charThreshold: 100,
  }).parse();
  if (article?.content) {
    const blocks = htmlBlocks(article.content);
    if (blocks.length > 0) return { title: squash(article.title ?? null) || title, blocks };
  }
  const { document: fresh } = parseHTML(html);
  return { title, blocks: fresh.body ? htmlBlocks(fresh.body as unknown as DomNode) : [] };
}
