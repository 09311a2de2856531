import { useState } from 'preact/hooks';
import { ErrorNote, useSubmit } from '../components/common';
import { InputField } from '../components/FormField';
import { t } from '../i18n';
import { changePassword } from '../state/session';

/** Password change (POST /me/change-password): the current password, then the new one with its rule. */
export function PasswordPart() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const form = useSubmit(async () => {
    setDone(false);
    await changePassword(current, next);
    setCurrent('');
    setNext('');
    setDone(true);
  });
  return (
    <form class="account-part" aria-labelledby="account-password-title" onSubmit={form.submit}>
      <h2 id="account-password-title">{t('account.password')}</h2>
      <InputField
        label={t('account.currentPassword')}
        type="password"
        name="current-password"
        autoComplete="current-password"
        required
        value={current}
        onValue={setCurrent}
      />
      <InputField
        label={t('account.newPassword')}
        type="password"
        name="new-password"
        autoComplete="new-password"
        required
        minLength={8}
        maxLength={128}
        hint={t('setup.passwordRule')}
        value={next}
        onValue={setNext}
      />
      <div class="actions">
        <button type="submit" disabled={form.busy}>
          {t('account.changePassword')}
        </button>
      </div>
      <p role="status" class="muted">
        {done ? t('account.passwordChanged') : ''}
      </p>
      <ErrorNote error={form.error} />
    </form>
  );
}
