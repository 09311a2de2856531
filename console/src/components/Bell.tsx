import { useEffect, useRef, useState } from 'preact/hooks';
import type { Notification } from '../api/types';
import { formatDate, label, t } from '../i18n';
import { markAllRead, markRead, notifications, unreadCount } from '../state/live';
import { hrefOf } from '../state/router';

/** Where a notification leads: its approval when it is about one. */
function linkOf(n: Notification): string | null {
  if (n.entityId && (n.entityType === 'approval' || n.entityType === 'approvals')) {
    return hrefOf({ name: 'approval', id: n.entityId });
  }
  if (n.type === 'assistant_reply') return hrefOf({ name: 'chat' });
  return null;
}

/** The notification bell: unread count, the newest notifications, mark read, a link to each approval. */
export function Bell() {
  const [open, setOpen] = useState(false);
  const panel = useRef<HTMLElement>(null);
  const count = unreadCount.value;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const follow = (n: Notification) => {
    setOpen(false);
    if (!n.readAt) void markRead(n.id).catch(() => {});
  };

  return (
    <div class="bell">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="bell-panel"
        aria-label={t('bell.label', { count })}
        onClick={() => setOpen(!open)}
      >
        <svg
          aria-hidden="true"
          width="18"
          height="18"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          stroke-width="2"
        >
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {count > 0 && (
          <span class="badge" data-testid="unread-count">
            {count}
          </span>
        )}
      </button>
      {open && (
        <section class="bell-panel" id="bell-panel" ref={panel} aria-label={t('bell.title')}>
          <div class="row between">
            <h2>{t('bell.title')}</h2>
            <button
              type="button"
              class="link"
              disabled={count === 0}
              onClick={() => void markAllRead().catch(() => {})}
            >
              {t('bell.readAll')}
            </button>
          </div>
          {notifications.value.length === 0 && <p class="muted">{t('bell.empty')}</p>}
          <ul class="list">
            {notifications.value.map((n) => {
              const href = linkOf(n);
              const title = label('notification', n.type, n.title);
              return (
                <li key={n.id} class={n.readAt ? 'read' : 'unread'}>
                  {href ? (
                    <a href={href} onClick={() => follow(n)}>
                      {title}
                    </a>
                  ) : (
                    <span>{title}</span>
                  )}
                  {n.body && <span class="muted small">{n.body}</span>}
                  <span class="muted small">{formatDate(n.createdAt)}</span>
                  {!n.readAt && (
                    <button
                      type="button"
                      class="link small"
                      onClick={() => void markRead(n.id).catch(() => {})}
                    >
                      {t('bell.markRead')}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}
