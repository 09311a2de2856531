import { useEffect, useState } from 'preact/hooks';
import { API_PREFIX, ApiError, api } from '../../api/client';
import { ErrorNote, Field, useLoad, useSubmit } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { LoadedList } from '../../components/LoadedList';
import { formatDate, formatNumber, t } from '../../i18n';
import { hrefOf } from '../../state/router';
import { token } from '../../state/session';
import type { DocumentTemplate } from './template-editor';
import { sampleValues, TemplatePreview } from './template-preview';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/**
 * POST /document-templates/:id/generate answers the file itself (not JSON),
 * so it is called with fetch directly; the error envelope still becomes an
 * ApiError. Answers the bytes and the history row's id (X-Generation-Id).
 */
async function generateDocx(
  id: string,
  input: Record<string, unknown>,
): Promise<{ blob: Blob; generationId: string | null }> {
  const headers: Record<string, string> = {
    accept: `${DOCX}, application/json`,
    'content-type': 'application/json',
  };
  if (token.value) headers.authorization = `Bearer ${token.value}`;
  const res = await fetch(`${API_PREFIX}/document-templates/${encodeURIComponent(id)}/generate`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ input, outputFormat: 'docx' }),
  });
  if (!res.ok) {
    const envelope = ((await res.json().catch(() => null)) ?? {}) as {
      error?: string;
      message?: string;
      details?: ApiError['details'];
    };
    throw new ApiError(
      res.status,
      envelope.error ?? 'Error',
      envelope.message ?? res.statusText,
      envelope.details ?? [],
    );
  }
  return { blob: await res.blob(), generationId: res.headers.get('x-generation-id') };
}

/** A file name from the template's name: letters, digits and hyphens. */
const fileName = (name: string, ext: string) =>
  `${name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'document'}.${ext}`;

/** A form value in the variable's type, or undefined when left empty (the default then applies). */
function typed(type: string, raw: string | boolean): unknown {
  if (type === 'boolean') return raw === true;
  if (typeof raw !== 'string' || raw.trim() === '') return undefined;
  return type === 'number' ? Number(raw) : raw;
}

/** The input for a variable of `type`: a number, a date, else text. */
function ValueInput({
  type,
  onValue,
  ...rest
}: {
  type: string;
  required: boolean;
  placeholder: string | undefined;
  value: string;
  onValue(value: string): void;
}) {
  const onInput = (e: { currentTarget: HTMLInputElement }) => onValue(e.currentTarget.value);
  if (type === 'number') return <input type="number" step="any" {...rest} onInput={onInput} />;
  if (type === 'date') return <input type="date" {...rest} onInput={onInput} />;
  return <input type="text" {...rest} onInput={onInput} />;
}

/**
 * The form generated from a template's variables (a text, number, date or
 * checkbox field each), the filled body previewed as it is typed, then
 * POST /document-templates/:id/generate as DOCX and a link to download it.
 * `onGenerated` lets the page read the history again.
 */
