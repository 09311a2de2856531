import { useState } from 'preact/hooks';
import { api } from '../../api/client';
import { ErrorNote, useSubmit } from '../../components/common';
import { SelectField } from '../../components/FormField';
import { formatDate, t } from '../../i18n';
import type { KnowledgeBaseRow, SuggestionRow } from './LearningPage';

/**
 * One learning suggestion: the question, the approver's answer, how many
 * edits it folds; while open, the knowledge base to accept an answer into,
 * Accept and Dismiss. `decided` gets the sentence to announce.
 */
export function Suggestion({
  item,
  bases,
  decided,
}: {
  item: SuggestionRow;
  bases: KnowledgeBaseRow[];
  decided(message: string): Promise<void>;
}) {
  const [baseId, setBaseId] = useState('');
  const chosenBase = baseId || bases[0]?.id || '';
  const headingId = `suggestion-${item.id}`;
  const accept = useSubmit(async () => {
    await api('post', '/learning/suggestions/{id}/accept', {
      params: { id: item.id },
      body: item.type === 'answer' ? { knowledgeBaseId: chosenBase } : {},
    });
    await decided(t('learning.accepted', { question: item.question }));
  });
  const dismiss = useSubmit(async () => {
    await api('post', '/learning/suggestions/{id}/dismiss', { params: { id: item.id } });
    await decided(t('learning.dismissed', { question: item.question }));
  });
  return (
    <li class="insight-suggestion" aria-labelledby={headingId}>
      <h3 id={headingId}>{item.question}</h3>
      <dl>
        <div>
          <dt>{t('learning.type')}</dt>
          <dd>{t(`learning.type.${item.type}`)}</dd>
        </div>
        {item.intent && (
          <div>
            <dt>{t('common.intent')}</dt>
            <dd>{item.intent}</dd>
          </div>
        )}
        {item.answer !== null && (
          <div>
            <dt>{t('learning.answer')}</dt>
            <dd class="insight-answer">{item.answer}</dd>
          </div>
        )}
        <div>
          <dt>{t('learning.edits')}</dt>
          <dd>{item.count}</dd>
        </div>
        <div>
          <dt>{t('learning.updated')}</dt>
          <dd>{formatDate(item.updatedAt)}</dd>
        </div>
      </dl>
      {item.status === 'open' && (
        <form
          class="row wrap end"
          onSubmit={accept.submit}
          aria-label={t('learning.decide', { question: item.question })}
        >
          {item.type === 'answer' &&
            (bases.length > 0 ? (
              <SelectField
                label={t('learning.base')}
                value={chosenBase}
                onChange={setBaseId}
                choices={bases.map((base) => ({ value: base.id, label: base.name }))}
              />
            ) : (
              <p class="muted">{t('learning.noBases')}</p>
            ))}
          <button
            type="submit"
            class="primary"
            disabled={accept.busy || (item.type === 'answer' && !chosenBase)}
          >
            {t('learning.accept')}
          </button>
          <button type="button" disabled={dismiss.busy} onClick={(e) => void dismiss.submit(e)}>
            {t('common.dismiss')}
          </button>
        </form>
      )}
      <ErrorNote error={accept.error ?? dismiss.error} />
    </li>
  );
}
