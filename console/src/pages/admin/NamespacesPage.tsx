import { t } from '../../i18n';

/** The namespaces administration page (to be built). */
export function NamespacesPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="namespaces-title">
      <h1 id="namespaces-title">{t('admin.section.namespaces')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
