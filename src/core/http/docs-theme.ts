import { readFileSync } from 'node:fs';

/** A file of the explorer's theme, served under /docs/static/theme/. */
interface ThemeFile {
  filename: string;
  content: string;
}

/** The `theme` option of @fastify/swagger-ui: the page title and our own stylesheet and script. */
export interface DocsTheme {
  title: string;
  css: ThemeFile[];
  js: ThemeFile[];
}

/** Reads a file of docs-theme/ (copied next to the compiled code by scripts/copy-assets.mjs). */
function themeFile(name: string): string {
  return readFileSync(new URL(`./docs-theme/${name}`, import.meta.url), 'utf8');
}

/**
 * The explorer's theme: a stylesheet that lifts Swagger UI's colours to a
 * contrast of at least 4.5:1 in light and dark mode, and a script that names
 * the controls Swagger UI leaves unlabelled and makes `/docs?lang=en|uk|ru`
 * open the description in that language. Both are files served from this
 * origin, so the page's CSP still refuses inline scripts.
 *
 * @param languages the entries of the language selector (`urls` of uiConfig), in its order
 */
export function docsTheme(languages: ReadonlyArray<{ lang: string; name: string }>): DocsTheme {
  const script = themeFile('theme.js').replace('__DOC_LANGUAGES__', JSON.stringify(languages));
  return {
    title: 'Assistant Orchestration Service API',
    css: [{ filename: 'theme.css', content: themeFile('theme.css') }],
    js: [{ filename: 'theme.js', content: script }],
  };
}