export function GenerateForm({
  template,
  onGenerated,
}: {
  template: DocumentTemplate;
  onGenerated(): void | Promise<void>;
}) {
  const [raw, setRaw] = useState<Record<string, string | boolean>>({});
  const [file, setFile] = useState<{ url: string; name: string } | null>(null);
  const [status, setStatus] = useState('');
  const input: Record<string, unknown> = {};
  for (const v of template.variables) {
    const value = typed(v.type, raw[v.name] ?? (v.type === 'boolean' ? v.default === true : ''));
    if (value !== undefined) input[v.name] = value;
  }
  // The object URL holds the file in memory: free it when replaced or when the page closes.
  useEffect(
    () => () => {
      if (file) URL.revokeObjectURL(file.url);
    },
    [file],
  );

  const generate = useSubmit(async () => {
    setStatus('');
    const { blob } = await generateDocx(template.id, input);
    setFile({ url: URL.createObjectURL(blob), name: fileName(template.name, 'docx') });
    setStatus(t('tpl.generated'));
    await onGenerated();
  });

  return (
    <form class="card" onSubmit={generate.submit} aria-labelledby="tpl-generate-title">
      <h2 id="tpl-generate-title">{t('tpl.generate')}</h2>
      {template.variables.length === 0 && <p class="muted">{t('tpl.noVariables')}</p>}
      <div class="tpl-columns">
        <div>
          {template.variables.map((v) =>
            v.type === 'boolean' ? (
              <label class="tpl-check" key={v.name}>
                <input
                  type="checkbox"
                  checked={raw[v.name] === undefined ? v.default === true : raw[v.name] === true}
                  onChange={(e) => setRaw({ ...raw, [v.name]: e.currentTarget.checked })}
                />{' '}
                {v.label}
              </label>
            ) : (
              <Field key={v.name} label={v.required ? `${v.label} *` : v.label}>
                <ValueInput
                  type={v.type}
                  required={v.required && (v.default === null || v.default === '')}
                  placeholder={v.default === null ? undefined : String(v.default)}
                  value={typeof raw[v.name] === 'string' ? (raw[v.name] as string) : ''}
                  onValue={(value) => setRaw({ ...raw, [v.name]: value })}
                />
              </Field>
            ),
          )}
          {template.variables.some((v) => v.required) && <p class="muted small">{t('tpl.requiredHint')}</p>}
        </div>
        <TemplatePreview body={template.templateBody} values={sampleValues(template.variables, input)} />
      </div>
      <ErrorNote error={generate.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={generate.busy}>
          {t('tpl.generateDocx')}
        </button>
        {file && (
          <a class="button" href={file.url} download={file.name}>
            {t('tpl.download', { name: file.name })}
          </a>
        )}
      </div>
      <p role="status">{status}</p>
    </form>
  );
}

/**
 * The generation history (GET /document-generations, the user's own or, for
 * managers, their departments', as the API scopes it), narrowed to one
 * template when `templateId` is given. The API keeps the rendered Markdown of
 * each (GET /document-generations/:id), which a row downloads.
 */
export function GenerationHistory({ templateId, refresh }: { templateId?: string; refresh: number }) {
  const list = useLoad(
    () =>
      api('get', '/document-generations', { query: { limit: 50, ...(templateId ? { templateId } : {}) } }),
    [templateId, refresh],
  );
  const [error, setError] = useState<unknown>(null);
  const rows = list.data?.items ?? [];

  const downloadMarkdown = async (id: string, name: string) => {
    setError(null);
    try {
      const detail = await api('get', '/document-generations/{id}', { params: { id } });
      const url = URL.createObjectURL(new Blob([detail.content ?? ''], { type: 'text/markdown' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName(name, 'md');
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section aria-labelledby="tpl-history-title">
      <h2 id="tpl-history-title">{t('tpl.history')}</h2>
      <ErrorNote error={error} />
      <LoadedList loaded={list} count={rows.length} empty={t('tpl.historyEmpty')}>
        <DataTable
          caption={t('tpl.history')}
          columns={[t('tpl.template'), t('tpl.format'), t('tpl.size'), t('tpl.when'), t('common.actions')]}
        >
          {rows.map((g) => (
            <tr key={g.id} data-generation={g.id}>
              <td>
                {g.templateId ? (
                  <a href={hrefOf({ name: 'admin', section: 'templates', id: g.templateId })}>
                    {g.templateName}
                  </a>
                ) : (
                  g.templateName
                )}
              </td>
              <td>{g.outputFormat.toUpperCase()}</td>
              <td>{t('kbdoc.bytes', { count: formatNumber(g.sizeBytes, 0) })}</td>
              <td>{formatDate(g.createdAt)}</td>
              <td>
                <button
                  type="button"
                  class="small"
                  aria-label={t('tpl.markdownOf', { name: g.templateName, when: formatDate(g.createdAt) })}
                  onClick={() => void downloadMarkdown(g.id, g.templateName)}
                >
                  {t('tpl.markdown')}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      </LoadedList>
    </section>
  );
}
