import { t } from '../../i18n';

/** The analytics administration page (to be built). */
export function AnalyticsPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="analytics-title">
      <h1 id="analytics-title">{t('admin.section.analytics')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
