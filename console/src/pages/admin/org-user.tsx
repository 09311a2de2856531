import { useEffect, useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { ErrorNote, Field, useLoad, useSubmit } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { DepartmentSelect } from '../../components/DirectorySelect';
import { SelectField } from '../../components/FormField';
import { formatDate, t } from '../../i18n';
import { useDepartments } from '../../state/directory';
import { hrefOf } from '../../state/router';
import { can } from '../../state/session';
import { Done, type PermissionCatalog, permissionLabel, usePermissionCatalog, useRoles } from './org-shared';

type User = Success<'/users/{id}', 'get'>;
type Access = Success<'/users/{id}/effective-access', 'get'>;
type Channel = Success<'/users/{id}/channel-identities', 'get'>['items'][number]['channel'];
const CHANNELS: readonly Channel[] = ['chanA', 'chanB'];

/** One user: account (role, department, active), effective access with per-user overrides, channel identities. */
export function UserDetail({ id }: { id: string }) {
  const user = useLoad(() => api('get', '/users/{id}', { params: { id } }), [id]);
  const access = useLoad(() => api('get', '/users/{id}/effective-access', { params: { id } }), [id]);
  const [done, setDone] = useState('');
  const manage = can('canManageUsers');
  const changed = async (text: string) => {
    setDone(text);
    await Promise.all([user.reload(), access.reload()]);
  };
  return (
    <section aria-labelledby="user-title">
      <p>
        <a href={hrefOf({ name: 'admin', section: 'users' })}>{t('users.back')}</a>
      </p>
      <h1 id="user-title">{user.data?.name ?? t('admin.section.users')}</h1>
      <ErrorNote error={user.error} />
      <Done text={done} />
      {user.data && <Account user={user.data} manage={manage} changed={changed} />}
      <ErrorNote error={access.error} />
      {access.data && <AccessView access={access.data} manage={manage} userId={id} changed={changed} />}
      {manage && <Identities userId={id} announce={setDone} />}
    </section>
  );
}

function Account({
  user,
  manage,
  changed,
}: {
  user: User;
  manage: boolean;
  changed(text: string): Promise<void>;
}) {
  const roles = useRoles();
  const departments = useDepartments();
  const [role, setRole] = useState(user.role);
  const [departmentId, setDepartmentId] = useState(user.departmentId);
  useEffect(() => {
    setRole(user.role);
    setDepartmentId(user.departmentId);
  }, [user.role, user.departmentId]);
  const save = useSubmit(async () => {
    await api('patch', '/users/{id}', { params: { id: user.id }, body: { role, departmentId } });
    await changed(t('users.accountSaved'));
  });
  const toggle = useSubmit(async () => {
    await api('patch', '/users/{id}', { params: { id: user.id }, body: { isActive: !user.isActive } });
    await changed(user.isActive ? t('users.deactivated') : t('users.reactivated'));
  });
  const roleChoices = (roles.data?.items ?? []).map((r) => ({ value: r.slug, label: r.name }));
  return (
    <section aria-labelledby="user-account-title" class="org-section">
      <h2 id="user-account-title">{t('users.account')}</h2>
      <dl class="facts">
        <dt>{t('users.email')}</dt>
        <dd>{user.email}</dd>
        <dt>{t('users.role')}</dt>
        <dd>{roles.data?.items.find((r) => r.slug === user.role)?.name ?? user.role}</dd>
        <dt>{t('common.department')}</dt>
        <dd>{departments.find((d) => d.id === user.departmentId)?.name ?? user.departmentId}</dd>
        <dt>{t('users.active')}</dt>
        <dd>{user.isActive ? t('common.yes') : t('common.no')}</dd>
        <dt>{t('users.lastLogin')}</dt>
        <dd>{user.lastLoginAt ? formatDate(user.lastLoginAt) : t('users.never')}</dd>
      </dl>
      {manage && (
        <>
          <form onSubmit={save.submit} class="row wrap end" aria-label={t('users.saveAccount')}>
            <SelectField label={t('users.role')} value={role} onChange={setRole} choices={roleChoices} />
            <DepartmentSelect value={departmentId} onChange={setDepartmentId} />
            <button type="submit" class="primary" disabled={save.busy}>
              {t('users.saveAccount')}
            </button>
          </form>
          <ErrorNote error={save.error} />
          <form onSubmit={toggle.submit} class="row">
            <button type="submit" class={user.isActive ? 'danger' : ''} disabled={toggle.busy}>
              {user.isActive ? t('users.deactivate') : t('users.reactivate')}
            </button>
          </form>
          <ErrorNote error={toggle.error} />
        </>
      )}
    </section>
  );
}

/** Where a permission comes from for this user, as words. */
function sourceOf(access: Access, key: string): string {
  if (access.overrides.revokedPermissions.includes(key)) return t('users.revoked');
  if (access.overrides.extraPermissions.includes(key)) return t('users.granted');
  if (access.role.permissions.includes(key)) return t('users.fromRole', { role: access.role.name });
  return '—';
}

function AccessView({
  access,
  manage,
  userId,
  changed,
}: {
  access: Access;
  manage: boolean;
  userId: string;
  changed(text: string): Promise<void>;
}) {
  const catalog = usePermissionCatalog();
  const departments = useDepartments();
  const [error, setError] = useState<unknown>(null);
  const keys = catalog.data
    ? catalog.data.groups.flatMap((g) => g.permissions.map((p) => p.key as string))
    : [
        ...new Set([
          ...access.role.permissions,
          ...access.overrides.extraPermissions,
          ...access.overrides.revokedPermissions,
        ]),
      ];
  const act = async (call: () => Promise<unknown>) => {
    setError(null);
    try {
      await call();
      await changed(t('users.accessChanged'));
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section aria-labelledby="user-access-title" class="org-section">
      <h2 id="user-access-title">{t('users.access')}</h2>
      <p class="muted">{t('users.accessHint')}</p>
      <ErrorNote error={error ?? catalog.error} />
      <DataTable
        class="org-table"
        caption={t('users.access')}
        columns={[
          t('users.permission'),
          t('users.source'),
          t('users.effective'),
          ...(manage ? [t('common.actions')] : []),
        ]}
      >
        {keys.map((key) => (
          <PermissionRow
            key={key}
            permission={key}
            catalog={catalog.data}
            access={access}
            manage={manage}
            act={(call) => act(call)}
            userId={userId}
          />
        ))}
      </DataTable>
      <h3>{t('users.departments')}</h3>
      {access.isGlobal ? (
        <p>{t('users.allDepartments')}</p>
      ) : (
        <ul>
          {access.effectiveDepartmentIds.map((dep) => (
            <li key={dep}>{departments.find((d) => d.id === dep)?.name ?? dep}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PermissionRow({
  permission,
  catalog,
  access,
  manage,
  userId,
  act,
}: {
  permission: string;
  catalog: PermissionCatalog | null;
  access: Access;
  manage: boolean;
  userId: string;
  act(call: () => Promise<unknown>): Promise<void>;
}) {
  const name = permissionLabel(catalog, permission);
  const effective = (access.effectivePermissions as string[]).includes(permission);
  const revoked = access.overrides.revokedPermissions.includes(permission);
  const granted = access.overrides.extraPermissions.includes(permission);
  const params = { id: userId, permission };
  // The permission names come from the catalogue the API validates against.
  const body = { permission: permission as Access['effectivePermissions'][number] };
  let action: { text: string; label: string; call: () => Promise<unknown> };
  if (revoked) {
    action = {
      text: t('users.undoRevoke'),
      label: t('users.undoRevokeOf', { permission: name }),
      call: () => api('delete', '/users/{id}/permissions/revoke/{permission}', { params }),
    };
  } else if (granted) {
    action = {
      text: t('users.undoGrant'),
      label: t('users.undoGrantOf', { permission: name }),
      call: () => api('delete', '/users/{id}/permissions/grant/{permission}', { params }),
    };
  } else if (effective) {
    action = {
      text: t('users.revoke'),
      label: t('users.revokeOf', { permission: name }),
      call: () => api('post', '/users/{id}/permissions/revoke', { params: { id: userId }, body }),
    };
  } else {
    action = {
      text: t('users.grant'),
      label: t('users.grantOf', { permission: name }),
      call: () => api('post', '/users/{id}/permissions/grant', { params: { id: userId }, body }),
    };
  }
  return (
    <tr>
      <th scope="row">
        {name}
        <br />
        <code class="small">{permission}</code>
      </th>
      <td>{sourceOf(access, permission)}</td>
      <td>{effective ? t('common.yes') : t('common.no')}</td>
      {manage && (
        <td>
          <button type="button" class="small" aria-label={action.label} onClick={() => void act(action.call)}>
            {action.text}
          </button>
        </td>
      )}
    </tr>
  );
}

/** The user's sender id on each messaging channel, set or removed by a user manager. */
function Identities({ userId, announce }: { userId: string; announce(text: string): void }) {
  const list = useLoad(
    () => api('get', '/users/{id}/channel-identities', { params: { id: userId } }),
    [userId],
  );
  return (
    <section aria-labelledby="user-identities-title" class="org-section">
      <h2 id="user-identities-title">{t('users.identities')}</h2>
      <p class="muted">{t('users.identitiesHint')}</p>
      <ErrorNote error={list.error} />
      {list.data &&
        CHANNELS.map((channel) => (
          <IdentityForm
            key={channel}
            userId={userId}
            channel={channel}
            current={list.data?.items.find((i) => i.channel === channel)?.channelUserId ?? ''}
            changed={async (text) => {
              announce(text);
              await list.reload();
            }}
          />
        ))}
    </section>
  );
}

function IdentityForm({
  userId,
  channel,
  current,
  changed,
}: {
  userId: string;
  channel: Channel;
  current: string;
  changed(text: string): Promise<void>;
}) {
  const [value, setValue] = useState(current);
  useEffect(() => setValue(current), [current]);
  const params = { id: userId, channel };
  const save = useSubmit(async () => {
    await api('put', '/users/{id}/channel-identities/{channel}', {
      params,
      body: { channelUserId: value.trim() },
    });
    await changed(t('users.identitySaved'));
  });
  const remove = useSubmit(async () => {
    await api('delete', '/users/{id}/channel-identities/{channel}', { params });
    await changed(t('users.identityRemoved'));
  });
  return (
    <form onSubmit={save.submit} class="row wrap end">
      <Field label={t('users.channelUserId', { channel })}>
        <input
          required
          maxLength={32}
          inputMode="numeric"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
      </Field>
      <button type="submit" class="primary" disabled={save.busy}>
        {t('users.setIdentity', { channel })}
      </button>
      {current && (
        <button type="button" class="danger" disabled={remove.busy} onClick={(e) => void remove.submit(e)}>
          {t('users.removeIdentity', { channel })}
        </button>
      )}
      <ErrorNote error={save.error ?? remove.error} />
    </form>
  );
}
