import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { AuthCard } from '../components/AuthCard';
import { ErrorNote, useSubmit } from '../components/common';
import { EmailField, PasswordField } from '../components/FormField';
import { t } from '../i18n';
import { hashParam } from '../state/router';
import { isQueueBoardPath, openQueueBoard, signIn } from '../state/session';

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useSubmit(async () => {
    await signIn(email.trim(), password);
    // Sent here by the queue dashboard (no session yet): back to the page that was asked for.
    const next = hashParam('next');
    if (isQueueBoardPath(next)) await openQueueBoard(next);
  });

  return (
    <AuthCard page="login" form={form}>
      <EmailField value={email} onValue={setEmail} />
      <PasswordField value={password} onValue={setPassword} />
      {form.error instanceof ApiError && form.error.status === 401 ? (
        <p class="error" role="alert">
          {t('auth.wrong')}
        </p>
      ) : (
        <ErrorNote error={form.error} />
      )}
    </AuthCard>
  );
}
