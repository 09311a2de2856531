import { useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { ConfirmBox } from '../../components/ConfirmBox';
import { ErrorNote, useLoad, useSubmit } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { DepartmentSelect } from '../../components/DirectorySelect';
import { InputField } from '../../components/FormField';
import { LoadedList } from '../../components/LoadedList';
import { t } from '../../i18n';
import { useDepartments } from '../../state/directory';
import { hrefOf, navigate } from '../../state/router';
import { can } from '../../state/session';

type Namespace = Success<'/namespaces', 'get'>['items'][number];

/** The namespaces the API lets the user see, with creation and a confirmed deletion for managers. */
export function NamespaceList() {
  const list = useLoad(() => api('get', '/namespaces', { query: { limit: 100 } }), []);
  const departments = useDepartments();
  const departmentName = (id: string) => departments.find((d) => d.id === id)?.name ?? id;
  const manage = can('canManageNamespaces');
  const [confirming, setConfirming] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const rows = list.data?.items ?? [];

  const remove = async (namespace: Namespace) => {
    setError(null);
    try {
      await api('delete', '/namespaces/{id}', { params: { id: namespace.id } });
      setConfirming(null);
      setStatus(t('namespaces.deleted', { name: namespace.name }));
      await list.reload();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <>
      {manage && <CreateNamespace />}
      <h2>{t('namespaces.listTitle')}</h2>
      <p class="sr-only" role="status">
        {status}
      </p>
      {status && <p class="notice">{status}</p>}
      <ErrorNote error={error} />
      <LoadedList loaded={list} count={rows.length} empty={t('namespaces.empty')} announce>
        <DataTable
          caption={t('namespaces.listTitle')}
          columns={[
            t('namespaces.name'),
            t('common.department'),
            t('namespaces.updated'),
            ...(manage ? [t('namespaces.actions')] : []),
          ]}
        >
          {rows.map((namespace) => (
            <tr key={namespace.id}>
              <td>
                <a href={hrefOf({ name: 'admin', section: 'namespaces', id: namespace.id })}>
                  {namespace.name}
                </a>
              </td>
              <td>{departmentName(namespace.departmentId)}</td>
              <td>{new Date(namespace.updatedAt).toLocaleString()}</td>
              {manage && (
                <td>
                  {confirming === namespace.id ? (
                    <ConfirmBox
                      small
                      confirmLabel={t('namespaces.confirmDelete', { name: namespace.name })}
                      onConfirm={() => void remove(namespace)}
                      onCancel={() => setConfirming(null)}
                    />
                  ) : (
                    <button
                      type="button"
                      class="small"
                      aria-label={t('namespaces.deleteOne', { name: namespace.name })}
                      onClick={() => setConfirming(namespace.id)}
                    >
                      {t('namespaces.delete')}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      </LoadedList>
    </>
  );
}

/** Creates a namespace in one of the user's departments and opens it. */
function CreateNamespace() {
  const [name, setName] = useState('');
  const [departmentId, setDepartmentId] = useState('');
  const departments = useDepartments();
  const chosen = departmentId || departments[0]?.id || '';
  const { submit, error, busy } = useSubmit(async () => {
    const created = await api('post', '/namespaces', { body: { name: name.trim(), departmentId: chosen } });
    navigate({ name: 'admin', section: 'namespaces', id: created.id });
  });
  return (
    <form class="card namespace-create" onSubmit={submit} aria-labelledby="namespace-create-title">
      <h2 id="namespace-create-title">{t('namespaces.create')}</h2>
      <div class="row wrap end">
        <InputField label={t('namespaces.name')} value={name} onValue={setName} required maxLength={200} />
        <DepartmentSelect value={chosen} onChange={setDepartmentId} />
        <button type="submit" class="primary" disabled={busy || !name.trim() || !chosen}>
          {t('namespaces.createButton')}
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
