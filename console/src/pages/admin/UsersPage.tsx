import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { ErrorNote, useLoad, useSubmit } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { DepartmentSelect } from '../../components/DirectorySelect';
import { Filters, InputField, PasswordField, SelectField } from '../../components/FormField';
import { LoadedList } from '../../components/LoadedList';
import { t } from '../../i18n';
import { useDepartments } from '../../state/directory';
import { hrefOf } from '../../state/router';
import { can } from '../../state/session';
import { Done, useRoles } from './org-shared';
import { UserDetail } from './org-user';
import './org.css';

/** The users list with its filters and the create form; with an id, that user's page. */
export function UsersPage({ id }: { id?: string }) {
  if (id) return <UserDetail id={id} />;
  return <UserList />;
}

function UserList() {
  const [departmentId, setDepartmentId] = useState('');
  const [role, setRole] = useState('');
  const [search, setSearch] = useState('');
  const [active, setActive] = useState<'' | 'true' | 'false'>('');
  const [done, setDone] = useState('');
  const roles = useRoles();
  const departments = useDepartments();
  const list = useLoad(
    () =>
      api('get', '/users', {
        query: {
          limit: 100,
          ...(departmentId ? { departmentId } : {}),
          ...(role ? { role } : {}),
          ...(search.trim() ? { search: search.trim() } : {}),
          ...(active ? { isActive: active === 'true' } : {}),
        },
      }),
    [departmentId, role, search, active],
  );
  const items = list.data?.items ?? [];
  const roleChoices = (roles.data?.items ?? []).map((r) => ({ value: r.slug, label: r.name }));
  const departmentName = (id: string) => departments.find((d) => d.id === id)?.name ?? id;
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">{t('admin.section.users')}</h1>
      <Done text={done} />
      {can('canCreateUsers') && (
        <CreateUser
          roleChoices={roleChoices}
          created={async (name) => {
            setDone(t('users.created', { name }));
            await list.reload();
          }}
        />
      )}
      <section aria-labelledby="user-list-title">
        <h2 id="user-list-title">{t('users.list')}</h2>
        <Filters>
          <DepartmentSelect all value={departmentId} onChange={setDepartmentId} />
          <SelectField all label={t('users.role')} value={role} onChange={setRole} choices={roleChoices} />
          <SelectField
            all
            label={t('users.activeFilter')}
            value={active}
            onChange={setActive}
            choices={[
              { value: 'true', label: t('users.onlyActive') },
              { value: 'false', label: t('users.onlyInactive') },
            ]}
          />
          <InputField
            type="search"
            label={t('users.search')}
            maxLength={200}
            value={search}
            onValue={setSearch}
          />
        </Filters>
        <LoadedList loaded={list} count={items.length} empty={t('users.empty')} announce>
          <DataTable
            class="org-table"
            caption={t('users.list')}
            columns={[
              t('users.name'),
              t('users.email'),
              t('users.role'),
              t('common.department'),
              t('users.active'),
            ]}
          >
            {items.map((user) => (
              <tr key={user.id}>
                <th scope="row">
                  <a href={hrefOf({ name: 'admin', section: 'users', id: user.id })}>{user.name}</a>
                </th>
                <td>{user.email}</td>
                <td>{roles.data?.items.find((r) => r.slug === user.role)?.name ?? user.role}</td>
                <td>{departmentName(user.departmentId)}</td>
                <td>{user.isActive ? t('common.yes') : t('common.no')}</td>
              </tr>
            ))}
          </DataTable>
        </LoadedList>
      </section>
    </section>
  );
}

/** The new-user form: the API takes a password (no invitations), told to the user by whoever creates them. */
function CreateUser({
  roleChoices,
  created,
}: {
  roleChoices: { value: string; label: string }[];
  created(name: string): Promise<void>;
}) {
  const departments = useDepartments();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState('employee');
  const [departmentId, setDepartmentId] = useState('');
  const chosenDepartment = departmentId || departments[0]?.id || '';
  const form = useSubmit(async () => {
    await api('post', '/users', {
      body: { name: name.trim(), email: email.trim(), password, role, departmentId: chosenDepartment },
    });
    const createdName = name.trim();
    setName('');
    setEmail('');
    setPassword('');
    await created(createdName);
  });
  return (
    <form onSubmit={form.submit} class="row wrap end" aria-labelledby="user-create-title">
      <h2 id="user-create-title" class="full">
        {t('users.create')}
      </h2>
      <p class="muted full">{t('users.createHint')}</p>
      <InputField label={t('users.name')} required maxLength={200} value={name} onValue={setName} />
      <InputField
        label={t('users.email')}
        type="email"
        autoComplete="off"
        required
        value={email}
        onValue={setEmail}
      />
      <PasswordField fresh value={password} onValue={setPassword} />
      <SelectField label={t('users.role')} value={role} onChange={setRole} choices={roleChoices} />
      <DepartmentSelect value={chosenDepartment} onChange={setDepartmentId} />
      <button type="submit" class="primary" disabled={form.busy || !chosenDepartment}>
        {t('common.add')}
      </button>
      <ErrorNote error={form.error} />
    </form>
  );
}
