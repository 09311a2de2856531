import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type Success } from '../../api/client';
import { ErrorNote, Field, useLoad, useSubmit } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { InputField } from '../../components/FormField';
import { LoadedList } from '../../components/LoadedList';
import { t } from '../../i18n';

type EvalRun = Success<'/namespaces/{id}/eval-runs/{runId}', 'get'>;

const POLL_MS = 1000;
const percent = (value: number) => `${Math.round(value * 100)}%`;
const finished = (status: string) => status === 'completed' || status === 'failed';

/**
 * The namespace's evaluation: its cases (a question with what a correct
 * answer holds) and its runs, which draft an answer to every case without
 * sending anything; a run's page lists each case's result.
 */
export function NamespaceEvaluation({ namespaceId }: { namespaceId: string }) {
  const cases = useLoad(
    () => api('get', '/namespaces/{id}/eval-cases', { params: { id: namespaceId }, query: { limit: 100 } }),
    [namespaceId],
  );
  const runs = useLoad(
    () => api('get', '/namespaces/{id}/eval-runs', { params: { id: namespaceId }, query: { limit: 20 } }),
    [namespaceId],
  );
  const [error, setError] = useState<unknown>(null);
  const [openRun, setOpenRun] = useState<string | null>(null);
  const rows = cases.data?.items ?? [];
  const runRows = runs.data?.items ?? [];

  const removeCase = async (caseId: string) => {
    setError(null);
    try {
      await api('delete', '/namespaces/{id}/eval-cases/{caseId}', { params: { id: namespaceId, caseId } });
      await cases.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  const start = async () => {
    setError(null);
    try {
      const run = await api('post', '/namespaces/{id}/eval-runs', { params: { id: namespaceId } });
      setOpenRun(run.id);
      await runs.reload();
    } catch (caught) {
      setError(
        caught instanceof ApiError && caught.status === 409 ? new Error(t('evaluation.noRun')) : caught,
      );
    }
  };

  return (
    <section aria-labelledby="namespace-eval-title">
      <h2 id="namespace-eval-title">{t('evaluation.title')}</h2>
      <p class="muted">{t('evaluation.intro')}</p>
      <ErrorNote error={error} />
      <h3>{t('evaluation.cases')}</h3>
      <LoadedList loaded={cases} count={rows.length} empty={t('evaluation.noCases')}>
        <DataTable
          caption={t('evaluation.cases')}
          columns={[
            t('evaluation.question'),
            t('evaluation.expectedAnswer'),
            t('evaluation.expectedIntent'),
            t('evaluation.actions'),
          ]}
        >
          {rows.map((row) => (
            <tr key={row.id}>
              <td>{row.question}</td>
              <td>{row.expectedAnswer ?? '—'}</td>
              <td>{row.expectedIntent ?? '—'}</td>
              <td>
                <button type="button" class="small danger" onClick={() => void removeCase(row.id)}>
                  {t('common.delete')}
                  <span class="sr-only"> {row.question}</span>
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      </LoadedList>
      <AddCase namespaceId={namespaceId} onAdded={cases.reload} />
      <h3>{t('evaluation.runs')}</h3>
      <div class="actions">
        <button type="button" class="primary" onClick={() => void start()} disabled={rows.length === 0}>
          {t('evaluation.run')}
        </button>
      </div>
      <LoadedList loaded={runs} count={runRows.length} empty={t('evaluation.noRuns')}>
        <DataTable
          caption={t('evaluation.runs')}
          columns={[t('evaluation.started'), t('evaluation.status'), t('evaluation.correct'), '']}
        >
          {runRows.map((run) => (
            <tr key={run.id}>
              <td>{new Date(run.createdAt).toLocaleString()}</td>
              <td>{t(`evaluation.status.${run.status}`)}</td>
              <td>{run.totals ? `${run.totals.correct} / ${run.totals.cases}` : '—'}</td>
              <td>
                <button type="button" class="small" onClick={() => setOpenRun(run.id)}>
                  {t('evaluation.open')}
                  <span class="sr-only"> {new Date(run.createdAt).toLocaleString()}</span>
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      </LoadedList>
      {openRun && <RunResults namespaceId={namespaceId} runId={openRun} onFinished={runs.reload} />}
    </section>
  );
}

/** Adds a case: the question, and optionally a phrase a correct answer holds and the expected intent. */
function AddCase({ namespaceId, onAdded }: { namespaceId: string; onAdded(): Promise<void> }) {
  const [question, setQuestion] = useState('');
  const [answer, setAnswer] = useState('');
  const [intent, setIntent] = useState('');
  const { submit, error, busy } = useSubmit(async () => {
    await api('post', '/namespaces/{id}/eval-cases', {
      params: { id: namespaceId },
      body: {
        question: question.trim(),
        ...(answer.trim() ? { expectedAnswer: answer.trim() } : {}),
        ...(intent.trim() ? { expectedIntent: intent.trim() } : {}),
      },
    });
    setQuestion('');
    setAnswer('');
    setIntent('');
    await onAdded();
  });
  return (
    <form class="card" onSubmit={submit} aria-labelledby="eval-add-title">
      <h4 id="eval-add-title">{t('evaluation.addCase')}</h4>
      <Field label={t('evaluation.question')}>
        <textarea
          rows={2}
          required
          maxLength={4000}
          value={question}
          onInput={(e) => setQuestion(e.currentTarget.value)}
        />
      </Field>
      <InputField
        label={t('evaluation.expectedAnswer')}
        value={answer}
        onValue={setAnswer}
        maxLength={2000}
      />
      <InputField label={t('evaluation.expectedIntent')} value={intent} onValue={setIntent} maxLength={100} />
      <div class="actions">
        <button type="submit" disabled={busy || !question.trim()}>
          {t('evaluation.addCaseButton')}
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}

/** One run: its progress while it runs (polled), then its totals and each case's result. */
function RunResults({
  namespaceId,
  runId,
  onFinished,
}: {
  namespaceId: string;
  runId: string;
  onFinished(): Promise<void>;
}) {
  const [run, setRun] = useState<EvalRun | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    setRun(null);
    const poll = async () => {
      try {
        const current = await api('get', '/namespaces/{id}/eval-runs/{runId}', {
          params: { id: namespaceId, runId },
        });
        if (stopped) return;
        setRun(current);
        if (finished(current.status)) await onFinished();
        else timer = setTimeout(() => void poll(), POLL_MS);
      } catch (caught) {
        if (!stopped) setError(caught);
      }
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [namespaceId, runId]);
  return (
    <section class="card" aria-labelledby="eval-run-title">
      <h4 id="eval-run-title">{t('evaluation.runTitle')}</h4>
      <ErrorNote error={error} />
      <p role="status">
        {run &&
          (finished(run.status)
            ? run.status === 'failed'
              ? `${t('evaluation.status.failed')}${run.error ? `: ${run.error}` : ''}`
              : t('evaluation.summary', {
                  correct: run.totals?.correct ?? 0,
                  cases: run.totals?.cases ?? 0,
                  fallbacks: run.totals?.fallbacks ?? 0,
                })
            : t('evaluation.progress', { processed: run.processed, cases: run.caseCount }))}
      </p>
      {run && run.results.length > 0 && (
        <DataTable
          caption={t('evaluation.results')}
          columns={[
            t('evaluation.question'),
            t('evaluation.draft'),
            t('evaluation.confidence'),
            t('evaluation.intent'),
            t('evaluation.verdict'),
          ]}
        >
          {run.results.map((result) => (
            <tr key={result.caseId}>
              <td>{result.question}</td>
              <td class="eval-draft">{result.error ?? result.draft}</td>
              <td>{percent(result.confidence)}</td>
              <td>{result.predictedIntent}</td>
              <td>{t(result.correct ? 'evaluation.pass' : 'evaluation.fail')}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
