import { useId, useState } from 'preact/hooks';
import { api } from '../api/client';
import { ErrorNote, useSubmit } from '../components/common';
import { t } from '../i18n';
import { loadMe, me } from '../state/session';

/** The avatar: shown when /me gives its URL, replaced by an upload (POST /me/avatar) or removed. */
export function AvatarPart() {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [status, setStatus] = useState('');
  const url = me.value?.user.avatarUrl ?? null;
  const upload = useSubmit(async () => {
    if (!file) return;
    setStatus('');
    const form = new FormData();
    form.append('file', file);
    await api('post', '/me/avatar', { form });
    await loadMe();
    setStatus(t('account.avatarSaved'));
  });
  const remove = useSubmit(async () => {
    setStatus('');
    await api('delete', '/me/avatar');
    await loadMe();
    setStatus(t('account.avatarRemoved'));
  });
  return (
    <form class="account-part" aria-labelledby="account-avatar-title" onSubmit={upload.submit}>
      <h2 id="account-avatar-title">{t('account.avatar')}</h2>
      <div class="account-avatar">
        {url ? (
          <img src={url} alt={t('account.avatarAlt')} width={96} height={96} />
        ) : (
          <p class="muted">{t('account.noAvatar')}</p>
        )}
      </div>
      <label class="field" for={inputId}>
        <span>{t('account.avatarFile')}</span>
        <input
          id={inputId}
          type="file"
          accept="image/png,image/jpeg,image/webp"
          aria-describedby={`${inputId}-hint`}
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <small id={`${inputId}-hint`} class="muted">
          {t('account.avatarRule')}
        </small>
      </label>
      <div class="actions">
        <button type="submit" disabled={!file || upload.busy}>
          {t('account.uploadAvatar')}
        </button>
        {url && (
          <button type="button" class="danger" disabled={remove.busy} onClick={(e) => void remove.submit(e)}>
            {t('account.removeAvatar')}
          </button>
        )}
      </div>
      <p role="status" class="muted">
        {status}
      </p>
      <ErrorNote error={upload.error ?? remove.error} />
    </form>
  );
}
