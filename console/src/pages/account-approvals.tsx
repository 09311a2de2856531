import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { ErrorNote, useSubmit } from '../components/common';
import { label, t } from '../i18n';
import { can, me } from '../state/session';

type ApprovalChannel = 'chanA' | 'chanB';
const CHANNELS: readonly ApprovalChannel[] = ['chanA', 'chanB'];

/**
 * Where approval requests reach an approver besides the console (PUT /me/approval-channels):
 * one box per channel, usable once an account on it is linked. Shown only with canApprove.
 */
export function ApprovalChannelsForm({ linked }: { linked: readonly string[] }) {
  const stored = me.value?.approvalChannels ?? [];
  const [chosen, setChosen] = useState<ApprovalChannel[]>(stored.filter((c) => linked.includes(c)));
  const [status, setStatus] = useState('');
  const form = useSubmit(async () => {
    setStatus('');
    const saved = await api('put', '/me/approval-channels', { body: { channels: chosen } });
    if (me.value) me.value = { ...me.value, approvalChannels: saved.approvalChannels };
    setStatus(t('account.approvalChannelsSaved'));
  });
  if (!can('canApprove')) return null;
  return (
    <form onSubmit={form.submit} aria-labelledby="account-approvals-title">
      <h3 id="account-approvals-title">{t('account.approvalChannels')}</h3>
      <p class="muted">{t('account.approvalChannelsHelp')}</p>
      <fieldset class="schema-choices">
        <legend>{t('account.approvalChannelsLegend')}</legend>
        {CHANNELS.map((channel) => (
          <label key={channel} class="field inline">
            <input
              type="checkbox"
              disabled={!linked.includes(channel)}
              checked={chosen.includes(channel)}
              onChange={(e) =>
                setChosen(
                  e.currentTarget.checked
                    ? CHANNELS.filter((c) => c === channel || chosen.includes(c))
                    : chosen.filter((c) => c !== channel),
                )
              }
            />
            <span>
              {linked.includes(channel)
                ? label('channel', channel)
                : t('account.approvalChannelUnlinked', { channel: label('channel', channel) })}
            </span>
          </label>
        ))}
      </fieldset>
      <div class="actions">
        <button type="submit" disabled={form.busy}>
          {t('account.approvalChannelsSave')}
        </button>
      </div>
      <p role="status" class="muted">
        {status}
      </p>
      <ErrorNote error={form.error} />
    </form>
  );
}
