import Mustache from 'mustache';
import { useId } from 'preact/hooks';
import { t } from '../../i18n';

/** A variable as the templates API describes it. */
export interface TemplateVariable {
  name: string;
  label: string;
  type: string;
  required: boolean;
  default: string | number | boolean | null;
}

// The same escape the service applies (src/modules/document-templates/render.ts), so the
// preview shows the Markdown the service would produce from the same values.
const INLINE_SIGNIFICANT = /[\\`*_[\]<~|]/g;
const ENTITY = /&(?=#?[A-Za-z0-9]+;)/g;
const BLOCK_START = /^([#+\-=>|.)]|\d+[.)])/;

/** A value as literal Markdown text, as the service escapes it. */
export function escapeMarkdown(value: unknown): string {
  const text = String(value)
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .trim()
    .replace(INLINE_SIGNIFICANT, '\\$&')
    .replace(ENTITY, '\\&');
  return text.replace(BLOCK_START, (start) => `${start.slice(0, -1)}\\${start.slice(-1)}`);
}

/**
 * Fills a Mustache body with values the way the service does (its own
 * Writer, no partials, every value escaped as Markdown); a body that does
 * not parse gives the parser's message instead, so the editor can show it.
 */
export function renderTemplate(
  body: string,
  values: Readonly<Record<string, unknown>>,
): { text: string } | { problem: string } {
  const view = Object.assign(Object.create(null) as Record<string, unknown>, values);
  try {
    return { text: new Mustache.Writer().render(body, view, {}, { escape: escapeMarkdown }) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Sample values for a preview: the value given, else the variable's default,
 * else a placeholder in guillemets (Markdown leaves them as they are) (true for a flag, so its section shows).
 */
export function sampleValues(
  variables: readonly Pick<TemplateVariable, 'name' | 'label' | 'type' | 'default'>[],
  given: Readonly<Record<string, unknown>> = {},
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const v of variables) {
    if (!v.name) continue;
    const value = given[v.name];
    if (value !== undefined && value !== '') values[v.name] = value;
    else if (v.default !== null && v.default !== undefined && v.default !== '') values[v.name] = v.default;
    else values[v.name] = v.type === 'boolean' ? true : `«${v.label || v.name}»`;
  }
  return values;
}

/** The filled body as Markdown text, updated as the body or the values change. */
export function TemplatePreview({
  body,
  values,
}: {
  body: string;
  values: Readonly<Record<string, unknown>>;
}) {
  const result = renderTemplate(body, values);
  // Two previews can share a page (the generation form and the editor): ids of their own.
  const titleId = useId();
  return (
    <section class="tpl-preview" aria-labelledby={titleId}>
      <h3 id={titleId}>{t('tpl.preview')}</h3>
      {'problem' in result ? (
        <p class="error" role="status">
          {t('tpl.previewProblem', { problem: result.problem })}
        </p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard
        <pre tabIndex={0} data-testid="template-preview">
          {result.text}
        </pre>
      )}
    </section>
  );
}
