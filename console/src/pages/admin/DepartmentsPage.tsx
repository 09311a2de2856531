import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import type { Department } from '../../api/types';
import { ConfirmBox } from '../../components/ConfirmBox';
import { ErrorNote, Field, useLoad, useSubmit } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { InputField } from '../../components/FormField';
import { LoadedList } from '../../components/LoadedList';
import { t } from '../../i18n';
import { useNamespaces } from '../../state/directory';
import { can } from '../../state/session';
import { Done } from './org-shared';
import './org.css';

/**
 * The departments the API shows the user (a department head sees only
 * theirs), archived ones marked; create, rename, default namespace and
 * archive for those whose permissions allow each.
 */
export function DepartmentsPage(_props: { id?: string }) {
  const [showArchived, setShowArchived] = useState(false);
  const [done, setDone] = useState('');
  const list = useLoad(
    () => api('get', '/departments', { query: { limit: 100, includeArchived: showArchived } }),
    [showArchived],
  );
  const items = list.data?.items ?? [];
  // A user who may neither rename nor archive gets no empty actions column.
  const actions = can('canManageDepartments') || can('canArchiveDepartments');
  const changed = async (text: string) => {
    setDone(text);
    await list.reload();
  };
  return (
    <section aria-labelledby="departments-title">
      <h1 id="departments-title">{t('admin.section.departments')}</h1>
      <Done text={done} />
      {can('canManageDepartments') && <CreateDepartment created={() => changed(t('departments.created'))} />}
      <section aria-labelledby="department-list-title">
        <h2 id="department-list-title">{t('departments.list')}</h2>
        <label class="field inline">
          <input
            type="checkbox"
            checked={showArchived}
            onChange={(e) => setShowArchived(e.currentTarget.checked)}
          />
          <span>{t('departments.showArchived')}</span>
        </label>
        <LoadedList loaded={list} count={items.length} empty={t('departments.empty')}>
          <DataTable
            class="org-table"
            caption={t('departments.list')}
            columns={[
              t('departments.name'),
              t('departments.slug'),
              t('departments.state'),
              t('departments.defaultNamespace'),
              ...(actions ? [t('common.actions')] : []),
            ]}
          >
            {items.map((department) => (
              <DepartmentRow
                key={department.id}
                department={department}
                actions={actions}
                changed={changed}
              />
            ))}
          </DataTable>
        </LoadedList>
      </section>
    </section>
  );
}

function CreateDepartment({ created }: { created(): Promise<void> }) {
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const form = useSubmit(async () => {
    await api('post', '/departments', {
      body: { name: name.trim(), ...(slug.trim() ? { slug: slug.trim() } : {}) },
    });
    setName('');
    setSlug('');
    await created();
  });
  return (
    <form onSubmit={form.submit} class="row wrap end" aria-labelledby="department-create-title">
      <h2 id="department-create-title" class="full">
        {t('departments.create')}
      </h2>
      <InputField label={t('departments.name')} required maxLength={200} value={name} onValue={setName} />
      <InputField
        label={t('departments.slug')}
        maxLength={64}
        hint={t('departments.slugHint')}
        value={slug}
        onValue={setSlug}
      />
      <button type="submit" class="primary" disabled={form.busy}>
        {t('common.add')}
      </button>
      <ErrorNote error={form.error} />
    </form>
  );
}

/** One department: its name (a rename form while renaming), state, default namespace and actions. */
function DepartmentRow({
  department,
  actions,
  changed,
}: {
  department: Department;
  actions: boolean;
  changed(text: string): Promise<void>;
}) {
  const manage = can('canManageDepartments') && !department.isArchived;
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(department.name);
  const [error, setError] = useState<unknown>(null);
  const run = async (action: () => Promise<unknown>, text: string) => {
    setError(null);
    try {
      await action();
      await changed(text);
    } catch (caught) {
      setError(caught);
    }
  };
  const rename = async (e: Event) => {
    e.preventDefault();
    await run(async () => {
      await api('patch', '/departments/{id}', { params: { id: department.id }, body: { name: name.trim() } });
      setRenaming(false);
    }, t('departments.renamed'));
  };
  const archive = () =>
    run(
      () => api('post', '/departments/{id}/archive', { params: { id: department.id } }),
      t('departments.archivedDone'),
    );
  return (
    <tr>
      <th scope="row">
        {renaming ? (
          <form onSubmit={rename} class="row wrap end">
            <Field label={t('departments.newName', { name: department.name })}>
              <input required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
            </Field>
            <button type="submit" class="primary small">
              {t('common.save')}
            </button>
            <button type="button" class="small" onClick={() => setRenaming(false)}>
              {t('common.cancel')}
            </button>
          </form>
        ) : (
          department.name
        )}
        <ErrorNote error={error} />
      </th>
      <td>{department.slug}</td>
      <td>
        <span class={department.isArchived ? 'pill org-archived' : 'pill'}>
          {department.isArchived ? t('departments.archived') : t('departments.active')}
        </span>
      </td>
      <td>
        <DefaultNamespace department={department} editable={manage} changed={changed} />
      </td>
      {actions && (
        <td>
          <div class="row wrap">
            {manage && !renaming && (
              <button
                type="button"
                class="small"
                aria-label={t('departments.renameOf', { name: department.name })}
                onClick={() => {
                  setName(department.name);
                  setRenaming(true);
                }}
              >
                {t('departments.rename')}
              </button>
            )}
            {can('canArchiveDepartments') && !department.isArchived && !confirming && (
              <button
                type="button"
                class="small danger"
                aria-label={t('departments.archiveOf', { name: department.name })}
                onClick={() => setConfirming(true)}
              >
                {t('departments.archive')}
              </button>
            )}
          </div>
          {confirming && (
            <ConfirmBox
              small
              class="org-confirm"
              question={t('departments.archiveConfirm', { name: department.name })}
              confirmLabel={t('departments.confirmArchive')}
              onConfirm={() => void archive()}
              onCancel={() => setConfirming(false)}
            />
          )}
        </td>
      )}
    </tr>
  );
}

/** The namespace that answers the department's channel messages: a drop-down of its own namespaces. */
function DefaultNamespace({
  department,
  editable,
  changed,
}: {
  department: Department;
  editable: boolean;
  changed(text: string): Promise<void>;
}) {
  const namespaces = useNamespaces().filter((ns) => ns.departmentId === department.id);
  const current =
    typeof department.settings.defaultNamespaceId === 'string' ? department.settings.defaultNamespaceId : '';
  const [error, setError] = useState<unknown>(null);
  if (!editable) {
    return (
      <>
        {namespaces.find((ns) => ns.id === current)?.name ??
          (current ? current : t('departments.noNamespace'))}
      </>
    );
  }
  const choose = async (value: string) => {
    setError(null);
    try {
      await api('patch', '/departments/{id}', {
        params: { id: department.id },
        body: { settings: { ...department.settings, defaultNamespaceId: value || null } },
      });
      await changed(t('departments.namespaceSaved'));
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <>
      <Field label={t('departments.defaultNamespaceOf', { name: department.name })}>
        <select value={current} onChange={(e) => void choose(e.currentTarget.value)}>
          <option value="">{t('departments.noNamespace')}</option>
          {namespaces.map((ns) => (
            <option key={ns.id} value={ns.id}>
              {ns.name}
            </option>
          ))}
        </select>
      </Field>
      <ErrorNote error={error} />
    </>
  );
}
