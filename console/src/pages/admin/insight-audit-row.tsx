import type { Success } from '../../api/client';
import { JsonView } from '../../components/common';
import { formatDate, label, t } from '../../i18n';

type AuditEntry = Success<'/audit', 'get'>['items'][number];

/** One audit entry: when, who, the action, what it touched, and the request's details folded. */
export function AuditRow({ entry }: { entry: AuditEntry }) {
  const who = entry.userName ?? entry.userEmail ?? t('audit.anonymous');
  return (
    <tr data-action={entry.action}>
      <td>
        <time dateTime={entry.createdAt}>{formatDate(entry.createdAt)}</time>
      </td>
      <td>{who}</td>
      <td>{label('audit.act', entry.action)}</td>
      <td>
        {entry.entityType}
        {entry.entityId && <span class="muted small insight-id"> {entry.entityId}</span>}
      </td>
      <td>
        <details class="insight-details">
          <summary>{t('audit.showDetails')}</summary>
          <JsonView value={entry.changes ?? null} label={t('audit.changes')} />
          {entry.ipAddress && <p class="small">{t('audit.ip', { ip: entry.ipAddress })}</p>}
          {entry.userAgent && <p class="small insight-agent">{entry.userAgent}</p>}
        </details>
      </td>
    </tr>
  );
}
