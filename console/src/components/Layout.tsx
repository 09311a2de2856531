import type { ComponentChildren } from 'preact';
import { LANGUAGES, type Language, lang, t } from '../i18n';
import { live } from '../state/live';
import { ADMIN_SECTIONS, hrefOf, type Route, route } from '../state/router';
import { canOpen } from '../state/sections';
import { can, chooseLanguage, me, openQueueBoard, QUEUE_BOARD_PATH, signOut } from '../state/session';
import { Bell } from './Bell';

interface NavItem {
  target: Route;
  label: string;
  show: boolean;
}

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', uk: 'Українська', ru: 'Русский' };

export function Layout({ children }: { children: ComponentChildren }) {
  const user = me.value;
  const caps = user?.capabilities;
  const items: NavItem[] = [
    { target: { name: 'inbox' }, label: t('nav.inbox'), show: caps?.approvals ?? false },
    { target: { name: 'tasks' }, label: t('nav.tasks'), show: true },
    { target: { name: 'knowledge' }, label: t('nav.knowledge'), show: caps?.knowledge ?? false },
    { target: { name: 'chat' }, label: t('nav.chat'), show: true },
    { target: { name: 'intents' }, label: t('nav.intents'), show: caps?.namespaces ?? false },
    { target: { name: 'admin' }, label: t('nav.admin'), show: ADMIN_SECTIONS.some(canOpen) },
  ];
  const current = route.value?.name;
  const section = current === 'approval' ? 'inbox' : current === 'task' ? 'tasks' : current;
  const isLive = live.value.notifications && live.value.tasks;
  return (
    <div class="shell">
      <a class="skip" href="#main">
        {t('nav.skip')}
      </a>
      <header class="top">
        <span class="brand">{t('app.title')}</span>
        <nav aria-label={t('nav.label')}>
          <ul>
            {items
              .filter((item) => item.show)
              .map((item) => (
                <li key={item.target.name}>
                  <a
                    href={hrefOf(item.target)}
                    aria-current={section === item.target.name ? 'page' : undefined}
                  >
                    {item.label}
                  </a>
                </li>
              ))}
            {can('canEditSettings') ? (
              <li>
                <a
                  href={QUEUE_BOARD_PATH}
                  onClick={(e) => {
                    // The dashboard takes a session cookie, not the console's token: get one, then go.
                    e.preventDefault();
                    void openQueueBoard().catch(() => {});
                  }}
                >
                  {t('nav.queues')}
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
        <div class="tools">
          <span
            class={`live ${isLive ? 'on' : ''}`}
            data-live={isLive ? 'on' : 'off'}
            title={isLive ? t('live.on') : t('live.off')}
          >
            <span aria-hidden="true">●</span> {isLive ? t('live.on') : t('live.off')}
          </span>
          <Bell />
          <label class="lang">
            <span class="sr-only">{t('lang.label')}</span>
            <select
              value={lang.value}
              onChange={(e) => chooseLanguage((e.currentTarget as HTMLSelectElement).value as Language)}
            >
              {LANGUAGES.map((code) => (
                <option key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </option>
              ))}
            </select>
          </label>
          <a class="who" href={hrefOf({ name: 'account' })} title={t('nav.account')}>
            {user?.user.name}
          </a>
          <button type="button" class="link" onClick={signOut}>
            {t('auth.logout')}
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
