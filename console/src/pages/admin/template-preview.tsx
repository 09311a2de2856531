// The service's own filling (no other import there), so the preview is what the service produces.

import { useId } from 'preact/hooks';
import { fillMarkdown } from '../../../../src/modules/document-templates/markdown-fill';
import { t } from '../../i18n';

/** A variable as the templates API describes it. */
export interface TemplateVariable {
  name: string;
  label: string;
  type: string;
  required: boolean;
  default: string | number | boolean | null;
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
  try {
    return { text: fillMarkdown(body, values) };
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
