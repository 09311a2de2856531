import { t } from '../../i18n';

/** The learning administration page (to be built). */
export function LearningPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="learning-title">
      <h1 id="learning-title">{t('admin.section.learning')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
