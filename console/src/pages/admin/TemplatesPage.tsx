import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { ErrorNote, useLoad } from '../../components/common';
import { t } from '../../i18n';
import { hrefOf, navigate } from '../../state/router';
import { can } from '../../state/session';
import { TemplateEditor } from './template-editor';
import { GenerateForm, GenerationHistory } from './template-generate';
import { TemplateList } from './template-list';
import './content.css';

/**
 * The document templates page: the list and the generation history at
 * `#/admin/templates`, a new template at `#/admin/templates/new`, and one
 * template (edit, generate, its history) at `#/admin/templates/<id>`.
 * Editing needs canManageTemplates; generating needs canGenerateDocuments.
 */
export function TemplatesPage({ id }: { id?: string }) {
  if (id === 'new' && can('canManageTemplates')) {
    return (
      <section aria-labelledby="templates-title">
        <h1 id="templates-title">{t('tpl.new')}</h1>
        <BackLink />
        <TemplateEditor
          onSaved={(saved) => navigate({ name: 'admin', section: 'templates', id: saved.id })}
        />
      </section>
    );
  }
  if (id) return <TemplateView key={id} id={id} />;
  return (
    <section aria-labelledby="templates-title">
      <h1 id="templates-title">{t('admin.section.templates')}</h1>
      <TemplateList />
      <GenerationHistory refresh={0} />
    </section>
  );
}

function BackLink() {
  return (
    <p>
      <a href={hrefOf({ name: 'admin', section: 'templates' })}>{t('tpl.back')}</a>
    </p>
  );
}

/** One template: its editor for managers, the generation form, and its own history. */
function TemplateView({ id }: { id: string }) {
  const template = useLoad(() => api('get', '/document-templates/{id}', { params: { id } }), [id]);
  const [generated, setGenerated] = useState(0);
  const [version, setVersion] = useState(0);
  const data = template.data;
  return (
    <section aria-labelledby="templates-title">
      <h1 id="templates-title">{data ? data.name : t('admin.section.templates')}</h1>
      <BackLink />
      <ErrorNote error={template.error} />
      {data && (
        <>
          {data.description && <p class="muted">{data.description}</p>}
          {can('canGenerateDocuments') && (
            <GenerateForm
              key={`${data.id}-${version}`}
              template={data}
              onGenerated={() => setGenerated((n) => n + 1)}
            />
          )}
          {can('canManageTemplates') && (
            <TemplateEditor
              key={`edit-${data.id}-${version}`}
              template={data}
              onSaved={async () => {
                await template.reload();
                setVersion((n) => n + 1);
              }}
            />
          )}
          <GenerationHistory templateId={data.id} refresh={generated} />
        </>
      )}
    </section>
  );
}
