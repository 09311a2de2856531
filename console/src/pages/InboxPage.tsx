import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { ApprovalItem, BatchResult } from '../api/types';
import { ErrorNote, Field, useLoad } from '../components/common';
import { DataTable } from '../components/DataTable';
import { DepartmentSelect, NamespaceSelect } from '../components/DirectorySelect';
import { Filters, SelectField } from '../components/FormField';
import { LoadedList } from '../components/LoadedList';
import { formatDuration, formatPercent, label, t } from '../i18n';
import { approvalsTick } from '../state/live';
import { hrefOf, navigate } from '../state/router';
import { KeyboardHelp, useInboxKeys } from './inbox-keys';

export const HITL_REASONS = [
  'low_confidence',
  'trigger_word',
  'first_interaction',
  'unknown_intent',
  'not_autonomous',
  'sampled',
  'injection',
  'persona_boundary',
] as const;

const STATUSES = ['pending', 'escalated'] as const;
type Status = (typeof STATUSES)[number];

const SORTS = ['waiting', 'newest'] as const;
type Sort = (typeof SORTS)[number];

/** Longest waiting first, as the service answers them, or what just arrived on top. */
const sorted = (items: ApprovalItem[], sort: Sort) => (sort === 'waiting' ? items : [...items].reverse());

/** Wide screens open the filters; on a phone the list comes first and the filters fold. */
const wideScreen = () => window.matchMedia('(min-width: 701px)').matches;

