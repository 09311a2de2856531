import { useEffect, useState } from 'preact/hooks';
import { ApiError, api } from '../api/client';
import type { ApprovalDetail, UserItem } from '../api/types';
import { ErrorNote, Field, JsonView, useLoad } from '../components/common';
import { formatDate, formatNumber, formatPercent, label, t } from '../i18n';
import { hashParam, hrefOf } from '../state/router';
import { can, me } from '../state/session';

type Mode = 'view' | 'edit' | 'reject' | 'escalate';
interface Turn {
  role: string;
  content: string;
  createdAt?: string;
}

/** A figure of a review reason as people read it: shares as percentages, other numbers rounded. */
function reasonValue(key: string, value: unknown): string {
  if (typeof value !== 'number') return String(value);
  const share = /confidence|score|similarity|threshold|rate/i.test(key) && value >= 0 && value <= 1;
  return share ? formatPercent(value) : formatNumber(value, 2);
}

/** The employee's message and the turns before it, as the pipeline stored them with the approval. */
function contextOf(approval: ApprovalDetail) {
  const context = approval.context as {
    userMessage?: { content?: string };
    turns?: Turn[];
    language?: string;
  };
  return {
    message: context.userMessage?.content ?? null,
    turns: Array.isArray(context.turns) ? context.turns : [],
    language: context.language ?? null,
  };
}

