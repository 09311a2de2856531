/**
 * HTML reduced to what a reader sees, with what a reader does not see kept
 * apart: an instruction a person cannot see but a model reads is the classic
 * indirect injection. Parsed with linkedom (a real HTML parser), then walked;
 * CSS is read from inline styles and from simple class, id and tag rules in
 * `<style>` blocks. Pure functions.
 */
import { parseHTML } from 'linkedom';

export interface HtmlText {
  /** Text a reader sees, one block per line. */
  visible: string;
  /** Each piece of text a reader does not see, with why it is hidden. */
  hidden: Array<{ text: string; how: string }>;
}

interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue?: string | null;
  textContent?: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?: (name: string) => string | null;
  hasAttribute?: (name: string) => boolean;
}

const TEXT = 3;
const COMMENT = 8;
const ELEMENT = 1;
/** Elements whose text never renders as page content. */
const NEVER_RENDERED: Record<string, string> = {
  SCRIPT: 'script element',
  TEMPLATE: 'template element',
  NOSCRIPT: 'noscript element',
  TEXTAREA: '',
  TITLE: '',
};
const BLOCK = /^(?:P|DIV|H[1-6]|LI|TR|BR|SECTION|ARTICLE|HEADER|FOOTER|BLOCKQUOTE|PRE|TABLE|UL|OL|DD|DT)$/;
const MAX_HIDDEN = 50;
const DEFAULT_BACKGROUND = '#ffffff';

/** True when the text contains markup worth parsing (a tag or a comment). */
export function looksLikeHtml(text: string): boolean {
  return /<(?:[a-z][a-z0-9-]*(?:\s[^<>]*)?|!--[\s\S]*?--)>/i.test(text);
}

