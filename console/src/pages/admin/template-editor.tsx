import { useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { ErrorNote, Field, useSubmit } from '../../components/common';
import { NamespaceSelect } from '../../components/DirectorySelect';
import { InputField, SelectField } from '../../components/FormField';
import { t } from '../../i18n';
import { useNamespaces } from '../../state/directory';
import { sampleValues, TemplatePreview } from './template-preview';

/** A template as GET /document-templates/:id answers it. */
export type DocumentTemplate = Success<'/document-templates/{id}', 'get'>;

const CATEGORIES = ['contract', 'proposal', 'letter', 'invoice', 'custom'] as const;
type Category = (typeof CATEGORIES)[number];
const FORMATS = ['docx', 'md', 'html'] as const;
type Format = (typeof FORMATS)[number];
const TYPES = ['string', 'number', 'date', 'boolean'] as const;
type VariableType = (typeof TYPES)[number];

interface VariableDraft {
  key: number;
  name: string;
  label: string;
  type: VariableType;
  required: boolean;
}

let nextKey = 1;
const asType = (value: string): VariableType =>
  (TYPES as readonly string[]).includes(value) ? (value as VariableType) : 'string';
const asCategory = (value: string): Category =>
  (CATEGORIES as readonly string[]).includes(value) ? (value as Category) : 'custom';
const asFormat = (value: string): Format =>
  (FORMATS as readonly string[]).includes(value) ? (value as Format) : 'docx';

/**
 * Creates (no `template`) or edits a template: name, namespace (on creation),
 * category, default output format, the variables and the Mustache body, with
 * a live preview of the body filled with sample values as it is typed.
 * Defaults declared through the API are kept when the variable stays.
 */
export function TemplateEditor({
  template,
  onSaved,
}: {
  template?: DocumentTemplate;
  onSaved(template: DocumentTemplate): void | Promise<void>;
}) {
  const namespaces = useNamespaces();
  const [namespaceId, setNamespaceId] = useState('');
  const [name, setName] = useState(template?.name ?? '');
  const [description, setDescription] = useState(template?.description ?? '');
  const [category, setCategory] = useState<Category>(asCategory(template?.category ?? 'custom'));
  const [format, setFormat] = useState<Format>(asFormat(template?.outputFormat ?? 'docx'));
  const [body, setBody] = useState(template?.templateBody ?? '');
  const [variables, setVariables] = useState<VariableDraft[]>(
    (template?.variables ?? []).map((v) => ({
      key: nextKey++,
      name: v.name,
      label: v.label,
      type: asType(v.type),
      required: v.required,
    })),
  );
  const [status, setStatus] = useState('');
  const chosenNamespace = namespaceId || namespaces[0]?.id || '';
  const defaults = new Map((template?.variables ?? []).map((v) => [v.name, v.default]));

  const change = (key: number, patch: Partial<VariableDraft>) =>
    setVariables((list) => list.map((v) => (v.key === key ? { ...v, ...patch } : v)));

  const save = useSubmit(async () => {
    setStatus('');
    const declared = variables
      .filter((v) => v.name.trim())
      .map((v) => {
        const kept = defaults.get(v.name.trim());
        return {
          name: v.name.trim(),
          label: v.label.trim() || undefined,
          type: v.type,
          required: v.required,
          ...(kept !== undefined ? { default: kept } : {}),
        };
      });
    const common = {
      name: name.trim(),
      description: description.trim() || null,
      category,
      outputFormat: format,
      templateBody: body,
      variables: declared,
    };
    const saved = template
      ? await api('patch', '/document-templates/{id}', { params: { id: template.id }, body: common })
      : await api('post', '/document-templates', { body: { ...common, namespaceId: chosenNamespace } });
    setStatus(t('tpl.saved'));
    await onSaved(saved);
  });

  const preview = sampleValues(variables.map((v) => ({ ...v, default: defaults.get(v.name) ?? null })));

  return (
    <form class="card tpl-editor" onSubmit={save.submit} aria-labelledby="tpl-editor-title">
      <h2 id="tpl-editor-title">{template ? t('tpl.edit') : t('tpl.new')}</h2>
      <div class="tpl-columns">
        <div>
          <InputField label={t('tpl.name')} value={name} onValue={setName} required maxLength={200} />
          {!template && <NamespaceSelect value={chosenNamespace} onChange={setNamespaceId} />}
          <Field label={t('tpl.description')}>
            <textarea
              rows={2}
              maxLength={2000}
              value={description}
              onInput={(e) => setDescription(e.currentTarget.value)}
            />
          </Field>
          <div class="row wrap">
            <SelectField
              label={t('tpl.category')}
              value={category}
              onChange={setCategory}
              choices={CATEGORIES.map((c) => ({ value: c, label: t(`tpl.category.${c}`) }))}
            />
            <SelectField
              label={t('tpl.format')}
              value={format}
              onChange={setFormat}
              choices={FORMATS.map((f) => ({ value: f, label: t(`tpl.format.${f}`) }))}
            />
          </div>
          <fieldset class="tpl-variables">
            <legend>{t('tpl.variables')}</legend>
            <p class="muted small">{t('tpl.variablesHint')}</p>
            {variables.map((v, index) => (
              <div class="row wrap tpl-variable" key={v.key}>
                <Field label={t('tpl.varName', { n: index + 1 })}>
                  <input
                    required
                    maxLength={64}
                    pattern="[A-Za-z][A-Za-z0-9_]*"
                    spellcheck={false}
                    value={v.name}
                    onInput={(e) => change(v.key, { name: e.currentTarget.value })}
                  />
                </Field>
                <Field label={t('tpl.varLabel', { n: index + 1 })}>
                  <input
                    maxLength={200}
                    value={v.label}
                    onInput={(e) => change(v.key, { label: e.currentTarget.value })}
                  />
                </Field>
                <SelectField
                  label={t('tpl.varType', { n: index + 1 })}
                  value={v.type}
                  onChange={(type) => change(v.key, { type })}
                  choices={TYPES.map((type) => ({ value: type, label: t(`tpl.type.${type}`) }))}
                />
                <label class="tpl-check">
                  <input
                    type="checkbox"
                    checked={v.required}
                    onChange={(e) => change(v.key, { required: e.currentTarget.checked })}
                  />{' '}
                  {t('tpl.varRequired', { n: index + 1 })}
                </label>
                <button
                  type="button"
                  class="small"
                  onClick={() => setVariables((list) => list.filter((x) => x.key !== v.key))}
                >
                  {t('tpl.varRemove', { n: index + 1 })}
                </button>
              </div>
            ))}
            <button
              type="button"
              onClick={() =>
                setVariables((list) => [
                  ...list,
                  { key: nextKey++, name: '', label: '', type: 'string', required: false },
                ])
              }
            >
              {t('tpl.varAdd')}
            </button>
          </fieldset>
          <Field label={t('tpl.body')}>
            <textarea
              class="tpl-body"
              rows={10}
              required
              maxLength={100_000}
              spellcheck={false}
              value={body}
              onInput={(e) => setBody(e.currentTarget.value)}
            />
          </Field>
          <p class="muted small">{t('tpl.bodyHint')}</p>
        </div>
        <TemplatePreview body={body} values={preview} />
      </div>
      <ErrorNote error={save.error} />
      <p role="status">{status}</p>
      <button
        type="submit"
        class="primary"
        disabled={save.busy || !name.trim() || !body.trim() || (!template && !chosenNamespace)}
      >
        {template ? t('common.save') : t('tpl.create')}
      </button>
    </form>
  );
}
