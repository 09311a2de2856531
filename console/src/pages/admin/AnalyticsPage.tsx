import { useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { BarChart, ColumnChart } from '../../components/Chart';
import { useLoad } from '../../components/common';
import { DepartmentSelect } from '../../components/DirectorySelect';
import { Filters, SelectField } from '../../components/FormField';
import { LoadedList } from '../../components/LoadedList';
import { formatDuration, formatNumber, formatPercent, label, t } from '../../i18n';
import { IntentFigures } from './insight-intents';
import './insight.css';

type Dashboard = Success<'/analytics/dashboard', 'get'>;

/** The windows a manager picks from, in days (the API takes 1 to 90). */
export const PERIODS = ['7', '30', '90'] as const;
export type Period = (typeof PERIODS)[number];

/**
 * Analytics at a glance: the dashboard of the chosen department and period
 * (messages per day, approval outcomes, why replies went to a human, the top
 * intents), then per namespace how far each intent runs on its own.
 */
export function AnalyticsPage(_props: { id?: string }) {
  const [departmentId, setDepartmentId] = useState('');
  const [period, setPeriod] = useState<Period>('30');
  const periods = PERIODS.map((days) => ({ value: days, label: t('analytics.days', { days }) }));
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title">{t('admin.section.analytics')}</h1>
      <Filters>
        <DepartmentSelect all value={departmentId} onChange={setDepartmentId} />
        <SelectField label={t('analytics.period')} value={period} onChange={setPeriod} choices={periods} />
      </Filters>
      <Overview departmentId={departmentId} days={Number(period)} />
      <IntentFigures days={Number(period)} departmentId={departmentId} />
    </section>
  );
}

function Overview({ departmentId, days }: { departmentId: string; days: number }) {
  const dashboard = useLoad(
    () => api('get', '/analytics/dashboard', { query: { days, ...(departmentId ? { departmentId } : {}) } }),
    [departmentId, days],
  );
  const data = dashboard.data;
  return (
    <section aria-labelledby="analytics-overview">
      <h2 id="analytics-overview">{t('analytics.overview')}</h2>
      <LoadedList loaded={dashboard} count={data ? 1 : 0} empty="" announce>
        {data && <OverviewCharts data={data} />}
      </LoadedList>
    </section>
  );
}

function OverviewCharts({ data }: { data: Dashboard }) {
  const approvals = data.approvals.byStatus;
  const decided = data.approvals.total;
  const share = (count: number) => ({ value: decided ? count / decided : 0, text: `${count}` });
  const outcomes = (['approved', 'edited', 'rejected', 'escalated', 'pending'] as const).map((status) => ({
    label: label('analytics.outcome', status),
    ...share(approvals[status]),
    text: decided ? `${approvals[status]} (${formatPercent(approvals[status] / decided)})` : '0',
  }));
  return (
    <>
      <dl class="insight-figures">
        <Figure term={t('analytics.messagesIn')} value={formatNumber(data.messages.inbound)} />
        <Figure term={t('analytics.messagesOut')} value={formatNumber(data.messages.outbound)} />
        <Figure term={t('analytics.approvals')} value={formatNumber(data.approvals.total)} />
        <Figure
          term={t('analytics.autonomy')}
          value={data.autonomy.rate === null ? t('analytics.none') : formatPercent(data.autonomy.rate)}
        />
        <Figure
          term={t('analytics.medianDecision')}
          value={
            data.approvals.medianDecisionMs === null
              ? t('analytics.none')
              : formatDuration(data.approvals.medianDecisionMs)
          }
        />
        <Figure term={t('analytics.cost')} value={`$${formatNumber(data.usage.costUsd, 4)}`} />
      </dl>
      <div class="insight-charts">
        <ColumnChart
          title={t('analytics.perDay')}
          labelHeading={t('analytics.day')}
          valueHeading={t('analytics.messagesIn')}
          columns={data.series.map((day) => ({ label: day.date, value: day.messagesIn }))}
        />
        <BarChart
          title={t('analytics.outcomes')}
          valueHeading={t('analytics.count')}
          max={1}
          bars={outcomes}
        />
        <BarChart
          title={t('analytics.reasons')}
          valueHeading={t('analytics.count')}
          bars={data.hitlReasons.map((row) => ({
            label: label('reason', row.reason),
            value: row.count,
          }))}
        />
        <BarChart
          title={t('analytics.topIntents')}
          valueHeading={t('analytics.count')}
          bars={data.topIntents.map((row) => ({ label: row.intent, value: row.count }))}
        />
      </div>
    </>
  );
}

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