/** Splits an HTML text into its visible text and its hidden pieces (see the module comment). */
export function splitHtml(html: string): HtmlText {
  const source = /<html[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`;
  const { document } = parseHTML(source);
  const root = document.documentElement as unknown as DomNode;
  const sheet = readStyleRules(root);
  const visible: string[] = [];
  const hidden: HtmlText['hidden'] = [];
  walk(root, { background: DEFAULT_BACKGROUND, color: null }, sheet, visible, hidden);
  return {
    visible: visible
      .join('')
      .replace(/[ \t]+/g, ' ')
      .replace(/\s*\n\s*/g, '\n')
      .trim(),
    hidden: hidden.slice(0, MAX_HIDDEN),
  };
}

interface Inherited {
  background: string;
  color: string | null;
}

function walk(
  node: DomNode,
  inherited: Inherited,
  sheet: StyleRules,
  visible: string[],
  hidden: HtmlText['hidden'],
) {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === TEXT) {
      visible.push(child.nodeValue ?? '');
    } else if (child.nodeType === COMMENT) {
      const text = (child.nodeValue ?? '').trim();
      if (text) hidden.push({ text, how: 'HTML comment' });
    } else if (child.nodeType === ELEMENT) {
      const name = child.nodeName.toUpperCase();
      if (name === 'STYLE' || name === 'HEAD') continue;
      const never = NEVER_RENDERED[name];
      if (never !== undefined) {
        const text = textOf(child);
        if (never && text) hidden.push({ text, how: never });
        continue;
      }
      const declarations = declarationsOf(child, sheet);
      const background =
        colour(declarations.get('background-color') ?? declarations.get('background')) ??
        inherited.background;
      const color = colour(declarations.get('color')) ?? inherited.color;
      const how = hiddenBy(child, declarations, color, background);
      if (how) {
        const text = textOf(child);
        if (text) hidden.push({ text, how });
        continue;
      }
      if (BLOCK.test(name)) visible.push('\n');
      walk(child, { background, color }, sheet, visible, hidden);
      if (BLOCK.test(name)) visible.push('\n');
    }
  }
}

function textOf(node: DomNode): string {
  return (node.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** Why an element's content is invisible, or null when it renders. */
function hiddenBy(
  element: DomNode,
  css: Map<string, string>,
  color: string | null,
  background: string,
): string | null {
  if (element.hasAttribute?.('hidden')) return 'hidden attribute';
  if (element.getAttribute?.('aria-hidden') === 'true') return 'aria-hidden';
  const display = css.get('display');
  if (display?.startsWith('none')) return 'display:none';
  const visibility = css.get('visibility');
  if (visibility?.startsWith('hidden') || visibility?.startsWith('collapse')) return 'visibility:hidden';
  const opacity = Number.parseFloat(css.get('opacity') ?? '1');
  if (opacity < 0.1) return 'opacity:0';
  if (tiny(css.get('font-size'))) return 'font-size:0';
  const width = css.get('width') ?? css.get('max-width');
  const height = css.get('height') ?? css.get('max-height');
  if ((tiny(width) || tiny(height)) && css.get('overflow')?.startsWith('hidden')) return 'zero size';
  if (tiny(width) && tiny(height)) return 'zero size';
  if (/rect\(\s*0/.test(css.get('clip') ?? '') || /inset\(\s*(?:50|100)%/.test(css.get('clip-path') ?? ''))
    return 'clipped';
  const position = css.get('position');
  if (position === 'absolute' || position === 'fixed') {
    for (const side of ['left', 'top', 'right']) {
      if (Number.parseFloat(css.get(side) ?? '0') <= -500) return 'off-screen';
    }
  }
  if (Number.parseFloat(css.get('text-indent') ?? '0') <= -500) return 'off-screen';
  if (/scale\(\s*0(?:\.0\d*)?\s*\)/.test(css.get('transform') ?? '')) return 'scaled to zero';
  if (color !== null && color === background) return 'text colour equals background';
  if (color === 'transparent') return 'transparent text';
  return null;
}

function tiny(value: string | undefined): boolean {
  if (value === undefined) return false;
  const number = Number.parseFloat(value);
  if (Number.isNaN(number)) return false;
  if (/px|pt/.test(value) || /^[\d.]+$/.test(value.trim())) return number < 2;
  if (/r?em|%|vw|vh/.test(value)) return number < 0.15;
  return number === 0;
}

/** CSS colour in one comparable form (`#rrggbb` or `transparent`), or null. */
export function colour(value: string | undefined): string | null {
  if (!value) return null;
  const v = value
    .trim()
    .toLowerCase()
    .replace(/\s*!important$/, '');
  const named: Record<string, string> = { white: '#ffffff', black: '#000000', transparent: 'transparent' };
  const word = v.split(/\s+/).find((part) => part in named || part.startsWith('#') || part.startsWith('rgb'));
  if (!word) return null;
  if (named[word]) return named[word];
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/.exec(word);
  if (hex?.[1]) {
    const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
    return `#${h}`;
  }
  const rgb = /^rgba?\(([^)]*)\)/.exec(v.slice(v.indexOf(word)));
  if (rgb?.[1]) {
    const parts = rgb[1]
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    if (parts.length === 4 && (parts[3] ?? 1) < 0.1) return 'transparent';
    return `#${parts
      .slice(0, 3)
      .map((n) =>
        Math.max(0, Math.min(255, Math.round(n)))
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
  }
  return null;
}

type StyleRules = Map<string, Map<string, string>>;

/** Simple selectors (`.class`, `#id`, `tag`, `tag.class`) from `<style>` blocks. */
function readStyleRules(root: DomNode): StyleRules {
  const rules: StyleRules = new Map();
  const styles: DomNode[] = [];
  const collect = (node: DomNode) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType !== ELEMENT) continue;
      if (child.nodeName.toUpperCase() === 'STYLE') styles.push(child);
      else collect(child);
    }
  };
  collect(root);
  for (const style of styles) {
    const css = (style.textContent ?? '').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      const declarations = parseDeclarations(match[2] ?? '');
      for (const selector of (match[1] ?? '').split(',')) {
        const key = selector.trim().toLowerCase();
        if (!/^[a-z0-9]*(?:[.#][\w-]+)?$/.test(key)) continue;
        const merged = rules.get(key) ?? new Map<string, string>();
        for (const [k, v] of declarations) merged.set(k, v);
        rules.set(key, merged);
      }
    }
  }
  return rules;
}

function declarationsOf(element: DomNode, sheet: StyleRules): Map<string, string> {
  const out = new Map<string, string>();
  if (sheet.size) {
    const tag = element.nodeName.toLowerCase();
    const keys = [tag];
    for (const cls of (element.getAttribute?.('class') ?? '').split(/\s+/).filter(Boolean)) {
      keys.push(`.${cls.toLowerCase()}`, `${tag}.${cls.toLowerCase()}`);
    }
    const id = element.getAttribute?.('id');
    if (id) keys.push(`#${id.toLowerCase()}`);
    for (const key of keys) for (const [k, v] of sheet.get(key) ?? []) out.set(k, v);
  }
  for (const [k, v] of parseDeclarations(element.getAttribute?.('style') ?? '')) out.set(k, v);
  return out;
}

function parseDeclarations(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const name = part.slice(0, colon).trim().toLowerCase();
    const value = part
      .slice(colon + 1)
      .trim()
      .toLowerCase()
      .replace(/\s*!important$/, '');
    if (name) out.set(name, value);
  }
  return out;
}
