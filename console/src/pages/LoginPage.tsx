import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { ErrorNote } from '../components/common';
import { LanguagePicker } from '../components/LanguagePicker';
import { t } from '../i18n';
import { hashParam } from '../state/router';
import { isQueueBoardPath, openQueueBoard, signIn } from '../state/session';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email.trim(), password);
      // Sent here by the queue dashboard (no session yet): back to the page that was asked for.
      const next = hashParam('next');
      if (isQueueBoardPath(next)) await openQueueBoard(next);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="login">
      <form onSubmit={submit} class="card" aria-labelledby="login-title">
        <h1 id="login-title">{t('app.title')}</h1>
        <p class="muted">{t('auth.intro')}</p>
        <label class="field">
          <span>{t('auth.email')}</span>
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label class="field">
          <span>{t('auth.password')}</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {error instanceof ApiError && error.status === 401 ? (
          <p class="error" role="alert">
            {t('auth.wrong')}
          </p>
        ) : (
          <ErrorNote error={error} />
        )}
        <button type="submit" class="primary" disabled={busy}>
          {t('auth.login')}
        </button>
        <LanguagePicker />
      </form>
    </main>
  );
}
