import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import { ErrorNote, useLoad } from '../components/common';
import { DataTable } from '../components/DataTable';
import { NamespaceSelect } from '../components/DirectorySelect';
import { Filters, SelectField } from '../components/FormField';
import { LoadedList } from '../components/LoadedList';
import { formatDate, formatNumber, formatPercent, label, t } from '../i18n';
import { useNamespaces } from '../state/directory';
import { onTaskEvent } from '../state/live';
import { hrefOf } from '../state/router';
import './account.css';

/** How much of the inbound message a row shows; the task page shows the rest. */
const PREVIEW_CHARS = 80;

/** The message cut to PREVIEW_CHARS characters, an ellipsis marking the cut. */
function preview(text: string): string {
  return text.length <= PREVIEW_CHARS ? text : `${text.slice(0, PREVIEW_CHARS - 1).trimEnd()}…`;
}

const STATUSES = ['queued', 'running', 'done', 'failed', 'timeout'] as const;
type Status = (typeof STATUSES)[number];

/** Reloads after a burst of events settles, so four steps of one task cost one request. */
function useDebounced(fn: () => void, ms: number): () => void {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  return () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(fn, ms);
  };
}

/** The task monitor: statistics per adapter and namespace, then the recent tasks with their message and sender, updated live. */
export function TasksPage() {
  const [status, setStatus] = useState<Status | ''>('');
  const [namespaceId, setNamespaceId] = useState('');
  const [progress, setProgress] = useState<Record<string, number>>({});
  const namespaces = useNamespaces();
  const names = new Map(namespaces.map((n) => [n.id, n.name]));
  const filters = namespaceId ? { namespaceId } : {};
  const list = useLoad(
    () => api('get', '/agent-tasks', { query: { limit: 50, ...filters, ...(status ? { status } : {}) } }),
    [status, namespaceId],
  );
  const tasks = list.data?.items ?? [];
  const stats = useLoad(() => api('get', '/agent-tasks/stats', { query: filters }), [namespaceId]);
  const refresh = useDebounced(() => {
    void list.reload();
    void stats.reload();
  }, 150);

  useEffect(
    () =>
      onTaskEvent((frame) => {
        const taskId = String(frame.payload.taskId ?? '');
        if (typeof frame.payload.progress === 'number') {
          setProgress((p) => ({ ...p, [taskId]: frame.payload.progress as number }));
        }
        refresh();
      }),
    [list.reload, stats.reload],
  );

  return (
    <section aria-labelledby="tasks-title">
      <h1 id="tasks-title">{t('tasks.title')}</h1>
      <Filters>
        <SelectField
          label={t('common.status')}
          value={status}
          onChange={setStatus}
          choices={STATUSES.map((value) => ({ value, label: label('task', value) }))}
          all
        />
        <NamespaceSelect value={namespaceId} onChange={setNamespaceId} all />
      </Filters>

      <h2>{t('tasks.stats')}</h2>
      <ErrorNote error={stats.error} />
      <DataTable
        caption={t('tasks.stats')}
        columns={[
          t('common.namespace'),
          t('tasks.adapter'),
          t('tasks.total'),
          ...STATUSES.map((s) => label('task', s)),
          t('tasks.successRate'),
          t('tasks.avgDuration'),
        ]}
      >
        {(stats.data?.stats ?? []).map((row) => (
          <tr key={`${row.adapterType}-${row.namespaceId}`}>
            <td>{row.namespaceId ? (names.get(row.namespaceId) ?? row.namespaceId) : '—'}</td>
            <td>{row.adapterType}</td>
            <td>{row.total}</td>
            {STATUSES.map((s) => (
              <td key={s}>{row.byStatus[s]}</td>
            ))}
            <td>{formatPercent(row.successRate)}</td>
            <td>
              {row.avgDurationMs === null ? '—' : `${formatNumber(row.avgDurationMs, 0)} ${t('common.ms')}`}
            </td>
          </tr>
        ))}
      </DataTable>

      <h2>{t('tasks.list')}</h2>
      <LoadedList loaded={list} count={tasks.length} empty={t('tasks.empty')} keepEmpty>
        <DataTable
          columns={[
            t('tasks.created'),
            t('tasks.message'),
            t('tasks.sender'),
            t('common.status'),
            t('tasks.progress'),
            t('common.namespace'),
            t('tasks.duration'),
            t('tasks.tokens'),
          ]}
        >
          {tasks.map((task) => {
            const done = task.status === 'done' ? 1 : (progress[task.id] ?? 0);
            return (
              <tr key={task.id} data-task-id={task.id}>
                <td>
                  <a href={hrefOf({ name: 'task', id: task.id })}>{formatDate(task.createdAt)}</a>
                </td>
                <td class="task-message">
                  {task.messageText === null ? (
                    <span class="muted">{t('tasks.noMessage')}</span>
                  ) : (
                    preview(task.messageText)
                  )}
                </td>
                <td>
                  {task.sender ? task.sender.name : '—'}
                  {task.channel && <span class="muted small"> {label('channel', task.channel)}</span>}
                </td>
                <td>
                  <span class={`pill ${task.status}`}>{label('task', task.status)}</span>
                  {task.errorMessage && <span class="muted small"> {task.errorMessage}</span>}
                </td>
                <td>
                  <progress
                    max={1}
                    value={done}
                    aria-label={t('tasks.progressOf', { id: task.id.slice(0, 8) })}
                  >
                    {formatPercent(done)}
                  </progress>
                </td>
                <td>{task.namespaceId ? (names.get(task.namespaceId) ?? task.namespaceId) : '—'}</td>
                <td>{task.durationMs === null ? '—' : `${task.durationMs} ${t('common.ms')}`}</td>
                <td>{task.totalTokens}</td>
              </tr>
            );
          })}
        </DataTable>
      </LoadedList>
    </section>
  );
}
