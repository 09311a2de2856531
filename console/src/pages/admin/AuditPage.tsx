import { t } from '../../i18n';

/** The audit administration page (to be built). */
export function AuditPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t('admin.section.audit')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
