import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { DocumentItem, RagDraft } from '../api/types';
import { ErrorNote, Field, useLoad, useSubmit } from '../components/common';
import { DataTable } from '../components/DataTable';
import { DepartmentSelect } from '../components/DirectorySelect';
import { SelectField } from '../components/FormField';
import { LoadedList } from '../components/LoadedList';
import { formatDate, formatNumber, formatPercent, label, t } from '../i18n';
import { useDepartments } from '../state/directory';
import { hashParam, hrefOf, navigate, route } from '../state/router';
import { can } from '../state/session';
import { BaseSettings, CreateBase } from './knowledge-bases';
import { DocumentDetail } from './knowledge-document';
import './admin/content.css';

const ACCEPT = '.pdf,.docx,.txt,.md,.markdown,.png,.jpg,.jpeg,image/png,image/jpeg';
/** A document's detail on the knowledge page. */
const documentHref = (id: string) => `${hrefOf({ name: 'knowledge' })}?document=${encodeURIComponent(id)}`;
const settled = (d: DocumentItem) => d.status === 'ready' || d.status === 'failed';

/**
 * The knowledge page: the bases of the user's departments (create, weights,
 * delete), the chosen base's documents (upload, reprocess, delete, detail at
 * `#/knowledge?document=<id>`), and a question tried against them.
 */
export function KnowledgePage() {
  const bases = useLoad(() => api('get', '/knowledge/bases', { query: { limit: 100 } }), []);
  const [baseId, setBaseId] = useState('');
  const current = bases.data?.items.find((b) => b.id === baseId) ?? bases.data?.items[0] ?? null;
  // Reading the route subscribes the page to hash changes, so the detail follows the address.
  void route.value;
  const documentId = hashParam('document');

  return (
    <section aria-labelledby="knowledge-title">
      <h1 id="knowledge-title">{t('knowledge.title')}</h1>
      <ErrorNote error={bases.error} />
      {documentId ? (
        <DocumentDetail
          id={documentId}
          onClose={() => navigate({ name: 'knowledge' })}
          onChanged={bases.reload}
        />
      ) : (
        <>
          {bases.data && bases.data.items.length === 0 && <p class="muted">{t('knowledge.noBases')}</p>}
          <CreateBase
            onCreated={async (base) => {
              await bases.reload();
              setBaseId(base.id);
            }}
          />
          {bases.data && bases.data.items.length > 0 && (
            <SelectField
              label={t('knowledge.base')}
              value={current?.id ?? ''}
              onChange={setBaseId}
              choices={bases.data.items.map((b) => ({
                value: b.id,
                label: `${b.name} (${t('knowledge.documentCount', { count: b.documentCount })})`,
              }))}
            />
          )}
          {current && <Documents baseId={current.id} onChanged={bases.reload} />}
          {current && (
            <BaseSettings
              base={current}
              onChanged={bases.reload}
              onDeleted={async () => {
                setBaseId('');
                await bases.reload();
              }}
            />
          )}
          <TryQuestion />
        </>
      )}
    </section>
  );
}

/**
 * The documents of one base. `onChanged` runs after an upload or a deletion
 * finishes, so the page reads the bases again and the selector's document
 * count is current without a reload; a title opens the document's detail.
 */
