import { useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { BarChart } from '../../components/Chart';
import { useLoad } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { SelectField } from '../../components/FormField';
import { LoadedList } from '../../components/LoadedList';
import { formatPercent, t } from '../../i18n';
import { useNamespaces } from '../../state/directory';

type IntentRow = Success<'/analytics/intents', 'get'>['intents'][number];

/** Clean approvals over all decisions of the intent; null without decisions. */
export function approvalRate(row: IntentRow): number | null {
  const d = row.decisions;
  const total = d.approved + d.edited + d.rejected + d.escalated;
  return total ? d.approved / total : null;
}

/** Replies sent without a human over all the intent's replies; null without replies. */
export function ownShare(row: IntentRow): number | null {
  const total = row.autoSent + row.hitl;
  return total ? row.autoSent / total : null;
}

/**
 * Per intent of a namespace (of the chosen department, if any): how far it
 * runs on its own: the share of replies sent without a human, the clean
 * approval rate, edits, and its trust record against the threshold.
 */
export function IntentFigures({ days, departmentId }: { days: number; departmentId: string }) {
  const all = useNamespaces();
  const namespaces = departmentId ? all.filter((ns) => ns.departmentId === departmentId) : all;
  const [chosen, setChosen] = useState('');
  const namespaceId = namespaces.some((ns) => ns.id === chosen) ? chosen : (namespaces[0]?.id ?? '');
  return (
    <section aria-labelledby="analytics-intents">
      <h2 id="analytics-intents">{t('analytics.intents')}</h2>
      {namespaces.length === 0 ? (
        <p class="muted">{t('analytics.noNamespaces')}</p>
      ) : (
        <SelectField
          label={t('common.namespace')}
          value={namespaceId}
          onChange={setChosen}
          choices={namespaces.map((ns) => ({ value: ns.id, label: ns.name }))}
        />
      )}
      {namespaceId && <Intents namespaceId={namespaceId} days={days} />}
    </section>
  );
}

function Intents({ namespaceId, days }: { namespaceId: string; days: number }) {
  const loaded = useLoad(
    () => api('get', '/analytics/intents', { query: { namespaceId, days } }),
    [namespaceId, days],
  );
  const rows = loaded.data?.intents ?? [];
  const percent = (value: number | null) => (value === null ? t('analytics.none') : formatPercent(value));
  return (
    <LoadedList loaded={loaded} count={rows.length} empty={t('analytics.noIntents')} announce>
      <div class="insight-charts">
        <BarChart
          title={t('analytics.ownShare')}
          valueHeading={t('analytics.share')}
          max={1}
          bars={rows.map((row) => ({
            label: row.intent,
            value: ownShare(row) ?? 0,
            text: percent(ownShare(row)),
          }))}
        />
        <BarChart
          title={t('analytics.approvalRate')}
          valueHeading={t('analytics.share')}
          max={1}
          bars={rows.map((row) => ({
            label: row.intent,
            value: approvalRate(row) ?? 0,
            text: percent(approvalRate(row)),
          }))}
        />
      </div>
      <DataTable
        caption={t('analytics.autonomyTable')}
        columns={[
          t('common.intent'),
          t('analytics.messages'),
          t('analytics.autoSent'),
          t('analytics.hitl'),
          t('analytics.approvalRate'),
          t('analytics.edits'),
          t('analytics.runsAlone'),
          t('analytics.trust'),
        ]}
      >
        {rows.map((row) => (
          <tr key={row.intent} data-intent={row.intent}>
            <th scope="row">{row.intent}</th>
            <td>{row.messages}</td>
            <td>{row.autoSent}</td>
            <td>{row.hitl}</td>
            <td>{percent(approvalRate(row))}</td>
            <td>{row.decisions.edited}</td>
            <td>{row.trust?.isAutonomous ? t('common.yes') : t('common.no')}</td>
            <td>
              {row.trust
                ? t('analytics.trustLine', {
                    count: row.trust.successfulCount,
                    threshold: row.trust.threshold,
                  })
                : t('analytics.noTrust')}
            </td>
          </tr>
        ))}
      </DataTable>
    </LoadedList>
  );
}
