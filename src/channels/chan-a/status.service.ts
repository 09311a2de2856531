import type { Config } from '../../core/config/config.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type { JobCounts, QueueDriver } from '../../core/queue/queue.js';
import type { ChannelTransport } from '../outbound/transport.js';
import { LAST_INBOUND_KEY } from './inbound.service.js';
import type { TokenLifecycle } from './token-lifecycle.js';

/** Where the sending side records its last accepted message (outbound-worker.ts). */
export const LAST_OUTBOUND_KEY = 'chanA:last-outbound-at';

export interface ChanAStatus {
  configured: boolean;
  phoneNumberId: string | null;
  tokenExpiresAt: string | null;
  tokenSource: 'configured' | 'exchanged' | 'none';
  lastInboundAt: string | null;
  lastOutboundAt: string | null;
  queues: { 'chanA-inbound': JobCounts; 'chanA-outbound': JobCounts };
}

/** Channel A's connection status for operators; never the token itself. */
export function createChanAStatusService(deps: {
  config: Config['chanA'];
  kv: KeyValue;
  queue: QueueDriver;
  tokens: Pick<TokenLifecycle, 'describe'>;
  transport: Pick<ChannelTransport, 'configured'>;
}) {
  const { config, kv, queue, tokens, transport } = deps;
  const isoOrNull = (value: string | null) => {
    const at = value ? Date.parse(value) : Number.NaN;
    return Number.isNaN(at) ? null : new Date(at).toISOString();
  };

  return {
    /**
     * Whether channel A can send (CHANA_PHONE_NUMBER_ID and a token
     * configured), the phone-number id, the stored token's expiry and where
     * it came from, the last inbound and outbound times, and the job counts
     * of both channel A queues. Permission is checked by the route.
     */
    async get(): Promise<ChanAStatus> {
      const [token, lastInbound, lastOutbound, inbound, outbound] = await Promise.all([
        tokens.describe(),
        kv.get(LAST_INBOUND_KEY),
        kv.get(LAST_OUTBOUND_KEY),
        queue.counts('chanA-inbound'),
        queue.counts('chanA-outbound'),
      ]);
      return {
        configured: transport.configured(),
        phoneNumberId: config.phoneNumberId,
        tokenExpiresAt: token.expiresAt === null ? null : new Date(token.expiresAt).toISOString(),
        tokenSource: token.source,
        lastInboundAt: isoOrNull(lastInbound),
        lastOutboundAt: isoOrNull(lastOutbound),
        queues: { 'chanA-inbound': inbound, 'chanA-outbound': outbound },
      };
    },
  };
}

export type ChanAStatusService = ReturnType<typeof createChanAStatusService>;
