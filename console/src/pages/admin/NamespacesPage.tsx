import { t } from '../../i18n';
import { NamespaceDetail } from './namespace-detail';
import { NamespaceList } from './namespace-list';
import './assistant.css';

/**
 * The namespaces administration: `#/admin/namespaces` lists the namespaces the
 * API shows the user (their departments'), `#/admin/namespaces/<id>` opens one.
 */
export function NamespacesPage({ id }: { id?: string }) {
  if (id) return <NamespaceDetail id={id} />;
  return (
    <section aria-labelledby="namespaces-title">
      <h1 id="namespaces-title">{t('admin.section.namespaces')}</h1>
      <NamespaceList />
    </section>
  );
}
