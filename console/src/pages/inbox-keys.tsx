import { useEffect, useRef, useState } from 'preact/hooks';
import { type MessageKey, t } from '../i18n';

/** What the inbox's keys do to the row at `index`. */
export interface InboxKeyActions {
  count: number;
  open(index: number): void;
  edit(index: number): void;
  approve(index: number): void;
  reject(index: number): void;
  select(index: number): void;
  /** A decision is under way: `a` and `r` wait for it. */
  busy: boolean;
}

/** The keys, in the order the help lists them. */
const KEYS: ReadonlyArray<{ key: string; says: MessageKey }> = [
  { key: 'j', says: 'keys.next' },
  { key: 'k', says: 'keys.previous' },
  { key: 'Enter', says: 'keys.open' },
  { key: 'a', says: 'keys.approve' },
  { key: 'e', says: 'keys.edit' },
  { key: 'r', says: 'keys.reject' },
  { key: 'x', says: 'keys.select' },
  { key: '?', says: 'keys.help' },
];

/** Typing in a field is typing, not a command. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (!element?.tagName) return false;
  return ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName) || element.isContentEditable;
}

/**
 * The inbox's keyboard: `j`/`k` move the current row (its link takes the focus, so a screen
 * reader follows), Enter opens it, `a` approves it, `e` opens it to edit, `r` rejects it, `x`
 * selects it, `?` shows the keys. Keys typed in a field, or with Ctrl, Alt or Meta, are left alone.
 */
export function useInboxKeys(actions: InboxKeyActions) {
  const [current, setCurrent] = useState(0);
  const [help, setHelp] = useState(false);
  const latest = useRef(actions);
  latest.current = actions;
  const position = useRef(current);
  position.current = Math.min(current, Math.max(0, actions.count - 1));

  useEffect(() => {
    const move = (next: number) => {
      const index = Math.max(0, Math.min(latest.current.count - 1, next));
      setCurrent(index);
      document.querySelectorAll<HTMLAnchorElement>('table.inbox tbody tr a')[index]?.focus();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || typing(event.target)) return;
      const act = latest.current;
      const index = position.current;
      if (event.key === '?') {
        setHelp((shown) => !shown);
      } else if (act.count === 0) {
        return;
      } else if (event.key === 'j') {
        move(index + 1);
      } else if (event.key === 'k') {
        move(index - 1);
      } else if (event.key === 'Enter' && (event.target as HTMLElement | null)?.tagName !== 'A') {
        act.open(index);
      } else if (event.key === 'a' && !act.busy) {
        act.approve(index);
      } else if (event.key === 'e') {
        act.edit(index);
      } else if (event.key === 'r' && !act.busy) {
        act.reject(index);
      } else if (event.key === 'x') {
        act.select(index);
      } else {
        return;
      }
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return { current: position.current, help, setHelp };
}

/** The visible list of keys, opened by `?` or by its summary. */
export function KeyboardHelp(props: { open: boolean; onToggle(open: boolean): void }) {
  return (
    <details
      class="shortcuts"
      open={props.open}
      onToggle={(e) => props.onToggle((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>{t('keys.title')}</summary>
      <dl>
        {KEYS.map(({ key, says }) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{t(says)}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
