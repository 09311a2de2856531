import { useEffect, useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { ErrorNote, Field, useLoad } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { Filters, InputField, SelectField } from '../../components/FormField';
import { LoadedList } from '../../components/LoadedList';
import { t } from '../../i18n';
import { can } from '../../state/session';
import { AuditRow } from './insight-audit-row';
import './insight.css';

type AuditEntry = Success<'/audit', 'get'>['items'][number];
const PAGE = 50;

/** The start of a picked day (local time) as an instant; with `next`, the start of the day after. */
function dayStart(date: string, next = false): string | undefined {
  if (!date) return undefined;
  const day = new Date(`${date}T00:00`);
  if (next) day.setDate(day.getDate() + 1);
  return day.toISOString();
}

/**
 * Who did what and when: the audit entries the API answers for the user's
 * departments, newest first, narrowed by user, action, entity type and days;
 * "Load more" reads the next page.
 */
export function AuditPage(_props: { id?: string }) {
  const [userId, setUserId] = useState('');
  const [action, setAction] = useState('');
  const [entityType, setEntityType] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [more, setMore] = useState<AuditEntry[]>([]);
  const [moreError, setMoreError] = useState<unknown>(null);
  const query = {
    ...(userId ? { userId } : {}),
    ...(action.trim() ? { action: action.trim() } : {}),
    ...(entityType.trim() ? { entityType: entityType.trim() } : {}),
    ...(from ? { from: dayStart(from) } : {}),
    ...(to ? { to: dayStart(to, true) } : {}),
  };
  const key = JSON.stringify(query);
  const first = useLoad(() => api('get', '/audit', { query: { ...query, limit: PAGE } }), [key]);
  useEffect(() => setMore([]), [key]);
  const users = useLoad(
    () =>
      can('canViewAllUsers')
        ? api('get', '/users', { query: { limit: 100 } }).then((page) => page.items)
        : Promise.resolve([]),
    [],
  );
  const rows = [...(first.data?.items ?? []), ...more];
  const total = first.data?.total ?? 0;

  const loadMore = async () => {
    setMoreError(null);
    try {
      const page = await api('get', '/audit', { query: { ...query, limit: PAGE, offset: rows.length } });
      setMore([...more, ...page.items]);
    } catch (caught) {
      setMoreError(caught);
    }
  };

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t('admin.section.audit')}</h1>
      <Filters>
        {(users.data ?? []).length > 0 && (
          <SelectField
            label={t('audit.user')}
            value={userId}
            onChange={setUserId}
            all
            choices={(users.data ?? []).map((user) => ({ value: user.id, label: user.name }))}
          />
        )}
        <InputField label={t('audit.action')} value={action} onValue={setAction} maxLength={64} />
        <InputField label={t('audit.entityType')} value={entityType} onValue={setEntityType} maxLength={64} />
        <Field label={t('audit.from')}>
          <input type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        </Field>
        <Field label={t('audit.to')}>
          <input type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        </Field>
      </Filters>
      <LoadedList loaded={first} count={rows.length} empty={t('audit.empty')} announce>
        <p class="muted" role="status">
          {t('audit.shown', { shown: rows.length, total })}
        </p>
        <DataTable
          caption={t('admin.section.audit')}
          columns={[t('audit.when'), t('audit.who'), t('audit.action'), t('audit.what'), t('audit.details')]}
        >
          {rows.map((entry) => (
            <AuditRow key={entry.id} entry={entry} />
          ))}
        </DataTable>
        {rows.length < total && (
          <button type="button" onClick={() => void loadMore()}>
            {t('insight.loadMore')}
          </button>
        )}
        <ErrorNote error={moreError} />
      </LoadedList>
    </section>
  );
}
