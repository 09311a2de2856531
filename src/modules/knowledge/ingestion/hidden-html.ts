import { parseHTML } from 'linkedom';

/** The slice of linkedom's DOM the walk needs. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

const ELEMENT_NODE = 1;
const COMMENT_NODE = 8;
/** Code and styling, not prose: their text is never shown and never read as text either. */
const CODE_ELEMENTS = new Set(['SCRIPT', 'STYLE', 'SVG']);
/** Elements whose text a browser never shows. */
const HIDDEN_ELEMENTS = new Set(['TEMPLATE', 'NOSCRIPT']);
/** Pages are walked this deep at most; deeper nesting is not prose. */
const MAX_DEPTH = 200;
const MAX_HIDDEN_CHARS = 20_000;
/** A page hides icons and menus by the hundred; past this many pieces the rest is not read. */
const MAX_HIDDEN_PIECES = 200;

/** Inline styles that hide text from a reader while leaving it in the page. */
const HIDING_STYLES: readonly RegExp[] = [
  /(?:^|;)\s*display\s*:\s*none/i,
  /(?:^|;)\s*visibility\s*:\s*(?:hidden|collapse)/i,
  /(?:^|;)\s*opacity\s*:\s*0(?:\.0+)?\s*(?:;|$|!)/i,
  /(?:^|;)\s*font-size\s*:\s*0(?:\.0+)?(?:px|pt|em|rem|%)?\s*(?:;|$|!)/i,
  /(?:^|;)\s*(?:width|height|max-height|max-width)\s*:\s*0(?:px)?\s*(?:;|$|!)/i,
  /(?:^|;)\s*color\s*:\s*(?:white|#fff(?:fff)?|rgba?\(\s*255\s*,\s*255\s*,\s*255\s*(?:,\s*1(?:\.0+)?\s*)?\))\s*(?:;|$|!)/i,
  /(?:^|;)\s*color\s*:\s*(?:transparent|rgba\([^)]*,\s*0(?:\.0+)?\s*\))/i,
  /(?:^|;)\s*(?:left|top|text-indent)\s*:\s*-\d{3,}/i,
  /(?:^|;)\s*clip(?:-path)?\s*:\s*(?:rect\(\s*0|inset\(\s*50%)/i,
];

function hides(node: DomNode): boolean {
  const name = node.nodeName.toUpperCase();
  if (HIDDEN_ELEMENTS.has(name)) return true;
  const attribute = (key: string) => node.getAttribute?.(key) ?? null;
  if (attribute('hidden') !== null) return true;
  if (attribute('aria-hidden')?.trim().toLowerCase() === 'true') return true;
  const style = attribute('style');
  return style !== null && HIDING_STYLES.some((pattern) => pattern.test(style));
}

const squash = (text: string | null): string => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * The text an HTML page carries but does not show its reader, one string
 * per hidden element or comment, in page order: elements hidden by the
 * `hidden` or `aria-hidden` attribute, `<template>` and `<noscript>`, inline
 * styles that hide (display:none, visibility:hidden, opacity:0, zero font
 * size or size, white or transparent text, off-screen positions, clipping)
 * and HTML comments. Only inline styles count: a stylesheet's cascade is not
 * evaluated. Script and style code are not prose and are skipped.
 */
export function hiddenHtmlTexts(html: string): string[] {
  const { document } = parseHTML(html);
  const root = document as unknown as DomNode;
  const found: string[] = [];
  let total = 0;
  const keep = (text: string) => {
    if (!text || total >= MAX_HIDDEN_CHARS || found.length >= MAX_HIDDEN_PIECES) return;
    const room = MAX_HIDDEN_CHARS - total;
    const kept = text.length <= room ? text : text.slice(0, room);
    found.push(kept);
    total += kept.length;
  };
  const walk = (node: DomNode, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (node.nodeType === COMMENT_NODE) {
      keep(squash(node.textContent));
      return;
    }
    if (node.nodeType === ELEMENT_NODE) {
      const name = node.nodeName.toUpperCase();
      if (CODE_ELEMENTS.has(name)) return;
      if (hides(node)) {
        // The whole subtree is hidden: its text once, comments inside included.
        keep(squash(node.textContent));
        return;
      }
    }
    for (const child of Array.from(node.childNodes)) walk(child, depth + 1);
  };
  walk(root, 0);
  return found;
}
