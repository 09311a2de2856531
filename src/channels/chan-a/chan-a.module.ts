import type { Config } from '../../core/config/config.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import { defineModule } from '../../core/module.js';
import type { QueueDriver } from '../../core/queue/queue.js';
import type { ApprovalChatInbound } from '../../modules/chat-approvals/chat-ports.js';
import type { FileDocumentType } from '../../modules/knowledge/document-files.js';
import type { ChannelInbox } from '../inbox/inbox.js';
import { createInboxRepository } from '../inbox/inbox.repository.js';
import { createDirectReplies } from '../outbound/direct-reply.js';
import type { OutboundDeps } from '../outbound/outbound-worker.js';
import { createTokenBucket } from '../outbound/token-bucket.js';
import { type PipelineForIntake, pipelineIntake } from '../pipeline-intake.js';
import { createChanAApprovalChat } from './approval-chat.js';
import { createChanAOutbound } from './chan-a.outbound.js';
import { createDeliveryStatuses } from './delivery-status.js';
import { createDeliveryStatusRepository } from './delivery-status.repository.js';
import { startChanAInboundWorker } from './inbound.jobs.js';
import { type ChanAIntakeDeps, createChanAIntake, type IntakeLogger } from './inbound.service.js';
import { createMediaReader } from './media.js';
import { chanAStatusRoutes } from './status.routes.js';
import { webhookRoutes } from './webhook.routes.js';
import { createWebhookService } from './webhook.service.js';

export interface ChanADeps {
  db: Database;
  kv: KeyValue;
  queue: QueueDriver;
  logger: IntakeLogger;
  config: Pick<Config, 'chanA' | 'uploadMaxBytes' | 'channelUnknownSender'>;
  pipeline: PipelineForIntake;
  /** The text of a file as knowledge ingestion reads it (OCR, PDF, DOCX, text). */
  readText(type: FileDocumentType, bytes: Buffer): Promise<string>;
  /** The employee profile's preferences, for the language of fixed replies. */
  preferencesOf(userId: string): Promise<Record<string, unknown> | null>;
  /** The outbound machinery shared with channel B (channels/outbound/channel-delivery.ts). */
  outbound: OutboundDeps;
  /** The durable inbox shared with channel B (channels/inbox/). */
  inbox: ChannelInbox;
  /** Sender → user and link codes (modules/channel-identities). */
  linking: ChanAIntakeDeps['linking'];
  /** Employees' ratings (modules/feedback): reactions on assistant replies are recorded there. */
  feedback: ChanAIntakeDeps['feedback'];
  /** Told of each webhook POST refused for its signature (the metrics); none when absent. */
  onSignatureRefused?: () => void;
  /** Approvals in chat (modules/chat-approvals): approvers' presses and the answers they were asked for. */
  approvalChat: ApprovalChatInbound;
}

/** Largest media file downloaded from the platform (its own limit for documents is 100 MB). */
const MEDIA_MAX_BYTES = 25 * 1024 * 1024;

/** Channel A (the WhatsApp Cloud API protocol): webhook in, receipts, and the `chanA-inbound` consumer. */
export function createChanAModule(deps: ChanADeps) {
  const { config, kv } = deps;
  const chanA = config.chanA;

  // ── Outbound: token, transport, the chanA-outbound worker, re-engagement, status ──
  const sending = createChanAOutbound({ config: chanA, outbound: deps.outbound });

  // ── Inbound: webhook, intake of messages, receipts ──
  logWebhookSigning(chanA, deps.logger);
  const webhook = createWebhookService({
    inbox: deps.inbox,
    appSecret: chanA.appSecret,
    allowUnsigned: chanA.allowUnsigned,
    verifyToken: chanA.webhookVerifyToken,
    phoneNumberId: chanA.phoneNumberId,
    onSignatureRefused: deps.onSignatureRefused,
  });
  const media = createMediaReader({
    apiBaseUrl: chanA.apiBaseUrl,
    // The token the sending side keeps fresh (media downloads need the same bearer token).
    accessToken: () => sending.tokens.current(),
    readText: deps.readText,
    maxBytes: Math.min(MEDIA_MAX_BYTES, config.uploadMaxBytes),
  });
  const intake = createChanAIntake({
    db: deps.db,
    kv,
    logger: deps.logger,
    ...pipelineIntake(deps.pipeline),
    media,
    preferencesOf: deps.preferencesOf,
    linking: deps.linking,
    feedback: deps.feedback,
    approvalChat: deps.approvalChat,
    unknownSender: config.channelUnknownSender,
    // The same bucket keys as the chanA-outbound worker's, so these replies count toward its limit.
    replies: createDirectReplies({
      kv,
      transport: sending.transport,
      bucket: createTokenBucket({ kv, channel: 'chanA', perMinute: sending.transport.ratePerMinute }),
      logger: deps.logger,
    }),
  });
  // A 131047 failure (outside the 24-hour window) goes to `onOutsideWindow`: the sending side's re-engagement path.
  const statuses = createDeliveryStatuses({
    repository: createDeliveryStatusRepository(deps.db),
    logger: deps.logger,
    onOutsideWindow: (messageId, platformReason) =>
      sending.reengagement.handleReengagementFailure(messageId, platformReason),
  });

  // Approval requests to approvers (modules/chat-approvals): the 24-hour window is read from the
  // channel inbox, which keeps every message the webhook took for at least that long.
  const inboxRepository = createInboxRepository(deps.db);
  const approvalTransport = createChanAApprovalChat({
    config: chanA,
    graph: sending.graph,
    tokens: sending.tokens,
    kv,
    lastInboundAt: (phone) => inboxRepository.lastMessageAt('chanA-inbound', phone),
  });

  return defineModule({
    webhook,
    intake,
    statuses,
    sending,
    /** Channel A's transport for chat approvals (chat-ports.ts), for the chat-approvals module. */
    approvalTransport,
    // Stores CHANA_ACCESS_TOKEN when no token is stored; exchanges one within 7 days of expiry.
    recurring: [sending.tokenCheck],
    routes: async (api) => {
      await api.register(webhookRoutes, { webhook });
      await api.register(chanAStatusRoutes, { status: sending.status });
    },
    jobs: {
      'chanA-inbound': () =>
        startChanAInboundWorker({
          queue: deps.queue,
          intake,
          statuses,
          inbox: deps.inbox,
          logger: deps.logger,
        }),
      'chanA-outbound': () => sending.worker.start(),
    },
  });
}

export type ChanAModule = ReturnType<typeof createChanAModule>;

/**
 * Says at start how the webhook treats signatures: unsigned POSTs are taken
 * only with CHANA_ALLOW_UNSIGNED (a warning, since anyone could then post as
 * any sender); without a secret every POST answers 503, which is worth a
 * warning once channel A is otherwise configured.
 */
function logWebhookSigning(chanA: Config['chanA'], logger: IntakeLogger): void {
  if (chanA.appSecret !== null) return;
  if (chanA.allowUnsigned) {
    logger.warn(
      { setting: 'CHANA_ALLOW_UNSIGNED' },
      'chanA webhook: CHANA_APP_SECRET is not set and unsigned POSTs are accepted; for local testing only',
    );
    return;
  }
  const configured = chanA.phoneNumberId ?? chanA.accessToken ?? chanA.webhookVerifyToken;
  const message = 'chanA webhook: CHANA_APP_SECRET is not set, so every webhook POST answers 503 until it is';
  if (configured !== null) logger.warn({ setting: 'CHANA_APP_SECRET' }, message);
  else logger.info({ setting: 'CHANA_APP_SECRET' }, message);
}
