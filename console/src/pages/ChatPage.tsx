import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import { ErrorNote, useLoad } from '../components/common';
import { formatDate, t } from '../i18n';
import { chatTick, onTaskEvent } from '../state/live';

type Pending = 'thinking' | 'approval' | 'failed';

/**
 * The web channel: the signed-in user talks to the assistant of their
 * department's namespace. A reply appears once it is sent or approved
 * (the `assistant_reply` notification and the task events trigger a reload).
 */
export function ChatPage() {
  const tick = chatTick.value;
  const messages = useLoad(() => api('get', '/conversations/web/messages', { query: { limit: 50 } }), [tick]);
  const [text, setText] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState<Record<string, Pending>>({});
  const end = useRef<HTMLLIElement>(null);
  const items = [...(messages.data?.items ?? [])].reverse();

  useEffect(
    () =>
      onTaskEvent((frame) => {
        const taskId = String(frame.payload.taskId ?? '');
        setPending((current) => {
          if (!(taskId in current)) return current;
          const output = frame.payload.output as { route?: string } | undefined;
          if (frame.event === 'agent-task.failed') return { ...current, [taskId]: 'failed' };
          if (frame.event === 'agent-task.completed' && output?.route && output.route !== 'auto_send') {
            return { ...current, [taskId]: 'approval' };
          }
          return current;
        });
        if (frame.event === 'agent-task.completed') void messages.reload();
      }),
    [messages.reload],
  );

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [items.length]);

  const answered = new Set(items.filter((m) => m.direction === 'outbound').map((m) => m.taskId));

  const send = async (e: Event) => {
    e.preventDefault();
    const body = text.trim();
    if (!body) return;
    setError(null);
    try {
      const sent = await api('post', '/conversations/web/messages', {
        body: { text: body, clientMessageId: crypto.randomUUID() },
      });
      setText('');
      if (sent.taskId) setPending((p) => ({ ...p, [sent.taskId as string]: 'thinking' }));
      await messages.reload();
    } catch (caught) {
      setError(caught);
    }
  };

  return (
    <section aria-labelledby="chat-title" class="chat">
      <h1 id="chat-title">{t('chat.title')}</h1>
      <p class="muted">{t('chat.intro')}</p>
      <ErrorNote error={messages.error} />
      <ol class="messages" aria-live="polite" aria-label={t('chat.history')}>
        {items.map((m) => {
          const state = m.taskId && !answered.has(m.taskId) ? pending[m.taskId] : undefined;
          return (
            <li key={m.id} class={m.direction === 'inbound' ? 'mine' : 'theirs'} data-direction={m.direction}>
              <span class="muted small">
                {m.direction === 'inbound' ? t('chat.you') : t('chat.assistant')} · {formatDate(m.createdAt)}
              </span>
              <p>{m.content}</p>
              {m.direction === 'inbound' && state && <span class="muted small">{t(`chat.${state}`)}</span>}
            </li>
          );
        })}
        <li ref={end} aria-hidden="true" class="end" />
      </ol>
      {messages.data && items.length === 0 && <p class="muted">{t('chat.empty')}</p>}
      <form onSubmit={send} class="compose">
        <label class="field grow">
          <span>{t('chat.message')}</span>
          <textarea
            rows={2}
            maxLength={4000}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey) void send(e);
            }}
          />
        </label>
        <button type="submit" class="primary" disabled={!text.trim()}>
          {t('chat.send')}
        </button>
      </form>
      <ErrorNote error={error} />
    </section>
  );
}
