import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { IntentTrust } from '../api/types';
import { ErrorNote, Field, useLoad } from '../components/common';
import { DataTable } from '../components/DataTable';
import { NamespaceSelect } from '../components/DirectorySelect';
import { LoadedList } from '../components/LoadedList';
import { formatDate, t } from '../i18n';
import { useNamespaces } from '../state/directory';
import { can } from '../state/session';
import { TrustPolicy } from './TrustPolicy';

/** Per namespace: the intents with their examples, and the trust record of each intent. */
export function IntentsPage() {
  const namespaces = useNamespaces();
  const [chosen, setChosen] = useState('');
  const namespaceId = chosen || namespaces[0]?.id || '';
  return (
    <section aria-labelledby="intents-title">
      <h1 id="intents-title">{t('intents.title')}</h1>
      {namespaces.length === 0 && <p class="muted">{t('intents.noNamespaces')}</p>}
      {namespaces.length > 0 && <NamespaceSelect value={namespaceId} onChange={setChosen} />}
      {namespaceId && <Intents namespaceId={namespaceId} />}
      {namespaceId && can('canManageNamespaces') && <Trust namespaceId={namespaceId} />}
      {namespaceId && can('canManageNamespaces') && <TrustPolicy namespaceId={namespaceId} />}
    </section>
  );
}

function Intents({ namespaceId }: { namespaceId: string }) {
  const intents = useLoad(
    () => api('get', '/intents', { query: { namespaceId, limit: 100 } }),
    [namespaceId],
  );
  const [open, setOpen] = useState<string | null>(null);
  const [intentName, setIntentName] = useState('');
  const [exampleText, setExampleText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const manage = can('canManageNamespaces');
  const items = intents.data?.items ?? [];

  const add = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      await api('post', '/intents/examples', {
        body: { namespaceId, intentName: intentName.trim(), exampleText: exampleText.trim() },
      });
      setExampleText('');
      setOpen(intentName.trim());
      await intents.reload();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section aria-labelledby="intent-list-title">
      <h2 id="intent-list-title">{t('intents.list')}</h2>
      <LoadedList loaded={intents} count={items.length} empty={t('intents.empty')} keepEmpty>
        <ul class="intents">
          {items.map((intent) => (
            <li key={intent.intentName}>
              <button
                type="button"
                class="link"
                aria-expanded={open === intent.intentName}
                disabled={!manage}
                onClick={() => setOpen(open === intent.intentName ? null : intent.intentName)}
              >
                {intent.intentName}
              </button>{' '}
              <span class="muted small">{t('intents.examples', { count: intent.exampleCount })}</span>
              {manage && open === intent.intentName && (
                <Examples namespaceId={namespaceId} intentName={intent.intentName} changed={intents.reload} />
              )}
            </li>
          ))}
        </ul>
      </LoadedList>
      {manage && (
        <form onSubmit={add} class="row wrap end" aria-labelledby="add-example-title">
          <h3 id="add-example-title" class="full">
            {t('intents.addExample')}
          </h3>
          <Field label={t('common.intent')}>
            <input
              required
              maxLength={100}
              value={intentName}
              onInput={(e) => setIntentName(e.currentTarget.value)}
            />
          </Field>
          <Field label={t('intents.phrase')}>
            <input
              required
              maxLength={1000}
              value={exampleText}
              onInput={(e) => setExampleText(e.currentTarget.value)}
            />
          </Field>
          <button type="submit" class="primary">
            {t('common.add')}
          </button>
        </form>
      )}
      <ErrorNote error={error} />
    </section>
  );
}

