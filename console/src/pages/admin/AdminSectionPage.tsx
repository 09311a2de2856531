import { t } from '../../i18n';
import type { AdminRoute, AdminSection } from '../../state/router';
import { canOpen } from '../../state/sections';
import { AdminPage } from './AdminPage';
import { AnalyticsPage } from './AnalyticsPage';
import { AuditPage } from './AuditPage';
import { ChannelsPage } from './ChannelsPage';
import { DepartmentsPage } from './DepartmentsPage';
import { LearningPage } from './LearningPage';
import { NamespacesPage } from './NamespacesPage';
import { RolesPage } from './RolesPage';
import { TemplatesPage } from './TemplatesPage';
import { UsersPage } from './UsersPage';

const PAGES: Record<AdminSection, (props: { id?: string }) => preact.JSX.Element> = {
  departments: DepartmentsPage,
  users: UsersPage,
  roles: RolesPage,
  namespaces: NamespacesPage,
  templates: TemplatesPage,
  analytics: AnalyticsPage,
  learning: LearningPage,
  channels: ChannelsPage,
  audit: AuditPage,
};

/**
 * An administration page by its address: the index without a section, a
 * refusal for a section the user's permissions do not open (the API would
 * refuse its calls too), else the section's page, with the record's id if any.
 */
export function AdminSectionPage({ route }: { route: AdminRoute }) {
  if (!route.section) return <AdminPage />;
  if (!canOpen(route.section)) {
    return (
      <section aria-labelledby="admin-refused">
        <h1 id="admin-refused">{t(`admin.section.${route.section}`)}</h1>
        <p class="error" role="alert">
          {t('error.forbidden')}
        </p>
      </section>
    );
  }
  const Page = PAGES[route.section];
  return <Page id={route.id} />;
}
