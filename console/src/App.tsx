import { useEffect } from 'preact/hooks';
import { Layout } from './components/Layout';
import { lang, t } from './i18n';
import { AccountPage } from './pages/AccountPage';
import { ApprovalPage } from './pages/ApprovalPage';
import { AdminSectionPage } from './pages/admin/AdminSectionPage';
import { ChatPage } from './pages/ChatPage';
import { InboxPage } from './pages/InboxPage';
import { IntentsPage } from './pages/IntentsPage';
import { KnowledgePage } from './pages/KnowledgePage';
import { LoginPage } from './pages/LoginPage';
import { SetupPage } from './pages/SetupPage';
import { TaskPage } from './pages/TaskPage';
import { TasksPage } from './pages/TasksPage';
import { clearDirectory } from './state/directory';
import { startLive, stopLive } from './state/live';
import { navigate, type Route, route } from './state/router';
import { checkSetup, loadMe, me, setupNeeded, token } from './state/session';

/** The first page for a user: the inbox for approvers, else the chat. */
function homeRoute(): Route {
  return me.value?.capabilities.approvals ? { name: 'inbox' } : { name: 'chat' };
}

export function App() {
  const current = route.value;
  const signedIn = token.value !== null && me.value !== null;

  // Signed out: ask once whether the service still waits for its first administrator.
  useEffect(() => {
    if (!token.value && setupNeeded.value === null) void checkSetup();
  }, [token.value]);

  // A token kept from earlier in this browser session: read /me once (a 401 sends the user to login).
  useEffect(() => {
    if (token.value && !me.value) void loadMe().catch(() => {});
  }, [token.value]);

  useEffect(() => {
    if (!signedIn) {
      clearDirectory();
      return;
    }
    startLive();
    return stopLive;
  }, [signedIn, token.value]);

  useEffect(() => {
    // Signed out, the setup page stands in for the sign-in page while the service needs it.
    if (!token.value && setupNeeded.value === true && current?.name !== 'setup') navigate({ name: 'setup' });
    else if (!token.value && setupNeeded.value === false && current?.name !== 'login')
      navigate({ name: 'login' });
    else if (signedIn && (current === null || current.name === 'login' || current.name === 'setup'))
      navigate(homeRoute());
  }, [current, signedIn, setupNeeded.value]);

  useEffect(() => {
    document.documentElement.lang = lang.value;
    document.title = t('app.title');
  }, [lang.value]);

  if (!token.value && setupNeeded.value === null) return <p class="loading">{t('common.loading')}</p>;
  if (!token.value && setupNeeded.value) return <SetupPage />;
  if (!token.value || current?.name === 'login' || current?.name === 'setup') return <LoginPage />;
  if (!signedIn || !current) return <p class="loading">{t('common.loading')}</p>;
  return <Layout>{page(current)}</Layout>;
}

function page(current: Route) {
  switch (current.name) {
    case 'inbox':
      return <InboxPage />;
    case 'approval':
      return <ApprovalPage id={current.id} />;
    case 'tasks':
      return <TasksPage />;
    case 'task':
      return <TaskPage id={current.id} />;
    case 'knowledge':
      return <KnowledgePage />;
    case 'chat':
      return <ChatPage />;
    case 'intents':
      return <IntentsPage />;
    case 'admin':
      return <AdminSectionPage route={current} />;
    case 'account':
      return <AccountPage />;
    default:
      return null;
  }
}
