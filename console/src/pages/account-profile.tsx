import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { ErrorNote, useSubmit } from '../components/common';
import { InputField, SelectField } from '../components/FormField';
import { LANGUAGES, type Language, setLanguage, t } from '../i18n';
import { loadMe, me, signOut } from '../state/session';

const NAMES: Record<Language, string> = { en: 'English', uk: 'Українська', ru: 'Русский' };

/** Name and language (PATCH /me); the saved language becomes the console's language too. */
export function ProfilePart() {
  const user = me.value?.user;
  const [name, setName] = useState(user?.name ?? '');
  const [language, setChoice] = useState<Language>(user?.language ?? 'en');
  const [saved, setSaved] = useState(false);
  const form = useSubmit(async () => {
    setSaved(false);
    await api('patch', '/me', { body: { name: name.trim(), language } });
    // The service writes to the user in this language; the console follows it.
    setLanguage(language);
    await loadMe();
    setSaved(true);
  });
  return (
    <form class="account-part" aria-labelledby="account-profile-title" onSubmit={form.submit}>
      <h2 id="account-profile-title">{t('account.profile')}</h2>
      <p class="muted">{user ? t('account.signedInAs', { email: user.email }) : ''}</p>
      <InputField
        label={t('account.name')}
        name="name"
        autoComplete="name"
        required
        maxLength={200}
        value={name}
        onValue={(value) => {
          setName(value);
          setSaved(false);
        }}
      />
      <SelectField
        label={t('lang.label')}
        value={language}
        onChange={(value) => {
          setChoice(value);
          setSaved(false);
        }}
        choices={LANGUAGES.map((code) => ({ value: code, label: NAMES[code] }))}
      />
      <div class="actions">
        <button type="submit" disabled={form.busy || name.trim() === ''}>
          {t('common.save')}
        </button>
      </div>
      <p role="status" class="muted">
        {saved ? t('account.profileSaved') : ''}
      </p>
      <ErrorNote error={form.error} />
    </form>
  );
}

/**
 * Signs out on every device (POST /me/logout-all: every token issued so far
 * stops working), then this console signs out too.
 */
export function SignOutEverywherePart() {
  const action = useSubmit(async () => {
    if (!confirm(t('account.logoutAllConfirm'))) return;
    await api('post', '/me/logout-all');
    signOut();
  });
  return (
    <form class="account-part" aria-labelledby="account-logout-title" onSubmit={action.submit}>
      <h2 id="account-logout-title">{t('account.logoutAll')}</h2>
      <p class="muted">{t('account.logoutAllHelp')}</p>
      <div class="actions">
        <button type="submit" class="danger" disabled={action.busy}>
          {t('account.logoutAllButton')}
        </button>
      </div>
      <ErrorNote error={action.error} />
    </form>
  );
}
