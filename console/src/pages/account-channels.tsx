import { useState } from 'preact/hooks';
import { api, type Success } from '../api/client';
import { ErrorNote, useLoad, useSubmit } from '../components/common';
import { DataTable } from '../components/DataTable';
import { SelectField } from '../components/FormField';
import { LoadedList } from '../components/LoadedList';
import { formatDate, label, t } from '../i18n';
import { ApprovalChannelsForm } from './account-approvals';

type LinkCode = Success<'/me/channel-link-codes', 'post'>;
type LinkChannel = 'chanA' | 'chanB';
const CHANNELS: readonly LinkChannel[] = ['chanA', 'chanB'];

/**
 * The messaging accounts linked to the user (GET /me/channel-identities),
 * each removable, and a one-time link code to link another one.
 */
export function ChannelsPart() {
  const identities = useLoad(() => api('get', '/me/channel-identities'), []);
  const items = identities.data?.items ?? [];
  const [status, setStatus] = useState('');
  const [removing, setRemoving] = useState<LinkChannel | null>(null);
  const remove = useSubmit(async () => {
    if (!removing) return;
    await api('delete', '/me/channel-identities/{channel}', { params: { channel: removing } });
    setStatus(t('account.unlinked', { channel: label('channel', removing) }));
    setRemoving(null);
    await identities.reload();
  });

  return (
    <section class="account-part" aria-labelledby="account-channels-title">
      <h2 id="account-channels-title">{t('account.channels')}</h2>
      <p class="muted">{t('account.channelsHelp')}</p>
      <LoadedList loaded={identities} count={items.length} empty={t('account.noChannels')}>
        <DataTable
          columns={[
            t('common.channel'),
            t('account.channelUserId'),
            t('account.linkedAt'),
            t('common.actions'),
          ]}
        >
          {items.map((item) => (
            <tr key={item.channel}>
              <td>{label('channel', item.channel)}</td>
              <td>{item.channelUserId}</td>
              <td>{formatDate(item.createdAt)}</td>
              <td>
                <button
                  type="button"
                  class="link"
                  disabled={remove.busy}
                  onClick={(e) => {
                    if (!confirm(t('account.unlinkConfirm', { channel: label('channel', item.channel) })))
                      return;
                    setRemoving(item.channel);
                    void remove.submit(e);
                  }}
                >
                  {t('account.unlink', { channel: label('channel', item.channel) })}
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      </LoadedList>
      <p role="status" class="muted">
        {status}
      </p>
      <ErrorNote error={remove.error} />
      {identities.data && (
        <ApprovalChannelsForm
          key={items.map((item) => item.channel).join()}
          linked={items.map((item) => item.channel)}
        />
      )}
      <LinkCodeForm onLinked={() => void identities.reload()} />
    </section>
  );
}

/** Makes a one-time link code for a channel and says how to use it and until when it works. */
function LinkCodeForm({ onLinked }: { onLinked(): void }) {
  const [channel, setChannel] = useState<LinkChannel>('chanB');
  const [code, setCode] = useState<(LinkCode & { channel: LinkChannel }) | null>(null);
  const form = useSubmit(async () => {
    setCode(null);
    const made = await api('post', '/me/channel-link-codes', { body: { channel } });
    setCode({ ...made, channel });
    onLinked();
  });
  return (
    <form onSubmit={form.submit} aria-labelledby="account-link-title">
      <h3 id="account-link-title">{t('account.linkTitle')}</h3>
      <SelectField
        label={t('common.channel')}
        value={channel}
        onChange={setChannel}
        choices={CHANNELS.map((value) => ({ value, label: label('channel', value) }))}
      />
      <div class="actions">
        <button type="submit" disabled={form.busy}>
          {t('account.makeCode')}
        </button>
      </div>
      <div role="status">
        {code && (
          <div class="account-code">
            <p>
              {t('account.codeFor', { channel: label('channel', code.channel) })}{' '}
              <code class="account-code-value">{code.code}</code>
            </p>
            <p>
              {code.channel === 'chanB'
                ? t('account.howChanB', { code: code.code })
                : t('account.howChanA', { code: code.code })}
            </p>
            {code.deepLink && (
              <p>
                <a href={code.deepLink} target="_blank" rel="noreferrer">
                  {t('account.openBot')}
                </a>
              </p>
            )}
            <p class="muted">{t('account.expires', { time: formatDate(code.expiresAt) })}</p>
          </div>
        )}
      </div>
      <ErrorNote error={form.error} />
    </form>
  );
}
