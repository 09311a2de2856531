import { t } from '../../i18n';

/** The users administration page (to be built). */
export function UsersPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">{t('admin.section.users')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
