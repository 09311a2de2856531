import { t } from '../../i18n';

/** The roles administration page (to be built). */
export function RolesPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="roles-title">
      <h1 id="roles-title">{t('admin.section.roles')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
