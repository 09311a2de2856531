import { useState } from 'preact/hooks';
import { api, type Success } from '../api/client';
import { ConfirmBox } from '../components/ConfirmBox';
import { ErrorNote, Field, useSubmit } from '../components/common';
import { DepartmentSelect } from '../components/DirectorySelect';
import { InputField } from '../components/FormField';
import { t } from '../i18n';
import { useDepartments } from '../state/directory';
import { can } from '../state/session';

/** A knowledge base as GET /knowledge/bases lists it. */
export type KnowledgeBase = Success<'/knowledge/bases', 'get'>['items'][number];

/**
 * A form that creates a knowledge base in one of the user's departments.
 * POST /knowledge/bases checks no permission of its own (only that the
 * department is the user's), so anyone who sees the page and works in a
 * department may create one; `onCreated` gets the new base.
 */
export function CreateBase({ onCreated }: { onCreated(base: KnowledgeBase): void | Promise<void> }) {
  const departments = useDepartments();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [departmentId, setDepartmentId] = useState('');
  const chosen = departmentId || departments[0]?.id || '';
  const create = useSubmit(async () => {
    const base = await api('post', '/knowledge/bases', {
      body: { name: name.trim(), departmentId: chosen, description: description.trim() || null },
    });
    setName('');
    setDescription('');
    setOpen(false);
    await onCreated(base);
  });
  if (departments.length === 0) return null;
  if (!open) {
    return (
      <p>
        <button type="button" onClick={() => setOpen(true)}>
          {t('kb.new')}
        </button>
      </p>
    );
  }
  return (
    <form class="card" onSubmit={create.submit} aria-labelledby="kb-new-title">
      <h2 id="kb-new-title">{t('kb.new')}</h2>
      <InputField label={t('kb.name')} value={name} onValue={setName} required maxLength={200} />
      {departments.length > 1 && <DepartmentSelect value={chosen} onChange={setDepartmentId} />}
      <Field label={t('kb.description')}>
        <textarea
          rows={2}
          maxLength={2000}
          value={description}
          onInput={(e) => setDescription(e.currentTarget.value)}
        />
      </Field>
      <ErrorNote error={create.error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={create.busy || !name.trim() || !chosen}>
          {t('kb.create')}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

/**
 * The chosen base's retrieval weights (PATCH /knowledge/bases/:id/config,
 * canUploadDocuments: vector and keyword, each 0 to 100, not both 0) and its
 * deletion with a confirm step (DELETE, canDeleteDocuments).
 */
export function BaseSettings({
  base,
  onChanged,
  onDeleted,
}: {
  base: KnowledgeBase;
  onChanged(): void | Promise<void>;
  onDeleted(): void | Promise<void>;
}) {
  const configure = can('canUploadDocuments');
  const remove = can('canDeleteDocuments');
  if (!configure && !remove) return null;
  return (
    <section class="card" aria-labelledby="kb-settings-title">
      <h2 id="kb-settings-title">{t('kb.settingsOf', { name: base.name })}</h2>
      {configure && <Weights key={base.id} base={base} onSaved={onChanged} />}
      {remove && <DeleteBase key={`delete-${base.id}`} base={base} onDeleted={onDeleted} />}
    </section>
  );
}

function Weights({ base, onSaved }: { base: KnowledgeBase; onSaved(): void | Promise<void> }) {
  const [vector, setVector] = useState(String(base.ragWeights.vector));
  const [keyword, setKeyword] = useState(String(base.ragWeights.keyword));
  const [status, setStatus] = useState('');
  const v = Number(vector);
  const k = Number(keyword);
  const valid =
    vector.trim() !== '' && keyword.trim() !== '' && v >= 0 && v <= 100 && k >= 0 && k <= 100 && v + k > 0;
  const save = useSubmit(async () => {
    setStatus('');
    await api('patch', '/knowledge/bases/{id}/config', {
      params: { id: base.id },
      body: { ragWeights: { vector: v, keyword: k } },
    });
    setStatus(t('kb.weightsSaved'));
    await onSaved();
  });
  return (
    <form onSubmit={save.submit} aria-labelledby="kb-weights-title">
      <h3 id="kb-weights-title">{t('kb.weights')}</h3>
      <p class="muted small" id="kb-weights-hint">
        {t('kb.weightsHint')}
      </p>
      <div class="row wrap">
        <WeightInput label={t('kb.vector')} value={vector} onValue={setVector} />
        <WeightInput label={t('kb.keyword')} value={keyword} onValue={setKeyword} />
      </div>
      {!valid && <p class="error small">{t('kb.weightsInvalid')}</p>}
      <ErrorNote error={save.error} />
      <p role="status">{status}</p>
      <button type="submit" class="primary" disabled={save.busy || !valid}>
        {t('kb.saveWeights')}
      </button>
    </form>
  );
}

function DeleteBase({ base, onDeleted }: { base: KnowledgeBase; onDeleted(): void | Promise<void> }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await api('delete', '/knowledge/bases/{id}', { params: { id: base.id } });
      setConfirming(false);
      await onDeleted();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="kb-delete">
      <h3>{t('kb.deleteTitle')}</h3>
      {!confirming && (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          {t('kb.deleteOf', { name: base.name })}
        </button>
      )}
      {confirming && (
        <ConfirmBox
          class="kb-confirm"
          question={t('kb.deleteConfirm', { name: base.name, count: base.documentCount })}
          confirmLabel={t('kb.deleteYes')}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setConfirming(false)}
        />
      )}
      <ErrorNote error={error} />
    </div>
  );
}

/** One retrieval weight, 0 to 100, described by the form's hint. */
function WeightInput({
  label,
  value,
  onValue,
}: {
  label: string;
  value: string;
  onValue(value: string): void;
}) {
  return (
    <Field label={label}>
      <input
        type="number"
        min={0}
        max={100}
        step="any"
        required
        aria-describedby="kb-weights-hint"
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    </Field>
  );
}