export function ApprovalPage({ id }: { id: string }) {
  const detail = useLoad(() => api('get', '/approvals/{id}', { params: { id } }), [id]);
  // The inbox's `e` key opens a reply straight in the editor (`#/approvals/<id>?mode=edit`).
  const [mode, setMode] = useState<Mode>(hashParam('mode') === 'edit' ? 'edit' : 'view');
  const [edited, setEdited] = useState('');
  const [reason, setReason] = useState('');
  const [target, setTarget] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const approval = detail.data;

  useEffect(() => {
    if (approval) setEdited(approval.editedContent ?? approval.originalContent);
  }, [approval?.id]);

  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setError(null);
    let failure: unknown = null;
    try {
      await action();
    } catch (e) {
      failure = e;
    }
    // Reread before saying anything: after a 409 the page shows the decision someone else made.
    await detail.reload();
    setError(failure);
    setNotice(failure ? null : done);
    if (!failure) setMode('view');
    setBusy(false);
  };

  if (detail.error) return <ErrorNote error={detail.error} />;
  if (!approval) return <p class="muted">{t('common.loading')}</p>;
  const open = approval.status === 'pending' || approval.status === 'escalated';
  const { message, turns } = contextOf(approval);

  return (
    <article aria-labelledby="approval-title" class="approval">
      <p>
        <a href={hrefOf({ name: 'inbox' })}>← {t('approval.back')}</a>
      </p>
      <h1 id="approval-title">{t('approval.title', { name: approval.sender.name })}</h1>
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {error instanceof ApiError && error.status === 409 ? (
        <p class="error" role="alert" data-testid="conflict">
          {t('approval.conflict', { status: label('status', approval.status) })}
        </p>
      ) : (
        <ErrorNote error={error} />
      )}

      <section aria-labelledby="msg-title">
        <h2 id="msg-title">{t('approval.message')}</h2>
        <blockquote class="message">{approval.question ?? message ?? '—'}</blockquote>
      </section>

      <section aria-labelledby="draft-title">
        <h2 id="draft-title">{t('approval.draft')}</h2>
        <p class="draft-text" data-testid="draft">
          {approval.originalContent}
        </p>
        {approval.editedContent && (
          <>
            <h3>{t('approval.edited')}</h3>
            <p class="draft-text">{approval.editedContent}</p>
          </>
        )}
      </section>

      <ul class="tags" aria-label={t('approval.reasons')}>
        {approval.reasons.map((r, i) => (
          <li key={`${r.type}-${i}`} class="tag">
            {label('reason', r.type)}
          </li>
        ))}
        <li class="tag">
          {t('common.confidence')} {formatPercent(approval.confidence)}
        </li>
      </ul>

      {open && (
        <section aria-labelledby="decide-title" class="decide sticky">
          <h2 id="decide-title">{t('approval.decide')}</h2>
          {mode === 'view' && (
            <div class="row wrap">
              <button
                type="button"
                class="primary"
                disabled={busy}
                onClick={() =>
                  run(
                    () => api('post', '/approvals/{id}/approve', { params: { id }, body: {} }),
                    t('approval.approved'),
                  )
                }
              >
                {t('approval.approve')}
              </button>
              <button type="button" disabled={busy} onClick={() => setMode('edit')}>
                {t('approval.editApprove')}
              </button>
              <button type="button" class="danger" disabled={busy} onClick={() => setMode('reject')}>
                {t('approval.reject')}
              </button>
              {can('canEscalate') && (
                <button type="button" disabled={busy} onClick={() => setMode('escalate')}>
                  {t('approval.escalate')}
                </button>
              )}
            </div>
          )}
          {mode === 'edit' && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void run(
                  () =>
                    api('post', '/approvals/{id}/approve', {
                      params: { id },
                      body: { editedContent: edited },
                    }),
                  t('approval.approvedEdited'),
                );
              }}
            >
              <Field label={t('approval.editor')}>
                <textarea
                  rows={8}
                  value={edited}
                  required
                  maxLength={10000}
                  onInput={(e) => setEdited(e.currentTarget.value)}
                />
              </Field>
              <div class="row">
                <button type="submit" class="primary" disabled={busy || !edited.trim()}>
                  {t('approval.sendEdited')}
                </button>
                <button type="button" onClick={() => setMode('view')}>
                  {t('common.cancel')}
                </button>
              </div>
            </form>
          )}
          {mode === 'reject' && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                void run(
                  () =>
                    api('post', '/approvals/{id}/reject', {
                      params: { id },
                      body: reason.trim() ? { reason: reason.trim() } : {},
                    }),
                  t('approval.rejected'),
                );
              }}
            >
              <Field label={t('approval.rejectReason')}>
                <textarea
                  rows={3}
                  value={reason}
                  maxLength={2000}
                  onInput={(e) => setReason(e.currentTarget.value)}
                />
              </Field>
              <div class="row">
                <button type="submit" class="danger" disabled={busy}>
                  {t('approval.confirmReject')}
                </button>
                <button type="button" onClick={() => setMode('view')}>
                  {t('common.cancel')}
                </button>
              </div>
            </form>
          )}
          {mode === 'escalate' && (
            <EscalateForm
              approval={approval}
              busy={busy}
              target={target}
              setTarget={setTarget}
              reason={reason}
              setReason={setReason}
              cancel={() => setMode('view')}
              submit={() =>
                run(
                  () =>
                    api('post', '/approvals/{id}/escalate', {
                      params: { id },
                      body: { escalatedToId: target, ...(reason.trim() ? { reason: reason.trim() } : {}) },
                    }),
                  t('approval.escalated'),
                )
              }
            />
          )}
        </section>
      )}

      {turns.length > 0 && (
        <details class="fold">
          <summary>
            <h2 id="ctx-title">{t('approval.context')}</h2>
          </summary>
          <ol class="turns">
            {turns.map((turn, i) => (
              <li key={`${i}-${turn.createdAt ?? ''}`} class={turn.role}>
                <span class="muted small">
                  {turn.role === 'user' ? approval.sender.name : t('chat.assistant')}
                </span>
                <p>{turn.content}</p>
              </li>
            ))}
          </ol>
        </details>
      )}

      <details class="fold">
        <summary>
          <h2 id="sources-title">
            {t('approval.sources')} ({approval.sources.length})
          </h2>
        </summary>
        {approval.sources.length === 0 && <p class="muted">{t('approval.noSources')}</p>}
        <ol class="sources">
          {approval.sources.map((s) => (
            <li key={s.chunkId}>
              <strong>{s.title}</strong>{' '}
              <span class="muted small">
                {t('common.score')} {formatNumber(s.score, 3)}
              </span>
              {s.content && <p class="small">{s.content}</p>}
            </li>
          ))}
        </ol>
      </details>

      <section aria-labelledby="reasons-title">
        <h2 id="reasons-title">{t('approval.reasons')}</h2>
        <ul class="reasons">
          {approval.reasons.map((r, i) => {
            const { type, ...details } = r;
            return (
              <li key={`${type}-${i}`}>
                <strong>{label('reason', type)}</strong>
                {Object.keys(details).length > 0 && (
                  <span class="muted small">
                    {' '}
                    {Object.entries(details)
                      .map(([k, v]) => `${k}: ${reasonValue(k, v)}`)
                      .join(', ')}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <dl class="facts">
        <dt>{t('common.status')}</dt>
        <dd data-testid="approval-status">{label('status', approval.status)}</dd>
        <dt>{t('common.channel')}</dt>
        <dd>{label('channel', approval.channel)}</dd>
        <dt>{t('common.intent')}</dt>
        <dd>{approval.intent ?? '—'}</dd>
        <dt>{t('common.confidence')}</dt>
        <dd>{formatPercent(approval.confidence)}</dd>
        <dt>{t('approval.received')}</dt>
        <dd>{formatDate(approval.createdAt)}</dd>
        {approval.reason && (
          <>
            <dt>{t('approval.decisionReason')}</dt>
            <dd>{approval.reason}</dd>
          </>
        )}
      </dl>

      {approval.history.length > 0 && (
        <section aria-labelledby="history-title">
          <h2 id="history-title">{t('approval.history')}</h2>
          <ol class="history">
            {approval.history.map((h, i) => (
              <li key={`${h.createdAt}-${i}`}>
                {formatDate(h.createdAt)} — {h.userName ?? t('approval.system')}: {label('action', h.action)}
              </li>
            ))}
          </ol>
        </section>
      )}
      <details>
        <summary>{t('approval.raw')}</summary>
        <JsonView value={approval.context} label={t('approval.raw')} />
      </details>
    </article>
  );
}

interface EscalateProps {
  approval: ApprovalDetail;
  busy: boolean;
  target: string;
  setTarget(value: string): void;
  reason: string;
  setReason(value: string): void;
  cancel(): void;
  submit(): void;
}

/**
 * Escalation to a chosen person: the department's approvers and heads when
 * the user may list users (canViewAllUsers), else the person's user id.
 */
function EscalateForm(props: EscalateProps) {
  // undefined while the list loads; null when the user may not list people (or the list failed).
  const [people, setPeople] = useState<UserItem[] | null | undefined>(
    can('canViewAllUsers') ? undefined : null,
  );
  useEffect(() => {
    if (!can('canViewAllUsers')) return;
    void api('get', '/users', {
      query: { departmentId: props.approval.departmentId, isActive: true, limit: 100 },
    })
      // Not the reviewer: the API refuses an escalation to oneself.
      .then((page) =>
        setPeople(page.items.filter((u) => u.role !== 'employee' && u.id !== me.value?.user.id)),
      )
      .catch(() => setPeople(null));
  }, [props.approval.departmentId]);

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        props.submit();
      }}
    >
      {people === undefined && <p class="muted">{t('common.loading')}</p>}
      {people ? (
        <Field label={t('approval.escalateTo')}>
          <select required value={props.target} onChange={(e) => props.setTarget(e.currentTarget.value)}>
            <option value="">{t('approval.choosePerson')}</option>
            {people.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} ({label('role', p.role)})
              </option>
            ))}
          </select>
        </Field>
      ) : people === null ? (
        <Field label={t('approval.escalateToId')}>
          <input
            required
            value={props.target}
            onInput={(e) => props.setTarget(e.currentTarget.value.trim())}
          />
        </Field>
      ) : null}
      <Field label={t('approval.escalateReason')}>
        <textarea
          rows={3}
          value={props.reason}
          maxLength={2000}
          onInput={(e) => props.setReason(e.currentTarget.value)}
        />
      </Field>
      <div class="row">
        <button type="submit" class="primary" disabled={props.busy || !props.target}>
          {t('approval.confirmEscalate')}
        </button>
        <button type="button" onClick={props.cancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
