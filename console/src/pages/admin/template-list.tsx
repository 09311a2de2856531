import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { ConfirmBox } from '../../components/ConfirmBox';
import { ErrorNote, useLoad } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { LoadedList } from '../../components/LoadedList';
import { formatDate, label, t } from '../../i18n';
import { hrefOf } from '../../state/router';
import { can } from '../../state/session';
import type { DocumentTemplate } from './template-editor';

/**
 * The templates the API lets the user see (their departments' and shared
 * ones), each leading to its page; managers get a link to create one and a
 * confirmed deletion per row.
 */
export function TemplateList() {
  const list = useLoad(() => api('get', '/document-templates', { query: { limit: 100 } }), []);
  const manage = can('canManageTemplates');
  const [confirming, setConfirming] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const rows = list.data?.items ?? [];

  const remove = async (template: DocumentTemplate) => {
    setError(null);
    try {
      await api('delete', '/document-templates/{id}', { params: { id: template.id } });
      setConfirming(null);
      setStatus(t('tpl.deleted', { name: template.name }));
      await list.reload();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section aria-labelledby="tpl-list-title">
      <h2 id="tpl-list-title">{t('tpl.list')}</h2>
      {manage && (
        <p>
          <a class="button" href={hrefOf({ name: 'admin', section: 'templates', id: 'new' })}>
            {t('tpl.new')}
          </a>
        </p>
      )}
      <p class="sr-only" role="status">
        {status}
      </p>
      <ErrorNote error={error} />
      <LoadedList loaded={list} count={rows.length} empty={t('tpl.empty')}>
        <DataTable
          caption={t('tpl.list')}
          columns={[
            t('tpl.name'),
            t('tpl.category'),
            t('tpl.format'),
            t('tpl.variables'),
            t('tpl.updated'),
            ...(manage ? [t('common.actions')] : []),
          ]}
        >
          {rows.map((template) => (
            <tr key={template.id}>
              <td>
                <a href={hrefOf({ name: 'admin', section: 'templates', id: template.id })}>{template.name}</a>
              </td>
              <td>{label('tpl.category', template.category)}</td>
              <td>{template.outputFormat.toUpperCase()}</td>
              <td>{template.variables.map((v) => v.name).join(', ') || '—'}</td>
              <td>{formatDate(template.updatedAt)}</td>
              {manage && (
                <td>
                  {confirming === template.id ? (
                    <ConfirmBox
                      small
                      question={t('tpl.deleteConfirm', { name: template.name })}
                      confirmLabel={t('tpl.deleteYes')}
                      onConfirm={() => void remove(template)}
                      onCancel={() => setConfirming(null)}
                    />
                  ) : (
                    <button
                      type="button"
                      class="small danger"
                      aria-label={t('tpl.deleteOf', { name: template.name })}
                      onClick={() => setConfirming(template.id)}
                    >
                      {t('common.delete')}
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </DataTable>
      </LoadedList>
    </section>
  );
}
