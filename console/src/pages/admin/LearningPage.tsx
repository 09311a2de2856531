import { useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { useLoad } from '../../components/common';
import { Filters, SelectField } from '../../components/FormField';
import { LoadedList } from '../../components/LoadedList';
import { t } from '../../i18n';
import { useNamespaces } from '../../state/directory';
import { Suggestion } from './insight-suggestion';
import './insight.css';

type Status = 'open' | 'accepted' | 'dismissed';
type Kind = '' | 'example' | 'answer';
const PAGE = 20;

/**
 * Answers approvers wrote by editing a reply, folded by question: per
 * namespace, each suggestion with its question and the edited answer; an
 * answer is accepted into a knowledge base the namespace searches, an
 * example into the intent's examples, or either is dismissed.
 */
export function LearningPage(_props: { id?: string }) {
  const namespaces = useNamespaces();
  const [chosen, setChosen] = useState('');
  const [status, setStatus] = useState<Status>('open');
  const [kind, setKind] = useState<Kind>('');
  const [limit, setLimit] = useState(PAGE);
  const namespace = namespaces.find((ns) => ns.id === chosen) ?? namespaces[0];
  const namespaceId = namespace?.id ?? '';
  const [said, setSaid] = useState('');

  const list = useLoad(
    () =>
      namespaceId
        ? api('get', '/learning/suggestions', {
            query: { namespaceId, status, limit: Math.min(limit, 100), ...(kind ? { type: kind } : {}) },
          })
        : Promise.resolve(null),
    [namespaceId, status, kind, limit],
  );
  const bases = useLoad(
    () =>
      namespace
        ? api('get', '/knowledge/bases', { query: { departmentId: namespace.departmentId, limit: 100 } })
        : Promise.resolve(null),
    [namespace?.departmentId],
  );
  const items = list.data?.items ?? [];
  const decided = async (message: string) => {
    setSaid(message);
    await list.reload();
  };

  return (
    <section aria-labelledby="learning-title">
      <h1 id="learning-title">{t('admin.section.learning')}</h1>
      <p class="muted">{t('learning.intro')}</p>
      {namespaces.length === 0 && <p class="muted">{t('learning.noNamespaces')}</p>}
      <Filters>
        {namespaces.length > 0 && (
          <SelectField
            label={t('common.namespace')}
            value={namespaceId}
            onChange={setChosen}
            choices={namespaces.map((ns) => ({ value: ns.id, label: ns.name }))}
          />
        )}
        <SelectField
          label={t('common.status')}
          value={status}
          onChange={setStatus}
          choices={(['open', 'accepted', 'dismissed'] as const).map((value) => ({
            value,
            label: t(`learning.status.${value}`),
          }))}
        />
        <SelectField
          label={t('learning.type')}
          value={kind}
          onChange={setKind}
          all
          choices={(['answer', 'example'] as const).map((value) => ({
            value,
            label: t(`learning.type.${value}`),
          }))}
        />
      </Filters>
      <p role="status" class="ok">
        {said}
      </p>
      <LoadedList loaded={list} count={items.length} empty={t('learning.empty')} announce>
        <ul class="insight-suggestions">
          {items.map((item) => (
            <Suggestion key={item.id} item={item} bases={bases.data?.items ?? []} decided={decided} />
          ))}
        </ul>
        {list.data && list.data.total > items.length && limit < 100 && (
          <button type="button" onClick={() => setLimit(limit + PAGE)}>
            {t('insight.loadMore')}
          </button>
        )}
      </LoadedList>
    </section>
  );
}

export type SuggestionRow = Success<'/learning/suggestions', 'get'>['items'][number];
export type KnowledgeBaseRow = Success<'/knowledge/bases', 'get'>['items'][number];
