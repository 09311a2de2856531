import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type BodyOf } from '../api/client';
import { ErrorNote, Field, useLoad } from '../components/common';
import { t } from '../i18n';

type Mode = 'count' | 'confidence';
type NamespaceConfig = NonNullable<BodyOf<'/namespaces/{id}', 'patch'>['config']>;

interface Policy {
  mode: Mode;
  window: number;
  targetRate: number;
  confidenceLevel: number;
  margin: number;
}

/** The server's defaults (docs/approvals.md), shown for whatever the namespace leaves unset. */
const DEFAULTS: Policy = { mode: 'count', window: 50, targetRate: 0.85, confidenceLevel: 0.95, margin: 0.05 };
const POLL_MS = 1000;

/** The confidence mode's numbers, with the bounds the server validates. */
const NUMBERS = [
  { key: 'window', min: 5, max: 1000, step: 1 },
  { key: 'targetRate', min: 0.5, max: 0.99, step: 0.01 },
  { key: 'confidenceLevel', min: 0.5, max: 0.999, step: 0.001 },
  { key: 'margin', min: 0, max: 0.5, step: 0.01 },
] as const;

interface RunTotals {
  cases: number;
  correct: number;
  fallbacks: number;
}

/**
 * A namespace's trust policy. Before it is changed the page offers to run the namespace's
 * evaluation cases and shows their totals, so a manager sees how the answers fare first.
 */
export function TrustPolicy({ namespaceId }: { namespaceId: string }) {
  const namespace = useLoad(
    () => api('get', '/namespaces/{id}', { params: { id: namespaceId } }),
    [namespaceId],
  );
  const [policy, setPolicy] = useState<Policy>(DEFAULTS);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const [run, setRun] = useState<{ status: string; totals: RunTotals | null } | null>(null);

  // The answer types config loosely; it is what the namespace's PATCH validated.
  const config = (namespace.data?.config ?? {}) as NamespaceConfig;
  useEffect(() => {
    const stored = config.trust?.policy ?? {};
    setPolicy({ ...DEFAULTS, ...stored });
    setRun(null);
    setSaved(false);
  }, [namespace.data]);

  const set = <K extends keyof Policy>(key: K, value: Policy[K]) => {
    setSaved(false);
    setPolicy((current) => ({ ...current, [key]: value }));
  };

  const check = async () => {
    setError(null);
    try {
      const started = await api('post', '/namespaces/{id}/eval-runs', { params: { id: namespaceId } });
      setRun({ status: started.status, totals: null });
      for (;;) {
        const current = await api('get', '/namespaces/{id}/eval-runs/{runId}', {
          params: { id: namespaceId, runId: started.id },
        });
        if (current.status === 'completed' || current.status === 'failed') {
          setRun({ status: current.status, totals: current.totals });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } catch (caught) {
      setRun(null);
      setError(caught instanceof ApiError && caught.status === 409 ? new Error(t('policy.noRun')) : caught);
    }
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      await api('patch', '/namespaces/{id}', {
        params: { id: namespaceId },
        body: { config: { ...config, trust: { ...config.trust, policy } } },
      });
      setSaved(true);
      await namespace.reload();
    } catch (caught) {
      setError(caught);
    }
  };

  const confidence = policy.mode === 'confidence';
  return (
    <section aria-labelledby="policy-title">
      <h2 id="policy-title">{t('policy.title')}</h2>
      <p class="muted">{t('policy.intro')}</p>
      <ErrorNote error={namespace.error ?? error} />
      <form onSubmit={save}>
        <Field label={t('policy.mode')}>
          <select value={policy.mode} onChange={(e) => set('mode', e.currentTarget.value as Mode)}>
            <option value="count">{t('policy.modeCount')}</option>
            <option value="confidence">{t('policy.modeConfidence')}</option>
          </select>
        </Field>
        {confidence &&
          NUMBERS.map(({ key, min, max, step }) => (
            <Field key={key} label={t(`policy.${key}`)}>
              <input
                type="number"
                min={min}
                max={max}
                step={step}
                required
                value={policy[key]}
                onInput={(e) => set(key, Number(e.currentTarget.value))}
              />
            </Field>
          ))}
        <p>
          <button
            type="button"
            onClick={check}
            disabled={run?.status === 'queued' || run?.status === 'running'}
          >
            {t('policy.check')}
          </button>{' '}
          <button type="submit" class="primary">
            {t('policy.save')}
          </button>
        </p>
        <p role="status">
          {run && !run.totals && run.status !== 'failed' && t('policy.running')}
          {run?.status === 'failed' && t('policy.runFailed')}
          {run?.totals &&
            t('policy.totals', {
              correct: run.totals.correct,
              cases: run.totals.cases,
              fallbacks: run.totals.fallbacks,
            })}
          {saved && ` ${t('common.saved')}`}
        </p>
      </form>
    </section>
  );
}
