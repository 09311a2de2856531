import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { ApprovalItem, BatchResult } from '../api/types';
import { ErrorNote, Field, useLoad } from '../components/common';
import { DataTable } from '../components/DataTable';
import { DepartmentSelect, NamespaceSelect } from '../components/DirectorySelect';
import { Filters, SelectField } from '../components/FormField';
import { LoadedList } from '../components/LoadedList';
import { formatDate, formatPercent, label, t } from '../i18n';
import { approvalsTick } from '../state/live';
import { hrefOf } from '../state/router';

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

/** Newest first: the service lists the queue oldest first, the inbox shows what just arrived on top. */
const newestFirst = (items: ApprovalItem[]) =>
  [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

export function InboxPage() {
  const [departmentId, setDepartmentId] = useState('');
  const [namespaceId, setNamespaceId] = useState('');
  const [intent, setIntent] = useState('');
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<Status>('pending');
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
  const items = newestFirst(list.data?.items ?? []);

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

  const decide = async (action: 'approve' | 'reject') => {
    setBusy(true);
    setBatchError(null);
    const rows = items.filter((i) => selected.has(i.id));
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
      const names = new Map(rows.map((r) => [r.id, `${r.sender.name}: ${r.originalContent.slice(0, 60)}`]));
      setResults(answer.results.map((r) => ({ ...r, label: names.get(r.approvalId) ?? r.approvalId })));
      setSelected(new Set());
      await list.reload();
    } catch (e) {
      setBatchError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="inbox-title">
      <h1 id="inbox-title">{t('inbox.title')}</h1>
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
      </Filters>

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
            t('inbox.received'),
            t('inbox.from'),
            t('inbox.draft'),
            t('common.intent'),
            t('common.confidence'),
            t('inbox.reasons'),
          ]}
        >
          {items.map((item) => (
            <tr key={item.id} data-approval-id={item.id}>
              <td>
                <input
                  type="checkbox"
                  aria-label={t('inbox.selectRow', { name: item.sender.name })}
                  checked={selected.has(item.id)}
                  onChange={() => toggle(item.id)}
                />
              </td>
              <td>{formatDate(item.createdAt)}</td>
              <td>
                {item.sender.name}
                <span class="muted small"> · {label('channel', item.channel)}</span>
              </td>
              <td class="draft">
                <a href={hrefOf({ name: 'approval', id: item.id })}>{excerpt(item.originalContent)}</a>
              </td>
              <td>{item.intent ?? '—'}</td>
              <td>{formatPercent(item.confidence)}</td>
              <td>
                <ul class="tags">
                  {item.reasons.map((r, i) => (
                    <li key={`${r.type}-${i}`} class="tag">
                      {label('reason', r.type)}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </DataTable>
      </LoadedList>
    </section>
  );
}

const excerpt = (text: string) => (text.length > 140 ? `${text.slice(0, 140)}…` : text);
