import { api, type Success } from '../../api/client';
import { ErrorNote, useLoad } from '../../components/common';
import { t } from '../../i18n';
import { hrefOf } from '../../state/router';
import { can } from '../../state/session';
import { TrustPolicy } from '../TrustPolicy';
import { NamespaceEvaluation } from './namespace-eval';
import { NamespaceGeneral, NamespacePersona } from './namespace-general';
import { NamespaceKnowledge } from './namespace-knowledge';
import { NamespacePlugins } from './namespace-plugins';

/** A namespace as the API answers it. */
export type Namespace = Success<'/namespaces/{id}', 'get'>;

/**
 * One namespace: its name and system prompt, persona, knowledge bases,
 * plugins, trust policy and evaluation, each a section. Editing needs
 * canManageNamespaces; plugins also canManagePlugins, as the API checks.
 */
export function NamespaceDetail({ id }: { id: string }) {
  const namespace = useLoad(() => api('get', '/namespaces/{id}', { params: { id } }), [id]);
  const manage = can('canManageNamespaces');
  const plugins = manage || can('canManagePlugins');
  const data = namespace.data;
  return (
    <section aria-labelledby="namespace-title" class="namespace-page">
      <p>
        <a href={hrefOf({ name: 'admin', section: 'namespaces' })}>{t('namespaces.back')}</a>
      </p>
      <h1 id="namespace-title">{data ? data.name : t('admin.section.namespaces')}</h1>
      <ErrorNote error={namespace.error} />
      {!data && namespace.loading && <p class="muted">{t('common.loading')}</p>}
      {data && (
        <>
          <NamespaceGeneral namespace={data} manage={manage} onSaved={namespace.reload} />
          <NamespacePersona namespace={data} manage={manage} onSaved={namespace.reload} />
          <NamespaceKnowledge namespace={data} manage={manage} onSaved={namespace.reload} />
          {plugins && <NamespacePlugins namespaceId={data.id} />}
          {manage && <TrustPolicy namespaceId={data.id} />}
          {manage && <NamespaceEvaluation namespaceId={data.id} />}
        </>
      )}
    </section>
  );
}
