import { t } from '../i18n';

/** My account (to be built). */
export function AccountPage() {
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">{t('nav.account')}</h1>
    </section>
  );
}
