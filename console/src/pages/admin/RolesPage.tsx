import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { ConfirmBox } from '../../components/ConfirmBox';
import { ErrorNote } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { LoadedList } from '../../components/LoadedList';
import { t } from '../../i18n';
import { can } from '../../state/session';
import { type Role, RoleForm } from './org-role-form';
import { Done, type PermissionCatalog, permissionLabel, usePermissionCatalog, useRoles } from './org-shared';
import './org.css';

/**
 * Every role, the system ones read-only with their permissions; custom roles
 * created, edited and deleted by those who may manage roles.
 */
export function RolesPage(_props: { id?: string }) {
  const roles = useRoles();
  const catalog = usePermissionCatalog();
  const [done, setDone] = useState('');
  const [editing, setEditing] = useState<Role | null>(null);
  const manage = can('canManageRoles');
  const items = roles.data?.items ?? [];
  const saved = async (text: string) => {
    setDone(text);
    setEditing(null);
    await roles.reload();
  };
  return (
    <section aria-labelledby="roles-title">
      <h1 id="roles-title">{t('admin.section.roles')}</h1>
      <Done text={done} />
      <section aria-labelledby="role-list-title">
        <h2 id="role-list-title">{t('roles.list')}</h2>
        <p class="muted">{t('roles.readOnly')}</p>
        <LoadedList loaded={roles} count={items.length} empty={t('roles.empty')}>
          <DataTable
            class="org-table"
            caption={t('roles.list')}
            columns={[
              t('roles.name'),
              t('roles.kind'),
              t('roles.scope'),
              t('roles.holders'),
              t('roles.permissions'),
              ...(manage ? [t('common.actions')] : []),
            ]}
          >
            {items.map((role) => (
              <RoleRow
                key={role.id}
                role={role}
                catalog={catalog.data}
                manage={manage}
                edit={() => setEditing(role)}
                deleted={() => saved(t('roles.deleted'))}
              />
            ))}
          </DataTable>
        </LoadedList>
      </section>
      <ErrorNote error={catalog.error} />
      {manage && catalog.data && editing && (
        <RoleForm
          key={editing.id}
          role={editing}
          catalog={catalog.data}
          saved={saved}
          cancel={() => setEditing(null)}
        />
      )}
      {manage && catalog.data && !editing && <RoleForm catalog={catalog.data} saved={saved} />}
    </section>
  );
}

function RoleRow({
  role,
  catalog,
  manage,
  edit,
  deleted,
}: {
  role: Role;
  catalog: PermissionCatalog | null;
  manage: boolean;
  edit(): void;
  deleted(): Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const remove = async () => {
    setError(null);
    try {
      await api('delete', '/roles/{id}', { params: { id: role.id } });
      await deleted();
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <tr>
      <th scope="row">
        {role.name}
        <br />
        <code class="small">{role.slug}</code>
      </th>
      <td>{role.isSystem ? t('roles.system') : t('roles.custom')}</td>
      <td>{role.allDepartments ? t('roles.global') : t('roles.own')}</td>
      <td>{role.userCount}</td>
      <td>
        {role.permissions.length === 0 ? (
          t('roles.none')
        ) : (
          <ul class="org-perms" aria-label={t('roles.permissionsOf', { name: role.name })}>
            {role.permissions.map((p) => (
              <li key={p}>{permissionLabel(catalog, p)}</li>
            ))}
          </ul>
        )}
      </td>
      {manage && (
        <td>
          {!role.isSystem && !confirming && (
            <div class="row wrap">
              <button
                type="button"
                class="small"
                aria-label={t('roles.editOf', { name: role.name })}
                onClick={edit}
              >
                {t('roles.edit')}
              </button>
              <button
                type="button"
                class="small danger"
                aria-label={t('roles.deleteOf', { name: role.name })}
                onClick={() => setConfirming(true)}
              >
                {t('common.delete')}
              </button>
            </div>
          )}
          {confirming && (
            <ConfirmBox
              small
              class="org-confirm"
              question={t('roles.deleteConfirm', { name: role.name })}
              confirmLabel={t('roles.confirmDelete')}
              onConfirm={() => void remove()}
              onCancel={() => setConfirming(false)}
            />
          )}
          <ErrorNote error={error} />
        </td>
      )}
    </tr>
  );
}
