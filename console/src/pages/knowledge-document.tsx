import { useEffect, useState } from 'preact/hooks';
import { api, type Success } from '../api/client';
import { ConfirmBox } from '../components/ConfirmBox';
import { ErrorNote, useLoad } from '../components/common';
import { DataTable } from '../components/DataTable';
import { formatDate, formatNumber, label, t } from '../i18n';
import { can } from '../state/session';

const settled = (status: string) => status === 'ready' || status === 'failed';

/**
 * One document (GET /knowledge/documents/:id): its status, chunk count and
 * the chunks held back from answers (the ingestion scan found an injection),
 * each with the scan's reason; reprocess and delete as the user may.
 * `onClose` returns to the list; `onChanged` tells the page the base's
 * documents changed (so its count is read again).
 */
export function DocumentDetail({
  id,
  onClose,
  onChanged,
}: {
  id: string;
  onClose(): void;
  onChanged(): void | Promise<void>;
}) {
  // No chunk texts: the held-back ones come with their excerpt, and the count says the rest.
  const doc = useLoad(
    () => api('get', '/knowledge/documents/{id}', { params: { id }, query: { chunkLimit: 0 } }),
    [id],
  );
  const [error, setError] = useState<unknown>(null);
  const [status, setStatus] = useState('');
  const [confirming, setConfirming] = useState(false);
  const d = doc.data;
  const waiting = d ? !settled(d.status) : false;

  // A reprocessed document goes back through ingestion: follow it until it settles.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void doc.reload(), 1000);
    return () => clearInterval(timer);
  }, [waiting, doc.reload]);

  const reprocess = async () => {
    setError(null);
    try {
      await api('post', '/knowledge/documents/{id}/reprocess', { params: { id } });
      setStatus(t('kbdoc.reprocessing'));
      await doc.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  const remove = async () => {
    setError(null);
    try {
      await api('delete', '/knowledge/documents/{id}', { params: { id } });
      await onChanged();
      onClose();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section class="card" aria-labelledby="kbdoc-title">
      <p>
        <button type="button" class="link" onClick={onClose}>
          {t('kbdoc.back')}
        </button>
      </p>
      <h2 id="kbdoc-title">{d ? d.title : t('kbdoc.title')}</h2>
      <ErrorNote error={doc.error} />
      {d && (
        <>
          <dl class="kb-facts">
            <dt>{t('common.status')}</dt>
            <dd aria-live="polite">
              <span class={`pill ${d.status}`} data-status={d.status}>
                {label('doc', d.status)}
              </span>
              {d.status === 'failed' && typeof d.metadata.error === 'string' && (
                <span class="error small"> {d.metadata.error}</span>
              )}
            </dd>
            <dt>{t('knowledge.type')}</dt>
            <dd>{d.type}</dd>
            <dt>{t('kbdoc.chunks')}</dt>
            <dd data-chunks={d.chunkCount}>{formatNumber(d.chunkCount, 0)}</dd>
            <dt>{t('kbdoc.heldBackCount')}</dt>
            <dd>{formatNumber(d.heldBackChunkCount, 0)}</dd>
            {d.sizeBytes !== null && (
              <>
                <dt>{t('kbdoc.size')}</dt>
                <dd>{t('kbdoc.bytes', { count: formatNumber(d.sizeBytes, 0) })}</dd>
              </>
            )}
            <dt>{t('knowledge.added')}</dt>
            <dd>{formatDate(d.createdAt)}</dd>
          </dl>
          <div class="actions">
            {can('canUploadDocuments') && (
              <button type="button" onClick={() => void reprocess()} disabled={waiting}>
                {t('knowledge.reprocess')}
              </button>
            )}
            {can('canDeleteDocuments') && !confirming && (
              <button type="button" class="danger" onClick={() => setConfirming(true)}>
                {t('common.delete')}
              </button>
            )}
          </div>
          {confirming && (
            <ConfirmBox
              class="kb-confirm"
              question={t('knowledge.confirmDelete', { title: d.title })}
              confirmLabel={t('kbdoc.deleteYes')}
              onConfirm={() => void remove()}
              onCancel={() => setConfirming(false)}
            />
          )}
          <ErrorNote error={error} />
          <p role="status" class="muted small">
            {status}
          </p>
          <HeldBack chunks={d.heldBackChunks} total={d.heldBackChunkCount} />
        </>
      )}
    </section>
  );
}

type Held = NonNullable<Success<'/knowledge/documents/{id}', 'get'>['heldBackChunks']>[number];

/** The held-back chunks with why; absent without canViewKnowledge, so only the count shows then. */
function HeldBack({ chunks, total }: { chunks: Held[] | undefined; total: number }) {
  return (
    <>
      <h3>{t('kbdoc.heldBack')}</h3>
      <p class="muted small">{t('kbdoc.heldBackHint')}</p>
      {total === 0 && <p class="muted">{t('kbdoc.noneHeldBack')}</p>}
      {chunks && chunks.length > 0 && (
        <DataTable
          caption={t('kbdoc.heldBack')}
          columns={[
            t('kbdoc.chunk'),
            t('kbdoc.reason'),
            t('kbdoc.source'),
            t('common.score'),
            t('kbdoc.excerpt'),
          ]}
        >
          {chunks.map((c) => (
            <tr key={c.chunkId}>
              <td>{c.chunkIndex + 1}</td>
              <td>
                {c.family && <span class="pill">{c.family}</span>} {c.reason}
              </td>
              <td>{c.source === 'hidden-html' ? t('kbdoc.sourceHidden') : t('kbdoc.sourceText')}</td>
              <td>{c.score === null ? '—' : formatNumber(c.score, 2)}</td>
              <td class="kb-excerpt">{c.excerpt}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}
