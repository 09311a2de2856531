import { t } from '../../i18n';
import { ADMIN_SECTIONS, hrefOf } from '../../state/router';
import { canOpen } from '../../state/sections';

/** The administration pages the signed-in user may open, each with a line on what it holds. */
export function AdminPage() {
  const sections = ADMIN_SECTIONS.filter(canOpen);
  return (
    <section aria-labelledby="admin-title">
      <h1 id="admin-title">{t('nav.admin')}</h1>
      {sections.length === 0 && <p class="muted">{t('admin.none')}</p>}
      <ul class="admin-sections">
        {sections.map((section) => (
          <li key={section}>
            <a href={hrefOf({ name: 'admin', section })}>{t(`admin.section.${section}`)}</a>
            <p class="muted">{t(`admin.about.${section}`)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