function Examples(props: { namespaceId: string; intentName: string; changed(): Promise<void> }) {
  const examples = useLoad(
    () =>
      api('get', '/intents/examples', {
        query: { namespaceId: props.namespaceId, intentName: props.intentName, limit: 100 },
      }),
    [props.namespaceId, props.intentName],
  );
  const [error, setError] = useState<unknown>(null);
  const remove = async (id: string) => {
    setError(null);
    try {
      await api('delete', '/intents/examples/{id}', { params: { id } });
      await examples.reload();
      await props.changed();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <>
      <ErrorNote error={examples.error ?? error} />
      <ul class="examples">
        {(examples.data?.items ?? []).map((ex) => (
          <li key={ex.id}>
            <span>{ex.exampleText}</span>{' '}
            <button
              type="button"
              class="link small danger"
              aria-label={t('intents.deleteExample', { text: ex.exampleText })}
              onClick={() => void remove(ex.id)}
            >
              {t('common.delete')}
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}

function Trust({ namespaceId }: { namespaceId: string }) {
  const trust = useLoad(
    () => api('get', '/intents/trust', { query: { namespaceId, limit: 100 } }),
    [namespaceId],
  );
  const rows = trust.data?.items ?? [];
  return (
    <section aria-labelledby="trust-title">
      <h2 id="trust-title">{t('trust.title')}</h2>
      <p class="muted">{t('trust.intro')}</p>
      <LoadedList loaded={trust} count={rows.length} empty={t('trust.empty')}>
        <DataTable
          columns={[
            t('common.intent'),
            t('trust.successful'),
            t('trust.threshold'),
            t('trust.autonomous'),
            t('trust.evidence'),
            t('trust.sampling'),
            t('trust.updated'),
            t('common.actions'),
          ]}
        >
          {rows.map((row) => (
            <TrustRow key={row.id} row={row} saved={trust.reload} />
          ))}
        </DataTable>
      </LoadedList>
    </section>
  );
}

function TrustRow({ row, saved }: { row: IntentTrust; saved(): Promise<void> }) {
  const [threshold, setThreshold] = useState(String(row.threshold));
  const [sampling, setSampling] = useState(String(row.samplingRate));
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  // Take the server's values when they change (after a save), never over what is being typed on mount.
  const shown = useRef(`${row.threshold}/${row.samplingRate}`);
  useEffect(() => {
    const current = `${row.threshold}/${row.samplingRate}`;
    if (shown.current === current) return;
    shown.current = current;
    setThreshold(String(row.threshold));
    setSampling(String(row.samplingRate));
  }, [row.threshold, row.samplingRate]);

  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setDone(false);
    try {
      await api('patch', '/intents/trust/{id}', {
        params: { id: row.id },
        body: { threshold: Number(threshold), samplingRate: Number(sampling) },
      });
      setDone(true);
      await saved();
    } catch (caught) {
      setError(caught);
    }
  };
  const formId = `trust-${row.id}`;
  return (
    <tr data-intent={row.intentName}>
      <th scope="row">{row.intentName}</th>
      <td>{row.successfulCount}</td>
      <td>
        <input
          form={formId}
          type="number"
          min={1}
          max={1000}
          step={1}
          required
          aria-label={t('trust.thresholdOf', { intent: row.intentName })}
          value={threshold}
          onInput={(e) => setThreshold(e.currentTarget.value)}
        />
      </td>
      <td>{row.isAutonomous ? t('common.yes') : t('common.no')}</td>
      <td>
        <Evidence row={row} />
      </td>
      <td>
        <input
          form={formId}
          type="number"
          min={0}
          max={1}
          step={0.01}
          required
          aria-label={t('trust.samplingOf', { intent: row.intentName })}
          value={sampling}
          onInput={(e) => setSampling(e.currentTarget.value)}
        />
      </td>
      <td>{formatDate(row.updatedAt)}</td>
      <td>
        <form id={formId} onSubmit={save}>
          <button type="submit" class="small" aria-label={t('trust.saveOf', { intent: row.intentName })}>
            {t('common.save')}
          </button>
          {done && (
            <span role="status" class="small ok">
              {' '}
              {t('common.saved')}
            </span>
          )}
        </form>
        <ErrorNote error={error} />
      </td>
    </tr>
  );
}

/** What the intent's trust rests on: its counted decisions, the bound, and what is still needed. */
function Evidence({ row }: { row: IntentTrust }) {
  const evidence = row.evidence;
  if (!evidence) return null;
  return (
    <span class="small">
      {t('trust.evidenceLine', {
        clean: evidence.cleanApprovals,
        edits: evidence.edits,
        rejections: evidence.rejections,
        notCounted: evidence.notCounted,
      })}
      {evidence.lowerBound !== null && (
        <>
          <br />
          {t('trust.bound', { percent: Math.floor(evidence.lowerBound * 100) })}
        </>
      )}
      {!row.isAutonomous && evidence.neededForPromotion > 0 && (
        <>
          <br />
          {t('trust.needed', { count: evidence.neededForPromotion })}
        </>
      )}
    </span>
  );
}
