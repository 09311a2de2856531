import { api, type Success } from '../../api/client';
import { ErrorNote, useLoad } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { formatDate, label, t } from '../../i18n';
import { openQueueBoard, QUEUE_BOARD_PATH } from '../../state/session';
import './insight.css';

type ChanA = Success<'/chanA/status', 'get'>;
type ChanB = Success<'/chanB/status', 'get'>;
type QueueCounts = ChanA['queues']['chanA-inbound'];

/**
 * The two chat channels as plain statements: whether each is configured and
 * working, what it last did, the job counts of its queues, and the way to
 * the queue dashboard for the jobs themselves.
 */
export function ChannelsPage(_props: { id?: string }) {
  const chanA = useLoad(() => api('get', '/chanA/status'), []);
  const chanB = useLoad(() => api('get', '/chanB/status'), []);
  return (
    <section aria-labelledby="channels-title">
      <h1 id="channels-title">{t('admin.section.channels')}</h1>
      <p>
        <a
          href={QUEUE_BOARD_PATH}
          onClick={(e) => {
            // The dashboard takes a session cookie, not the console's token: get one, then go.
            e.preventDefault();
            void openQueueBoard().catch(() => {});
          }}
        >
          {t('channels.queueBoard')}
        </a>
      </p>
      <section aria-labelledby="channel-a" class="insight-channel">
        <h2 id="channel-a">{t('channels.a')}</h2>
        <p class="muted">{t('channels.a.protocol')}</p>
        <ErrorNote error={chanA.error} />
        {chanA.data && <ChanAStatus status={chanA.data} />}
      </section>
      <section aria-labelledby="channel-b" class="insight-channel">
        <h2 id="channel-b">{t('channels.b')}</h2>
        <p class="muted">{t('channels.b.protocol')}</p>
        <ErrorNote error={chanB.error} />
        {chanB.data && <ChanBStatus status={chanB.data} />}
      </section>
    </section>
  );
}

const when = (iso: string | null) => (iso ? formatDate(iso) : null);

function ChanAStatus({ status }: { status: ChanA }) {
  const inbound = when(status.lastInboundAt);
  const outbound = when(status.lastOutboundAt);
  const expires = when(status.tokenExpiresAt);
  return (
    <>
      <ul class="insight-statements">
        <li>
          {status.configured
            ? t('channels.a.configured', { id: status.phoneNumberId ?? '' })
            : t('channels.a.notConfigured')}
        </li>
        <li>{label('channels.a.token', status.tokenSource)}</li>
        {expires && <li>{t('channels.a.expires', { when: expires })}</li>}
        <li>{inbound ? t('channels.lastInbound', { when: inbound }) : t('channels.noInbound')}</li>
        <li>{outbound ? t('channels.lastOutbound', { when: outbound }) : t('channels.noOutbound')}</li>
      </ul>
      <Queues caption={t('channels.a.queues')} queues={status.queues} />
    </>
  );
}

function ChanBStatus({ status }: { status: ChanB }) {
  return (
    <>
      <ul class="insight-statements">
        <li>
          {status.configured
            ? status.botUsername
              ? t('channels.b.configuredAs', { name: status.botUsername })
              : t('channels.b.configured')
            : t('channels.b.notConfigured')}
        </li>
        <li>{label('channels.b.polling', status.polling)}</li>
        {status.lockHolder && <li>{t('channels.b.lock', { worker: status.lockHolder })}</li>}
        <li>
          {status.lastUpdateId === null
            ? t('channels.b.noUpdate')
            : t('channels.b.lastUpdate', { id: status.lastUpdateId })}
        </li>
        <li class={status.lastError ? 'error' : undefined}>
          {status.lastError
            ? t('channels.b.lastError', {
                when: formatDate(status.lastError.at),
                message: status.lastError.message,
              })
            : t('channels.b.noError')}
        </li>
      </ul>
      <Queues caption={t('channels.b.queues')} queues={status.queues} />
    </>
  );
}

/** Job counts of a channel's queues by state, one row per queue. */
function Queues({ caption, queues }: { caption: string; queues: Record<string, QueueCounts> }) {
  const states = ['waiting', 'delayed', 'active', 'completed', 'failed'] as const;
  return (
    <DataTable
      caption={caption}
      columns={[t('channels.queue'), ...states.map((s) => t(`channels.job.${s}`))]}
    >
      {Object.entries(queues).map(([name, counts]) => (
        <tr key={name}>
          <th scope="row">{name}</th>
          {states.map((state) => (
            <td key={state}>{counts[state]}</td>
          ))}
        </tr>
      ))}
    </DataTable>
  );
}
