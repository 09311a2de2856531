import type { Config } from '../../core/config/config.js';
import { createOutboundWorker, type OutboundDeps } from '../outbound/outbound-worker.js';
import { createTokenBucket } from '../outbound/token-bucket.js';
import { createChanATransport } from './chan-a.transport.js';
import { createGraphClient } from './graph-client.js';
import { createReengagement } from './reengagement.js';
import { createChanAStatusService } from './status.service.js';
import { createTokenLifecycle, TOKEN_CHECK_EVERY_MS } from './token-lifecycle.js';

/**
 * Channel A's sending side, built from the shared outbound machinery: the
 * Graph client, the token kept in the key-value store, the transport, the
 * `chanA-outbound` worker, the re-engagement path (131047) and the status
 * service. chan-a.module.ts wires it beside the inbound side.
 */
export function createChanAOutbound(deps: { config: Config['chanA']; outbound: OutboundDeps }) {
  const { config, outbound } = deps;
  const graph = createGraphClient({ baseUrl: config.apiBaseUrl });
  const tokens = createTokenLifecycle({ kv: outbound.kv, graph, config, logger: outbound.logger });
  const reengagement = createReengagement({
    config,
    kv: outbound.kv,
    graph,
    tokens,
    repository: outbound.repository,
    failures: outbound.failures,
  });
  const transport = createChanATransport({ config, graph, tokens, reengagement });
  const bucket = createTokenBucket({ kv: outbound.kv, channel: 'chanA', perMinute: transport.ratePerMinute });
  const worker = createOutboundWorker({ ...outbound, transport, bucket });
  const status = createChanAStatusService({
    config,
    kv: outbound.kv,
    queue: outbound.queue,
    tokens,
    transport,
  });
  return {
    graph,
    tokens,
    transport,
    worker,
    reengagement,
    status,
    /** The recurring token check (workers/schedules.ts): at start and every 6 hours, once across replicas. */
    tokenCheck: { name: 'chanA-token-check', everyMs: TOKEN_CHECK_EVERY_MS, run: () => tokens.check() },
  };
}

export type ChanAOutbound = ReturnType<typeof createChanAOutbound>;