function Documents({ baseId, onChanged }: { baseId: string; onChanged(): void | Promise<void> }) {
  const docs = useLoad(
    () => api('get', '/knowledge/documents', { query: { knowledgeBaseId: baseId, limit: 100 } }),
    [baseId],
  );
  const [error, setError] = useState<unknown>(null);
  const [dragging, setDragging] = useState(false);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const items = docs.data?.items ?? [];
  const waiting = items.some((d) => !settled(d));

  // Ingestion runs in the background: poll while a document is still pending or processing.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => void docs.reload(), 1000);
    return () => clearInterval(timer);
  }, [waiting, docs.reload]);

  const upload = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setBusy(true);
    setError(null);
    try {
      for (const file of Array.from(files)) {
        const form = new FormData();
        form.set('knowledgeBaseId', baseId);
        form.set('file', file, file.name);
        await api('post', '/knowledge/upload', { form });
      }
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
      await Promise.all([docs.reload(), onChanged()]);
    }
  };

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    }
    await Promise.all([docs.reload(), onChanged()]);
  };

  return (
    <>
      {can('canUploadDocuments') && (
        // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a shortcut; the file button inside is the keyboard route
        <div
          class={`drop ${dragging ? 'over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            void upload(e.dataTransfer?.files ?? null);
          }}
        >
          <p>{t('knowledge.drop')}</p>
          <label class="button">
            {t('knowledge.choose')}
            <input
              ref={input}
              type="file"
              class="sr-only"
              accept={ACCEPT}
              multiple
              disabled={busy}
              onChange={(e) => void upload(e.currentTarget.files)}
            />
          </label>
          <p class="muted small">{t('knowledge.types')}</p>
        </div>
      )}
      <ErrorNote error={error} />
      <LoadedList loaded={docs} count={items.length} empty={t('knowledge.noDocuments')}>
        <DataTable
          columns={[
            t('knowledge.document'),
            t('knowledge.type'),
            t('common.status'),
            t('knowledge.added'),
            t('common.actions'),
          ]}
        >
          {items.map((d) => (
            <tr key={d.id} data-document={d.title}>
              <td>
                <a href={documentHref(d.id)}>{d.title}</a>
              </td>
              <td>{d.type}</td>
              <td aria-live="polite">
                <span class={`pill ${d.status}`} data-status={d.status}>
                  {label('doc', d.status)}
                </span>
                {d.status === 'failed' && typeof d.metadata.error === 'string' && (
                  <span class="error small"> {d.metadata.error}</span>
                )}
              </td>
              <td>{formatDate(d.createdAt)}</td>
              <td class="row">
                {can('canUploadDocuments') && (
                  <button
                    type="button"
                    class="small"
                    aria-label={t('knowledge.reprocessOf', { title: d.title })}
                    onClick={() =>
                      act(() => api('post', '/knowledge/documents/{id}/reprocess', { params: { id: d.id } }))
                    }
                  >
                    {t('knowledge.reprocess')}
                  </button>
                )}
                {can('canDeleteDocuments') && (
                  <button
                    type="button"
                    class="small danger"
                    aria-label={t('knowledge.deleteOf', { title: d.title })}
                    onClick={() => {
                      if (confirm(t('knowledge.confirmDelete', { title: d.title }))) {
                        void act(() => api('delete', '/knowledge/documents/{id}', { params: { id: d.id } }));
                      }
                    }}
                  >
                    {t('common.delete')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </LoadedList>
    </>
  );
}

/** The RAG draft for a question, with its sources and the injection verdict. */
function TryQuestion() {
  const departments = useDepartments();
  const [departmentId, setDepartmentId] = useState('');
  const [text, setText] = useState('');
  const [answer, setAnswer] = useState<RagDraft | null>(null);
  const chosen = departmentId || departments[0]?.id || '';
  const ask = useSubmit(async () => {
    setAnswer(await api('post', '/rag/draft', { body: { departmentId: chosen, text: text.trim() } }));
  });
  if (!can('canViewKnowledge')) return null;

  return (
    <section aria-labelledby="try-title" class="card">
      <h2 id="try-title">{t('rag.title')}</h2>
      <form onSubmit={ask.submit}>
        {departments.length > 1 && <DepartmentSelect value={chosen} onChange={setDepartmentId} />}
        <Field label={t('rag.question')}>
          <textarea
            rows={3}
            required
            maxLength={4000}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </Field>
        <button type="submit" class="primary" disabled={ask.busy || !text.trim() || !chosen}>
          {t('rag.ask')}
        </button>
      </form>
      <ErrorNote error={ask.error} />
      {answer && (
        <div aria-live="polite">
          {answer.injectionDetected && (
            <p class="error" role="alert">
              {t('rag.injection')} {answer.injectionReason ?? ''}
            </p>
          )}
          <h3>{t('rag.answer')}</h3>
          <p class="draft-text">{answer.answer}</p>
          <p class="muted small">
            {t('common.confidence')}: {formatPercent(answer.confidence)}
          </p>
          <h3>{t('approval.sources')}</h3>
          {answer.sources.length === 0 && <p class="muted">{t('approval.noSources')}</p>}
          <ol>
            {answer.sources.map((s) => (
              <li key={s.chunkId}>
                {s.title}{' '}
                <span class="muted small">
                  {t('common.score')} {formatNumber(s.score, 3)}
                </span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
