import { useEffect } from 'preact/hooks';
import { api } from '../api/client';
import { ErrorNote, JsonView, useLoad } from '../components/common';
import { formatDate, formatNumber, label, t } from '../i18n';
import { onTaskEvent } from '../state/live';
import { hrefOf } from '../state/router';
import './account.css';

const STEPS = ['inject_profile', 'rag_search', 'generate', 'confidence_check'] as const;

/** One task: its four steps with status, duration, input and output, updated live. */
export function TaskPage({ id }: { id: string }) {
  const task = useLoad(() => api('get', '/agent-tasks/{id}', { params: { id } }), [id]);
  useEffect(
    () =>
      onTaskEvent((frame) => {
        if (frame.payload.taskId === id) void task.reload();
      }),
    [id, task.reload],
  );
  if (task.error) return <ErrorNote error={task.error} />;
  const data = task.data;
  if (!data) return <p class="muted">{t('common.loading')}</p>;
  const calls = new Map(data.toolCalls.map((c) => [c.stepName, c]));
  const extra = data.toolCalls.filter((c) => !STEPS.includes(c.stepName as (typeof STEPS)[number]));
  const approvalId = typeof data.output?.approvalId === 'string' ? data.output.approvalId : null;

  return (
    <article aria-labelledby="task-title">
      <p>
        <a href={hrefOf({ name: 'tasks' })}>← {t('task.back')}</a>
      </p>
      <h1 id="task-title">{t('task.title', { id: data.id.slice(0, 8) })}</h1>
      <dl class="facts">
        {data.sender && (
          <>
            <dt>{t('task.sender')}</dt>
            <dd>
              {data.channel
                ? t('task.senderOn', { name: data.sender.name, channel: label('channel', data.channel) })
                : data.sender.name}
            </dd>
          </>
        )}
        {data.messageText !== null && (
          <>
            <dt>{t('task.message')}</dt>
            <dd class="task-message">{data.messageText}</dd>
          </>
        )}
        <dt>{t('common.status')}</dt>
        <dd>
          <span class={`pill ${data.status}`}>{label('task', data.status)}</span>
        </dd>
        <dt>{t('tasks.created')}</dt>
        <dd>{formatDate(data.createdAt)}</dd>
        <dt>{t('tasks.adapter')}</dt>
        <dd>{data.adapterType}</dd>
        <dt>{t('tasks.duration')}</dt>
        <dd>{data.durationMs === null ? '—' : `${data.durationMs} ${t('common.ms')}`}</dd>
        <dt>{t('tasks.tokens')}</dt>
        <dd>{data.totalTokens}</dd>
        <dt>{t('task.cost')}</dt>
        <dd>{formatNumber(data.costUsd, 6)} USD</dd>
        {data.errorMessage && (
          <>
            <dt>{t('task.error')}</dt>
            <dd>{data.errorMessage}</dd>
          </>
        )}
        {approvalId && (
          <>
            <dt>{t('task.approval')}</dt>
            <dd>
              <a href={hrefOf({ name: 'approval', id: approvalId })}>{t('task.openApproval')}</a>
            </dd>
          </>
        )}
      </dl>
      <ol class="steps">
        {[
          ...STEPS.map((name) => ({ name, call: calls.get(name) })),
          ...extra.map((c) => ({ name: c.stepName, call: c })),
        ].map(({ name, call }) => (
          <li key={name} class={`step ${call ? call.status : 'waiting'}`}>
            <h2>
              {label('step', name)}{' '}
              <span class={`pill ${call?.status ?? 'queued'}`}>
                {call ? label('task', call.status) : t('task.waiting')}
              </span>
              {call && (
                <span class="muted small">
                  {' '}
                  {call.durationMs} {t('common.ms')}
                </span>
              )}
            </h2>
            {call?.errorMessage && <p class="error">{call.errorMessage}</p>}
            {call && (
              <details>
                <summary>{t('task.io')}</summary>
                <h3>{t('task.input')}</h3>
                <JsonView value={call.inputData} label={t('task.input')} />
                <h3>{t('task.output')}</h3>
                <JsonView value={call.outputData} label={t('task.output')} />
              </details>
            )}
          </li>
        ))}
      </ol>
      {data.output && (
        <details>
          <summary>{t('task.result')}</summary>
          <JsonView value={data.output} label={t('task.result')} />
        </details>
      )}
    </article>
  );
}
