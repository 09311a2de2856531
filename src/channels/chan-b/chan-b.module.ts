import type { Config } from '../../core/config/config.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import { defineModule } from '../../core/module.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import type { ApprovalChatInbound } from '../../modules/chat-approvals/chat-ports.js';
import type { ChannelInbox } from '../inbox/inbox.js';
import { createDirectReplies } from '../outbound/direct-reply.js';
import { createOutboundWorker, type OutboundDeps } from '../outbound/outbound-worker.js';
import { createTokenBucket } from '../outbound/token-bucket.js';
import { type PipelineForIntake, pipelineIntake } from '../pipeline-intake.js';
import { createChanBApprovalChat } from './approval-chat.js';
import { createBotApi } from './bot-api.js';
import { createChanBTransport } from './chan-b.transport.js';
import { startChanBInboundWorker } from './inbound.jobs.js';
import { type ChanBIntakeDeps, createChanBIntake } from './inbound.service.js';
import { createChanBPoller, type PollerLogger } from './poller.js';
import { chanBStatusRoutes } from './status.routes.js';
import { createChanBStatusService } from './status.service.js';

export interface ChanBDeps {
  db: Database;
  kv: KeyValue;
  queue: QueueDriver;
  logger: PollerLogger;
  config: Pick<Config, 'chanB' | 'channelUnknownSender'>;
  pipeline: PipelineForIntake;
  /** The outbound machinery shared with channel A (channels/outbound/channel-delivery.ts). */
  outbound: OutboundDeps;
  /** The durable inbox shared with channel A (channels/inbox/). */
  inbox: ChannelInbox;
  /** Sender → user and link codes (modules/channel-identities). */
  linking: ChanBIntakeDeps['linking'];
  /** Employees' ratings (modules/feedback): rating buttons and reactions on assistant replies. */
  feedback: ChanBIntakeDeps['feedback'];
  /** Approvals in chat (modules/chat-approvals): approvers' presses and the answers they were asked for. */
  approvalChat: ApprovalChatInbound;
}

/**
 * Channel B (the Telegram Bot API protocol): the elected long-poller and the
 * `chanB-inbound` consumer in, the transport on the shared `chanB-outbound`
 * worker out, and GET /chanB/status. Without CHANB_BOT_TOKEN nothing polls.
 */
export function createChanBModule(deps: ChanBDeps) {
  const { config, kv, queue } = deps;
  const chanB = config.chanB;
  const api = createBotApi(chanB);
  const transport = createChanBTransport({ api, ratePerMinute: chanB.rateLimitPerMin });
  const bucket = createTokenBucket({ kv, channel: 'chanB', perMinute: chanB.rateLimitPerMin });
  const worker = createOutboundWorker({ ...deps.outbound, transport, bucket });
  const intake = createChanBIntake({
    db: deps.db,
    ...pipelineIntake(deps.pipeline),
    linking: deps.linking,
    unknownSender: config.channelUnknownSender,
    replies: createDirectReplies({ kv, transport, bucket, logger: deps.logger }),
    feedback: deps.feedback,
    approvalChat: deps.approvalChat,
    logger: deps.logger,
    answerCallback: async (callbackQueryId, text) => {
      await api?.answerCallbackQuery(callbackQueryId, text ? { text } : {});
    },
  });
  const poller = api
    ? createChanBPoller({
        api,
        kv,
        inbox: deps.inbox,
        logger: deps.logger,
        pollTimeoutSec: chanB.pollTimeoutSec,
        lockTtlMs: chanB.lockTtlMs,
        retryMs: chanB.lockRetryMs,
      })
    : null;
  const status = createChanBStatusService({ api, kv, queue });

  return defineModule({
    transport,
    intake,
    poller,
    worker,
    status,
    /** Channel B's transport for chat approvals (chat-ports.ts), for the chat-approvals module. */
    approvalTransport: createChanBApprovalChat({ api }),
    routes: (app) => app.register(chanBStatusRoutes, { status }),
    jobs: {
      // The poller runs beside the inbound consumer: in worker processes only, one of them elected.
      'chanB-inbound': () => {
        startChanBInboundWorker({ queue, intake, inbox: deps.inbox, logger: deps.logger });
        poller?.start();
      },
      'chanB-outbound': () => worker.start(),
    },
    /** Stops polling and releases the poller lock (before the queue and the store close). */
    close: () => poller?.stop(),
  });
}

export type ChanBModule = ReturnType<typeof createChanBModule>;
