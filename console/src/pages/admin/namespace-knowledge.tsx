import { useEffect, useState } from 'preact/hooks';
import { api, type BodyOf } from '../../api/client';
import { ErrorNote, useLoad, useSubmit } from '../../components/common';
import { LoadedList } from '../../components/LoadedList';
import { t } from '../../i18n';
import { hrefOf } from '../../state/router';
import type { Namespace } from './namespace-detail';

type Config = NonNullable<BodyOf<'/namespaces/{id}', 'patch'>['config']>;

/**
 * The knowledge bases the assistant searches: the bases of the namespace's
 * department, all of them unless some are chosen (config.knowledgeBaseIds).
 * The bases themselves are managed on the knowledge page.
 */
export function NamespaceKnowledge({
  namespace,
  manage,
  onSaved,
}: {
  namespace: Namespace;
  manage: boolean;
  onSaved(): Promise<void>;
}) {
  const bases = useLoad(
    () => api('get', '/knowledge/bases', { query: { departmentId: namespace.departmentId, limit: 100 } }),
    [namespace.departmentId],
  );
  const config = namespace.config as Config;
  const [chosen, setChosen] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  useEffect(() => setChosen(config.knowledgeBaseIds ?? []), [namespace]);
  const rows = bases.data?.items ?? [];
  const { submit, error, busy } = useSubmit(async () => {
    setSaved(false);
    const { knowledgeBaseIds: _old, ...rest } = config;
    // The config is replaced whole: keep its other parts, and leave the list unset for "every base".
    const next: Config = chosen.length > 0 ? { ...rest, knowledgeBaseIds: chosen } : rest;
    await api('patch', '/namespaces/{id}', { params: { id: namespace.id }, body: { config: next } });
    setSaved(true);
    await onSaved();
  });
  const toggle = (id: string, on: boolean) =>
    setChosen((current) => (on ? [...current, id] : current.filter((c) => c !== id)));
  return (
    <section aria-labelledby="namespace-knowledge-title">
      <h2 id="namespace-knowledge-title">{t('namespace.knowledge')}</h2>
      <p class="muted">
        {t('namespace.knowledgeIntro')}{' '}
        <a href={hrefOf({ name: 'knowledge' })}>{t('namespace.knowledgeLink')}</a>
      </p>
      <LoadedList loaded={bases} count={rows.length} empty={t('namespace.knowledgeEmpty')}>
        <form onSubmit={submit}>
          <fieldset disabled={!manage}>
            <legend>{t('namespace.knowledgeChoose')}</legend>
            {rows.map((base) => (
              <label key={base.id} class="field inline">
                <input
                  type="checkbox"
                  checked={chosen.includes(base.id)}
                  onChange={(e) => toggle(base.id, e.currentTarget.checked)}
                />
                <span>{base.name}</span>
              </label>
            ))}
            <p class="muted small">{chosen.length === 0 ? t('namespace.knowledgeAll') : ''}</p>
          </fieldset>
          {manage && (
            <div class="actions">
              <button type="submit" class="primary" disabled={busy}>
                {t('namespace.saveKnowledge')}
              </button>
            </div>
          )}
          <ErrorNote error={error} />
          <p role="status" class="ok">
            {saved ? t('common.saved') : ''}
          </p>
        </form>
      </LoadedList>
    </section>
  );
}
