import Mustache from 'mustache';
import type { ValidationDetail } from '../../core/errors/app-errors.js';

/**
 * Template bodies are Mustache (logic-less: values, sections, inverted
 * sections, comments; no code runs). What a body may use is narrowed
 * further, so a template can be checked once, when it is saved:
 * - every `{{name}}` and section names a declared variable (`{{.}}` only
 *   inside a section, where it is the section's value);
 * - no partials (`{{> name}}`): a template never pulls in another text;
 * - no unescaped output (`{{{name}}}`, `{{& name}}`): every value goes
 *   through the Markdown escape, so input cannot add structure or HTML.
 */

/** A parsed Mustache token: [type, value, start, end, children?, …]. */
type Token = [string, string, number, number, Token[]?, ...unknown[]];

/** The tokens of `body`; throws Mustache's own error for a malformed body (an unclosed section…). */
export function parseBody(body: string): Token[] {
  // A Writer of its own: the default one caches every template it parses, for good.
  return new Mustache.Writer().parse(body) as Token[];
}

/**
 * What is wrong with a body for the given variable names, as validation
 * details on `field`; empty when the body may be saved. Each problem is
 * listed once.
 */
export function templateBodyProblems(
  body: string,
  variableNames: ReadonlySet<string>,
  field = 'body.templateBody',
): ValidationDetail[] {
  let tokens: Token[];
  try {
    tokens = parseBody(body);
  } catch (error) {
    return [{ field, message: `is not a valid template: ${(error as Error).message}` }];
  }
  const messages = new Set<string>();
  const walk = (list: readonly Token[], inSection: boolean): void => {
    for (const [type, name, , , children] of list) {
      if (type === '>') messages.add(`uses the partial {{> ${name}}}; partials are not allowed`);
      else if (type === '&') {
        messages.add(`outputs {{${name}}} unescaped; use {{${name}}}, values are always escaped`);
      } else if (type === 'name' || type === '#' || type === '^') {
        if (!(name === '.' && inSection) && !variableNames.has(name)) {
          messages.add(`uses the unknown variable ${name}; declare it in variables`);
        }
        if (children) walk(children, true);
      }
    }
  };
  walk(tokens, false);
  return [...messages].map((message) => ({ field, message }));
}

/**
 * The variable names `body` uses, in order of first use: plain tags and
 * sections (`{{#name}}`, `{{^name}}`), at any depth; `{{.}}` inside a section
 * is not a name. Empty for a body that does not parse (its problems are
 * reported by {@link templateBodyProblems}).
 */
export function tagNames(body: string): string[] {
  let tokens: Token[];
  try {
    tokens = parseBody(body);
  } catch {
    return [];
  }
  const names = new Set<string>();
  const walk = (list: readonly Token[]): void => {
    for (const [type, name, , , children] of list) {
      if ((type === 'name' || type === '#' || type === '^') && name !== '.') names.add(name);
      if (children) walk(children);
    }
  };
  walk(tokens);
  return [...names];
}
