import { t } from '../../i18n';

/** The departments administration page (to be built). */
export function DepartmentsPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="departments-title">
      <h1 id="departments-title">{t('admin.section.departments')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
