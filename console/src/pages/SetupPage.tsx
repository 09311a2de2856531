import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { AuthCard } from '../components/AuthCard';
import { ErrorNote, useSubmit } from '../components/common';
import { EmailField, InputField, PasswordField } from '../components/FormField';
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
  const form = useSubmit(() =>
    completeSetup({ setupCode: setupCode.trim(), name: name.trim(), email: email.trim(), password }),
  );

  return (
    <AuthCard page="setup" form={form}>
      <InputField
        label={t('setup.code')}
        name="setupCode"
        autoComplete="off"
        spellcheck={false}
        required
        value={setupCode}
        onValue={setSetupCode}
      />
      <InputField
        label={t('setup.name')}
        name="name"
        autoComplete="name"
        required
        maxLength={200}
        value={name}
        onValue={setName}
      />
      <EmailField value={email} onValue={setEmail} />
      <PasswordField value={password} onValue={setPassword} fresh />
      <SetupError error={form.error} />
    </AuthCard>
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
