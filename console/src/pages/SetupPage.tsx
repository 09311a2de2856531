import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { ErrorNote } from '../components/common';
import { LanguagePicker } from '../components/LanguagePicker';
import { t } from '../i18n';
import { hashParam } from '../state/router';
import { completeSetup } from '../state/session';

/**
 * The one-time setup of a new service: the first administrator, with the
 * setup code the service printed in its start-up log (the log's link fills it
 * in). Shown instead of the sign-in page while GET /setup says it is needed.
 */
export function SetupPage() {
  const [setupCode, setSetupCode] = useState(hashParam('code') ?? '');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await completeSetup({ setupCode: setupCode.trim(), name: name.trim(), email: email.trim(), password });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="login">
      <form onSubmit={submit} class="card" aria-labelledby="setup-title">
        <h1 id="setup-title">{t('setup.title')}</h1>
        <p class="muted">{t('setup.intro')}</p>
        <label class="field">
          <span>{t('setup.code')}</span>
          <input
            name="setupCode"
            autoComplete="off"
            spellcheck={false}
            required
            value={setupCode}
            onInput={(e) => setSetupCode(e.currentTarget.value)}
          />
        </label>
        <label class="field">
          <span>{t('setup.name')}</span>
          <input
            name="name"
            autoComplete="name"
            required
            maxLength={200}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
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
            autoComplete="new-password"
            required
            minLength={8}
            maxLength={128}
            aria-describedby="setup-password-rule"
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          <small id="setup-password-rule" class="muted">
            {t('setup.passwordRule')}
          </small>
        </label>
        <SetupError error={error} />
        <button type="submit" class="primary" disabled={busy}>
          {t('setup.submit')}
        </button>
        <LanguagePicker />
      </form>
    </main>
  );
}

/** The answers a person can act on, in their words; the rest as the service says them. */
function SetupError({ error }: { error: unknown }) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 409)) {
    return (
      <p class="error" role="alert">
        {t(error.status === 401 ? 'setup.wrongCode' : 'setup.done')}
      </p>
    );
  }
  if (
    error instanceof ApiError &&
    error.status === 422 &&
    error.details.some((d) => d.field.includes('password'))
  ) {
    return (
      <p class="error" role="alert">
        {t('setup.passwordRule')}
      </p>
    );
  }
  return <ErrorNote error={error} />;
}
