import { t } from '../i18n';
import './account.css';
import { AvatarPart } from './account-avatar';
import { ChannelsPart } from './account-channels';
import { PasswordPart } from './account-password';
import { ProfilePart, SignOutEverywherePart } from './account-profile';

/**
 * My account: every signed-in user's own settings (name and language,
 * password, avatar, linked messaging accounts, signing out everywhere).
 */
export function AccountPage() {
  return (
    <section aria-labelledby="account-title" class="account">
      <h1 id="account-title">{t('nav.account')}</h1>
      <ProfilePart />
      <AvatarPart />
      <PasswordPart />
      <ChannelsPart />
      <SignOutEverywherePart />
    </section>
  );
}
