import { t } from '../../i18n';

/** The templates administration page (to be built). */
export function TemplatesPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="templates-title">
      <h1 id="templates-title">{t('admin.section.templates')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
