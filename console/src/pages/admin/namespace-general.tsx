import { useEffect, useId, useState } from 'preact/hooks';
import { api, type BodyOf } from '../../api/client';
import { ErrorNote, Field, useSubmit } from '../../components/common';
import { InputField } from '../../components/FormField';
import { t } from '../../i18n';
import type { Namespace } from './namespace-detail';

type Persona = NonNullable<BodyOf<'/namespaces/{id}', 'patch'>['persona']>;

interface SectionProps {
  namespace: Namespace;
  manage: boolean;
  onSaved(): Promise<void>;
}

/** A polite line that says the section was saved, read out by screen readers. */
function SavedNote({ saved }: { saved: boolean }) {
  return (
    <p role="status" class="ok">
      {saved ? t('common.saved') : ''}
    </p>
  );
}

/** The namespace's name and system prompt; managers change them with PATCH /namespaces/:id. */
export function NamespaceGeneral({ namespace, manage, onSaved }: SectionProps) {
  const [name, setName] = useState(namespace.name);
  const [prompt, setPrompt] = useState(namespace.systemPrompt ?? '');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    setName(namespace.name);
    setPrompt(namespace.systemPrompt ?? '');
  }, [namespace]);
  const { submit, error, busy } = useSubmit(async () => {
    setSaved(false);
    await api('patch', '/namespaces/{id}', {
      params: { id: namespace.id },
      body: { name: name.trim(), systemPrompt: prompt.trim() === '' ? null : prompt },
    });
    setSaved(true);
    await onSaved();
  });
  return (
    <section aria-labelledby="namespace-general-title">
      <h2 id="namespace-general-title">{t('namespace.general')}</h2>
      <form onSubmit={submit}>
        <fieldset disabled={!manage} class="plain">
          <InputField label={t('namespaces.name')} value={name} onValue={setName} required maxLength={200} />
          <Field label={t('namespace.systemPrompt')}>
            <textarea
              rows={8}
              maxLength={20000}
              value={prompt}
              onInput={(e) => setPrompt(e.currentTarget.value)}
            />
          </Field>
        </fieldset>
        {manage && (
          <div class="actions">
            <button type="submit" class="primary" disabled={busy || !name.trim()}>
              {t('namespace.saveGeneral')}
            </button>
          </div>
        )}
        <ErrorNote error={error} />
        <SavedNote saved={saved} />
      </form>
    </section>
  );
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * The persona: the language the assistant answers in, its tone and formality,
 * the topics it must not handle (one a line; a message on one is escalated)
 * and the role escalations go to. The persona is replaced whole on save.
 */
export function NamespacePersona({ namespace, manage, onSaved }: SectionProps) {
  const stored = namespace.persona as Persona;
  const [language, setLanguage] = useState('');
  const [tone, setTone] = useState('');
  const [formality, setFormality] = useState('');
  const [boundaries, setBoundaries] = useState('');
  const [role, setRole] = useState('');
  const [saved, setSaved] = useState(false);
  const hintId = useId();
  useEffect(() => {
    setLanguage(stored.language ?? '');
    setTone(stored.style?.tone ?? '');
    setFormality(stored.style?.formality === undefined ? '' : String(stored.style.formality));
    setBoundaries((stored.boundaries ?? []).join('\n'));
    setRole(stored.escalateToRole ?? '');
  }, [namespace]);
  const { submit, error, busy } = useSubmit(async () => {
    setSaved(false);
    const persona: Persona = {};
    if (language.trim()) persona.language = language.trim();
    const style: NonNullable<Persona['style']> = {};
    if (tone.trim()) style.tone = tone.trim();
    if (formality.trim()) style.formality = Number(formality);
    if (Object.keys(style).length > 0) persona.style = style;
    const topics = lines(boundaries);
    if (topics.length > 0) persona.boundaries = topics;
    if (role.trim()) persona.escalateToRole = role.trim();
    await api('patch', '/namespaces/{id}', { params: { id: namespace.id }, body: { persona } });
    setSaved(true);
    await onSaved();
  });
  return (
    <section aria-labelledby="namespace-persona-title">
      <h2 id="namespace-persona-title">{t('namespace.persona')}</h2>
      <p class="muted">{t('namespace.personaIntro')}</p>
      <form onSubmit={submit}>
        <fieldset disabled={!manage} class="plain">
          <InputField
            label={t('namespace.language')}
            hint={t('namespace.languageHint')}
            value={language}
            onValue={setLanguage}
            maxLength={35}
          />
          <InputField label={t('namespace.tone')} value={tone} onValue={setTone} maxLength={200} />
          <Field label={t('namespace.formality')}>
            <input
              type="number"
              min={0}
              max={1}
              step={0.1}
              value={formality}
              onInput={(e) => setFormality(e.currentTarget.value)}
            />
          </Field>
          <Field label={t('namespace.boundaries')}>
            <textarea
              rows={4}
              aria-describedby={hintId}
              value={boundaries}
              onInput={(e) => setBoundaries(e.currentTarget.value)}
            />
          </Field>
          <small id={hintId} class="muted">
            {t('namespace.boundariesHint')}
          </small>
          <InputField
            label={t('namespace.escalateToRole')}
            hint={t('namespace.escalateToRoleHint')}
            value={role}
            onValue={setRole}
            maxLength={100}
          />
        </fieldset>
        {manage && (
          <div class="actions">
            <button type="submit" class="primary" disabled={busy}>
              {t('namespace.savePersona')}
            </button>
          </div>
        )}
        <ErrorNote error={error} />
        <SavedNote saved={saved} />
      </form>
    </section>
  );
}
