import type { InputHTMLAttributes, JSX } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { t } from '../i18n';
import { ErrorNote, useSubmit } from './common';

/** The part of a JSON Schema property the form understands. */
interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: PropertySchema;
  format?: string;
  description?: string;
  title?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
}

/** An object JSON Schema: the plugin configuration's shape. */
interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** How one property is edited. */
type Kind =
  | 'string'
  | 'secret'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'enum'
  | 'enumList'
  | 'stringList'
  | 'json';

/** What a field holds while it is edited: text for inputs, a flag, or the chosen values. */
type Draft = string | boolean | string[];

/** The value the service answers for a write-only key that holds a value; sent back, it keeps it. */
const SECRET_SET = '[set]';
/** A stable empty configuration, so the form does not reset on every render. */
const NO_VALUE: Record<string, unknown> = {};

function typeOf(schema: PropertySchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

function kindOf(schema: PropertySchema, secret: boolean): Kind {
  if (schema.enum) return 'enum';
  const type = typeOf(schema);
  if (type === 'array') {
    if (schema.items?.enum) return 'enumList';
    if (typeOf(schema.items ?? {}) === 'string') return 'stringList';
    return 'json';
  }
  if (type === 'string') return secret || schema.format === 'password' ? 'secret' : 'string';
  if (type === 'number' || type === 'integer' || type === 'boolean') return type;
  return 'json';
}

/** The field's starting value: the stored one, else the schema's default, else empty. */
function draftOf(kind: Kind, stored: unknown, fallback: unknown): Draft {
  const value = stored ?? fallback;
  switch (kind) {
    case 'boolean':
      return value === true;
    case 'enumList':
      return Array.isArray(value) ? value.map(String) : [];
    case 'stringList':
      return Array.isArray(value) ? value.join('\n') : '';
    case 'secret':
      return '';
    case 'json':
      return value === undefined ? '' : JSON.stringify(value, null, 2);
    default:
      return value === undefined || value === null ? '' : String(value);
  }
}

/** Whether an edited field holds nothing (so it is left out of the configuration). */
function isBlank(draft: Draft): boolean {
  if (typeof draft === 'boolean') return false;
  if (Array.isArray(draft)) return draft.length === 0;
  return draft.trim() === '';
}

/**
 * A form generated from a JSON Schema of an object: one labelled control per
 * property (text, number, check box, drop-down, check boxes for a list of
 * choices, one line per item for a list of strings, JSON for anything else),
 * the description as the hint, required fields marked, defaults filled in, and
 * `secretFields` as password inputs that keep their stored value when left
 * empty. A required field left empty is said next to it and nothing is sent;
 * the service's own checks (patterns, limits) come back as its error.
 */
export function SchemaForm({
  schema,
  secretFields = [],
  value = NO_VALUE,
  submitLabel,
  onSubmit,
}: {
  schema: Record<string, unknown>;
  secretFields?: readonly string[];
  value?: Record<string, unknown>;
  submitLabel: string;
  onSubmit(config: Record<string, unknown>): Promise<void>;
}) {
  const base = useId();
  const object = schema as ObjectSchema;
  const properties = Object.entries(object.properties ?? {});
  const required = new Set(object.required ?? []);
  const kinds: Record<string, Kind> = Object.fromEntries(
    properties.map(([key, property]) => [key, kindOf(property, secretFields.includes(key))]),
  );
  const kindAt = (key: string): Kind => kinds[key] ?? 'json';
  const initial = () =>
    Object.fromEntries(
      properties.map(([key, property]) => [key, draftOf(kindAt(key), value[key], property.default)]),
    );
  const [drafts, setDrafts] = useState<Record<string, Draft>>(initial);
  const [missing, setMissing] = useState<string[]>([]);
  const [invalid, setInvalid] = useState<string[]>([]);
  useEffect(() => setDrafts(initial()), [schema, value]);

  const set = (key: string, draft: Draft) => setDrafts((current) => ({ ...current, [key]: draft }));
  const secretKept = (key: string) => kindAt(key) === 'secret' && value[key] === SECRET_SET;

  /** The configuration the drafts stand for, or the keys that are missing or unreadable. */
  const build = (): { config: Record<string, unknown>; missing: string[]; invalid: string[] } => {
    const config: Record<string, unknown> = {};
    const lacking: string[] = [];
    const unreadable: string[] = [];
    for (const [key, property] of properties) {
      const draft = drafts[key] ?? '';
      const kind = kindAt(key);
      if (isBlank(draft)) {
        if (secretKept(key)) config[key] = SECRET_SET;
        else if (required.has(key)) lacking.push(key);
        continue;
      }
      if (kind === 'boolean' || kind === 'enumList') config[key] = draft;
      else if (kind === 'stringList') {
        config[key] = String(draft)
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean);
      } else if (kind === 'number' || kind === 'integer') config[key] = Number(draft);
      else if (kind === 'json') {
        try {
          config[key] = JSON.parse(String(draft));
        } catch {
          unreadable.push(key);
        }
      } else if (kind === 'enum') {
        // A choice keeps its JSON type: the option's text maps back to the schema's value.
        config[key] = property.enum?.find((choice) => String(choice) === draft) ?? draft;
      } else config[key] = draft;
    }
    return { config, missing: lacking, invalid: unreadable };
  };

  const { submit, error, busy } = useSubmit(async () => {
    const built = build();
    setMissing(built.missing);
    setInvalid(built.invalid);
    if (built.missing.length > 0 || built.invalid.length > 0) return;
    await onSubmit(built.config);
  });

  const problems = [...missing, ...invalid];
  return (
    <form class="schema-form" onSubmit={submit} noValidate>
      {properties.length === 0 && <p class="muted">{t('schemaForm.noSettings')}</p>}
      {properties.map(([key, property]) => {
        const id = `${base}-${key}`;
        const kind = kindAt(key);
        const hintId = `${id}-hint`;
        const problemId = `${id}-problem`;
        const problem = missing.includes(key)
          ? t('schemaForm.required')
          : invalid.includes(key)
            ? t('schemaForm.invalidJson')
            : '';
        const hints = [
          property.description,
          kind === 'stringList' ? t('schemaForm.onePerLine') : '',
          kind === 'json' ? t('schemaForm.json') : '',
          secretKept(key) ? t('schemaForm.secretKept') : '',
          property.minimum !== undefined || property.maximum !== undefined
            ? t('schemaForm.range', { min: property.minimum ?? '…', max: property.maximum ?? '…' })
            : '',
        ].filter(Boolean);
        const describedBy = [hints.length > 0 ? hintId : '', problem ? problemId : '']
          .filter(Boolean)
          .join(' ');
        const label = `${property.title ?? key}${required.has(key) ? ` (${t('schemaForm.requiredMark')})` : ''}`;
        const draft = drafts[key] ?? '';
        const common = {
          id,
          'aria-describedby': describedBy || undefined,
          'aria-invalid': problem ? true : undefined,
          'aria-required': required.has(key) || undefined,
        };
        const notes = (
          <>
            {hints.length > 0 && (
              <small id={hintId} class="muted">
                {hints.join(' ')}
              </small>
            )}
            {problem && (
              <small id={problemId} class="error">
                {problem}
              </small>
            )}
          </>
        );
        if (kind === 'enumList') {
          const chosen = Array.isArray(draft) ? draft : [];
          return (
            <fieldset key={key} class="schema-choices" aria-describedby={describedBy || undefined}>
              <legend>{label}</legend>
              {(property.items?.enum ?? []).map((choice) => {
                const text = String(choice);
                return (
                  <label key={text} class="field inline">
                    <input
                      type="checkbox"
                      checked={chosen.includes(text)}
                      onChange={(e) =>
                        set(
                          key,
                          e.currentTarget.checked ? [...chosen, text] : chosen.filter((c) => c !== text),
                        )
                      }
                    />
                    <span>{text}</span>
                  </label>
                );
              })}
              {notes}
            </fieldset>
          );
        }
        if (kind === 'boolean') {
          return (
            <div key={key} class="field">
              <label class="field inline" for={id}>
                <input
                  {...common}
                  type="checkbox"
                  checked={draft === true}
                  onChange={(e) => set(key, e.currentTarget.checked)}
                />
                <span>{label}</span>
              </label>
              {notes}
            </div>
          );
        }
        let control: JSX.Element;
        if (kind === 'enum') {
          control = (
            <select {...common} value={String(draft)} onChange={(e) => set(key, e.currentTarget.value)}>
              <option value="">{t('schemaForm.choose')}</option>
              {(property.enum ?? []).map((choice) => (
                <option key={String(choice)} value={String(choice)}>
                  {String(choice)}
                </option>
              ))}
            </select>
          );
        } else if (kind === 'stringList' || kind === 'json') {
          control = (
            <textarea
              {...common}
              rows={4}
              spellcheck={false}
              value={String(draft)}
              onInput={(e) => set(key, e.currentTarget.value)}
            />
          );
        } else {
          const numeric = kind === 'number' || kind === 'integer';
          // The input types narrow the allowed attributes one type at a time; these hold for each of them.
          const attributes = {
            ...common,
            type: kind === 'secret' ? 'password' : numeric ? 'number' : 'text',
            autoComplete: kind === 'secret' ? 'new-password' : 'off',
            step: kind === 'integer' ? 1 : numeric ? 'any' : undefined,
            min: property.minimum,
            max: property.maximum,
            minLength: property.minLength,
            maxLength: property.maxLength,
          } as InputHTMLAttributes<HTMLInputElement>;
          control = (
            <input {...attributes} value={String(draft)} onInput={(e) => set(key, e.currentTarget.value)} />
          );
        }
        return (
          <div key={key} class="field">
            <label for={id}>{label}</label>
            {control}
            {notes}
          </div>
        );
      })}
      {problems.length > 0 && (
        <p class="error" role="alert">
          {t('schemaForm.fix', { fields: problems.join(', ') })}
        </p>
      )}
      <ErrorNote error={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
