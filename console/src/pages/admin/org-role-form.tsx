import { useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { ErrorNote, Field, useSubmit } from '../../components/common';
import { InputField } from '../../components/FormField';
import { lang, t } from '../../i18n';
import type { PermissionCatalog } from './org-shared';

export type Role = Success<'/roles', 'get'>['items'][number];
type PermissionName = PermissionCatalog['groups'][number]['permissions'][number]['key'];

/**
 * The form of a custom role: name, slug (new roles only), description,
 * global or not, and one checkbox per permission of the catalogue, by group.
 * Without `role` it creates one (POST /roles), else it changes it (PATCH).
 */
export function RoleForm({
  role,
  catalog,
  saved,
  cancel,
}: {
  role?: Role;
  catalog: PermissionCatalog;
  saved(text: string): Promise<void>;
  cancel?(): void;
}) {
  const [name, setName] = useState(role?.name ?? '');
  const [slug, setSlug] = useState('');
  const [description, setDescription] = useState(role?.description ?? '');
  const [allDepartments, setAllDepartments] = useState(role?.allDepartments ?? false);
  // The role's permissions were validated by the API against the same catalogue.
  const [permissions, setPermissions] = useState<PermissionName[]>(
    (role?.permissions ?? []) as PermissionName[],
  );
  const titleId = role ? `role-edit-${role.id}` : 'role-create-title';
  const form = useSubmit(async () => {
    const body = {
      name: name.trim(),
      description: description.trim() || null,
      allDepartments,
      permissions,
    };
    if (role) {
      await api('patch', '/roles/{id}', { params: { id: role.id }, body });
      await saved(t('roles.saved'));
    } else {
      await api('post', '/roles', { body: { ...body, ...(slug.trim() ? { slug: slug.trim() } : {}) } });
      setName('');
      setSlug('');
      setDescription('');
      setAllDepartments(false);
      setPermissions([]);
      await saved(t('roles.created'));
    }
  });
  const toggle = (key: PermissionName, on: boolean) =>
    setPermissions((current) => (on ? [...current, key] : current.filter((p) => p !== key)));
  return (
    <form onSubmit={form.submit} class="org-section" aria-labelledby={titleId}>
      <h2 id={titleId}>{role ? t('roles.editOf', { name: role.name }) : t('roles.create')}</h2>
      <div class="row wrap end">
        <InputField label={t('roles.name')} required maxLength={100} value={name} onValue={setName} />
        {!role && (
          <InputField
            label={t('roles.slug')}
            maxLength={64}
            hint={t('roles.slugHint')}
            value={slug}
            onValue={setSlug}
          />
        )}
        <Field label={t('roles.description')}>
          <textarea
            maxLength={1000}
            value={description}
            onInput={(e) => setDescription(e.currentTarget.value)}
          />
        </Field>
        <label class="field inline">
          <input
            type="checkbox"
            checked={allDepartments}
            onChange={(e) => setAllDepartments(e.currentTarget.checked)}
          />
          <span>{t('roles.allDepartments')}</span>
        </label>
      </div>
      {catalog.groups.map((group) => (
        <fieldset key={group.key} class="org-checks">
          <legend>{group.label[lang.value]}</legend>
          <ul>
            {group.permissions.map((permission) => (
              <li key={permission.key}>
                <label class="field inline" title={permission.description[lang.value]}>
                  <input
                    type="checkbox"
                    checked={permissions.includes(permission.key)}
                    onChange={(e) => toggle(permission.key, e.currentTarget.checked)}
                  />
                  <span>{permission.label[lang.value]}</span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
      <div class="row wrap">
        <button type="submit" class="primary" disabled={form.busy}>
          {role ? t('common.save') : t('common.add')}
        </button>
        {cancel && (
          <button type="button" onClick={cancel}>
            {t('common.cancel')}
          </button>
        )}
      </div>
      <ErrorNote error={form.error} />
    </form>
  );
}