export function InboxPage() {
  const [departmentId, setDepartmentId] = useState('');
  const [namespaceId, setNamespaceId] = useState('');
  const [intent, setIntent] = useState('');
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<Status>('pending');
  const [sort, setSort] = useState<Sort>('waiting');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [rejectReason, setRejectReason] = useState('');
  const [results, setResults] = useState<Array<BatchResult & { label: string }> | null>(null);
  const [batchError, setBatchError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const tick = approvalsTick.value;

  const list = useLoad(
    () =>
      api('get', '/approvals', {
        query: {
          status,
          limit: 100,
          ...(departmentId ? { departmentId } : {}),
          ...(namespaceId ? { namespaceId } : {}),
          ...(intent.trim() ? { intent: intent.trim() } : {}),
          ...(reason ? { reason } : {}),
        },
      }),
    [status, departmentId, namespaceId, intent, reason, tick],
  );
  const items = sorted(list.data?.items ?? [], sort);
  const now = Date.now();

  // Rows that left the list (decided, filtered out) leave the selection too.
  useEffect(() => {
    const ids = new Set(items.map((i) => i.id));
    if ([...selected].some((id) => !ids.has(id)))
      setSelected(new Set([...selected].filter((id) => ids.has(id))));
  }, [list.data]);

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));

  const decide = async (action: 'approve' | 'reject', rows = items.filter((i) => selected.has(i.id))) => {
    if (rows.length === 0) return;
    setBusy(true);
    setBatchError(null);
    try {
      const answer = await api('post', '/approvals/batch', {
        body: {
          decisions: rows.map((row) => ({
            approvalId: row.id,
            action,
            ...(action === 'reject' && rejectReason.trim() ? { reason: rejectReason.trim() } : {}),
          })),
        },
      });
      const names = new Map(
        rows.map((r) => [r.id, `${r.sender.name}: ${(r.question ?? r.originalContent).slice(0, 60)}`]),
      );
      setResults(answer.results.map((r) => ({ ...r, label: names.get(r.approvalId) ?? r.approvalId })));
      setSelected(new Set());
      await list.reload();
    } catch (e) {
      setBatchError(e);
    } finally {
      setBusy(false);
    }
  };

  const keys = useInboxKeys({
    count: items.length,
    open: (i) => navigate({ name: 'approval', id: items[i]!.id }),
    edit: (i) => {
      location.hash = `${hrefOf({ name: 'approval', id: items[i]!.id })}?mode=edit`;
    },
    approve: (i) => void decide('approve', [items[i]!]),
    reject: (i) => void decide('reject', [items[i]!]),
    select: (i) => toggle(items[i]!.id),
    busy,
  });

  return (
    <section aria-labelledby="inbox-title">
      <h1 id="inbox-title">{t('inbox.title')}</h1>
      <details class="filter-panel" open={wideScreen()}>
        <summary>{t('inbox.filters')}</summary>
        <Filters>
          <SelectField
            label={t('inbox.status')}
            value={status}
            onChange={setStatus}
            choices={STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
          />
          <DepartmentSelect value={departmentId} onChange={setDepartmentId} all />
          <NamespaceSelect value={namespaceId} onChange={setNamespaceId} all />
          <Field label={t('common.intent')}>
            <input type="search" value={intent} onChange={(e) => setIntent(e.currentTarget.value)} />
          </Field>
          <SelectField
            label={t('inbox.reason')}
            value={reason}
            onChange={setReason}
            choices={HITL_REASONS.map((value) => ({ value, label: label('reason', value) }))}
            all
          />
          <SelectField
            label={t('inbox.sort')}
            value={sort}
            onChange={setSort}
            choices={SORTS.map((value) => ({ value, label: t(`inbox.sort.${value}`) }))}
          />
        </Filters>
      </details>
      <KeyboardHelp open={keys.help} onToggle={keys.setHelp} />

      {selected.size > 0 && (
        <fieldset class="batch">
          <legend class="sr-only">{t('inbox.batch')}</legend>
          <span aria-live="polite">{t('inbox.selected', { count: selected.size })}</span>
          <button
            type="button"
            class="primary"
            disabled={busy || selected.size === 0}
            onClick={() => decide('approve')}
          >
            {t('inbox.approveSelected')}
          </button>
          <Field label={t('inbox.rejectReason')}>
            <input
              value={rejectReason}
              onInput={(e) => setRejectReason(e.currentTarget.value)}
              maxLength={2000}
            />
          </Field>
          <button
            type="button"
            class="danger"
            disabled={busy || selected.size === 0}
            onClick={() => decide('reject')}
          >
            {t('inbox.rejectSelected')}
          </button>
        </fieldset>
      )}
      <ErrorNote error={batchError} />
      {results && (
        <div class="results" role="status" aria-labelledby="batch-results">
          <h2 id="batch-results">{t('inbox.results')}</h2>
          <ul>
            {results.map((r) => (
              <li key={r.approvalId} class={r.status === 'success' ? 'ok' : 'bad'} data-result={r.status}>
                <span>{r.label}</span> —{' '}
                {r.status === 'success'
                  ? t('inbox.resultOk')
                  : `${t('inbox.resultError')} ${r.message ?? r.error ?? ''}`}
              </li>
            ))}
          </ul>
          <button type="button" class="link" onClick={() => setResults(null)}>
            {t('common.dismiss')}
          </button>
        </div>
      )}

      <LoadedList loaded={list} count={items.length} empty={t('inbox.empty')} announce>
        <DataTable
          class="inbox"
          caption={t('inbox.caption', { count: list.data?.total ?? items.length })}
          columns={[
            <input
              key="all"
              type="checkbox"
              aria-label={t('inbox.selectAll')}
              checked={allSelected}
              onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.id)))}
            />,
            t('inbox.question'),
            t('inbox.draft'),
            t('inbox.reasons'),
            t('common.confidence'),
            t('inbox.waiting'),
          ]}
        >
          {items.map((item, index) => (
            <tr
              key={item.id}
              data-approval-id={item.id}
              class={index === keys.current ? 'current' : undefined}
              aria-current={index === keys.current ? 'true' : undefined}
            >
              <td>
                <input
                  type="checkbox"
                  aria-label={t('inbox.selectRow', { name: item.sender.name })}
                  checked={selected.has(item.id)}
                  onChange={() => toggle(item.id)}
                />
              </td>
              <td class="question">
                <span class="who-asked">
                  {item.sender.name}
                  <span class="muted small">
                    {' '}
                    · {label('channel', item.channel)}
                    {item.intent ? ` · ${item.intent}` : ''}
                  </span>
                </span>
                <a href={hrefOf({ name: 'approval', id: item.id })}>{excerpt(item.question ?? '—')}</a>
              </td>
              <td class="draft muted">{excerpt(item.originalContent)}</td>
              <td>
                <ul class="tags">
                  {item.reasons.map((r, i) => (
                    <li key={`${r.type}-${i}`} class="tag">
                      {label('reason', r.type)}
                    </li>
                  ))}
                </ul>
              </td>
              <td>{formatPercent(item.confidence)}</td>
              <td>
                <time dateTime={item.createdAt} title={item.createdAt}>
                  {formatDuration(now - Date.parse(item.createdAt))}
                </time>
              </td>
            </tr>
          ))}
        </DataTable>
      </LoadedList>
    </section>
  );
}

const excerpt = (text: string) => (text.length > 140 ? `${text.slice(0, 140)}…` : text);
