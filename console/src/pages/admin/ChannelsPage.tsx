import { t } from '../../i18n';

/** The channels administration page (to be built). */
export function ChannelsPage({ id }: { id?: string }) {
  return (
    <section aria-labelledby="channels-title">
      <h1 id="channels-title">{t('admin.section.channels')}</h1>
      {id && <p class="muted">{id}</p>}
    </section>
  );
}
