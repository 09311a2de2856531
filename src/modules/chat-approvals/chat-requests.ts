import { chatLanguage, chatTexts, outcomeText, requestText } from './chat-approval-texts.js';
import type { ChatApprovalsRepository, ChatRequestRow } from './chat-approvals.repository.js';
import type { ApprovalChannel, ApprovalChatTransport, ChatAddress, ChatRequestView } from './chat-ports.js';
import type { ChatDecision, DecisionTokens } from './decision-token.js';

/** Requests a recipient receives per channel within {@link RATE_WINDOW_MS} at most; the rest wait for one digest. */
export const MAX_REQUESTS_PER_WINDOW = 5;
export const RATE_WINDOW_MS = 10 * 60_000;
/** A request that fails to send is tried again after this long, for as long as {@link RETRY_FOR_MS}. */
const RETRY_AFTER_MS = 30_000;
const RETRY_FOR_MS = 10 * 60_000;

const WAITING = new Set(['pending', 'escalated']);

/** The buttons of a request on each channel (channel A allows three reply buttons: edit and escalate sit under More…). */
const BUTTONS: Record<ApprovalChannel, ChatDecision[]> = {
  chanB: ['approve', 'edit', 'reject', 'escalate'],
  chanA: ['approve', 'reject', 'more'],
};

export interface ChatRequestsDeps {
  repository: ChatApprovalsRepository;
  tokens: DecisionTokens;
  transports: Partial<Record<ApprovalChannel, ApprovalChatTransport>>;
  /** The users who may approve in a department now (their permissions and departments as they stand). */
  approversOf(departmentId: string): Promise<string[]>;
  /** The console's inbox address for the digest; null when the service's public address is not configured. */
  inboxLink: string | null;
  logger: { warn(object: object, message?: string): void };
}

/** The address a request row goes to. */
export function addressOf(row: Pick<ChatRequestRow, 'channel' | 'address'>): ChatAddress {
  return { channel: row.channel as ApprovalChannel, address: row.address };
}

/**
 * Sends the approval requests of chat approvals and keeps their copies current. One pass
 * ({@link ChatRequests.run}, a recurring task every 2 s, and right after a decision):
 * 1. every new `approval_pending` notification of a recipient with chat approvals on becomes a
 *    queued request per channel (one per notification and channel, however often the pass runs);
 * 2. held requests become one digest per recipient and channel once their rate window has room;
 * 3. queued requests are taken (a one-minute lease, so two passes never send one twice) and sent,
 *    unless the approval is decided, the recipient may no longer approve in its department, or the
 *    recipient had {@link MAX_REQUESTS_PER_WINDOW} messages in the last 10 minutes (then held);
 * 4. copies of decided (or person-escalated) approvals are edited or answered with the outcome.
 */
export function createChatRequests(deps: ChatRequestsDeps) {
  const { repository, tokens, transports, logger } = deps;

  function viewOf(
    row: ChatRequestRow,
    language: ReturnType<typeof chatLanguage>,
    text: string,
  ): ChatRequestView {
    const t = chatTexts(language);
    const channel = row.channel as ApprovalChannel;
    return {
      text,
      language,
      buttons: BUTTONS[channel].map((decision) => ({
        decision,
        label: t[decision],
        token: tokens.sign({ requestId: row.id, decision }),
      })),
    };
  }

  async function send(row: ChatRequestRow, now: Date): Promise<void> {
    const transport = transports[row.channel as ApprovalChannel];
    const detail = await repository.detail(row.id);
    if (!detail || !WAITING.has(detail.approval.status)) {
      await repository.update(row.id, { status: 'skipped', leaseUntil: null });
      return;
    }
    if (!transport?.configured()) {
      await repository.update(row.id, { status: 'failed', error: `${row.channel} is not configured` });
      return;
    }
    if (!(await deps.approversOf(detail.approval.departmentId)).includes(row.userId)) {
      await repository.update(row.id, { status: 'skipped', leaseUntil: null });
      return;
    }
    const since = new Date(now.getTime() - RATE_WINDOW_MS);
    const channel = row.channel as ApprovalChannel;
    if (
      (await repository.hasHeld(row.userId, channel)) ||
      (await repository.sentSince(row.userId, channel, since)) >= MAX_REQUESTS_PER_WINDOW
    ) {
      await repository.update(row.id, { status: 'held', leaseUntil: null });
      return;
    }
    const language = chatLanguage(detail.recipientLanguage);
    const text = requestText(language, {
      employeeName: detail.employeeName,
      question: detail.question,
      draft: detail.approval.originalContent,
      triggers: detail.approval.triggers,
      confidence: detail.approval.confidence,
    });
    try {
      const result = await transport.sendRequest(addressOf(row), viewOf(row, language, text));
      await repository.update(row.id, {
        status: result.kind,
        platformMessageId: result.kind === 'sent' ? result.platformMessageId : null,
        sentAt: now,
        leaseUntil: null,
        error: null,
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const retry = now.getTime() - row.createdAt.getTime() < RETRY_FOR_MS;
      logger.warn(
        { requestId: row.id, channel, err: message, retry },
        'chat approvals: sending a request failed',
      );
      await repository.update(row.id, {
        status: retry ? 'queued' : 'failed',
        leaseUntil: retry ? new Date(now.getTime() + RETRY_AFTER_MS) : null,
        error: message.slice(0, 500),
      });
    }
  }

  async function sendDigests(now: Date): Promise<void> {
    const since = new Date(now.getTime() - RATE_WINDOW_MS);
    for (const held of await repository.heldRecipients()) {
      const transport = transports[held.channel];
      if (!transport?.configured()) continue;
      if ((await repository.sentSince(held.userId, held.channel, since)) >= MAX_REQUESTS_PER_WINDOW) continue;
      const count = await repository.digest(held.userId, held.channel, now);
      if (count === 0) continue;
      const language = chatLanguage((await repository.languageOf(held.userId)) ?? null);
      try {
        await transport.sendText(held, chatTexts(language).digest(count, deps.inboxLink));
      } catch (error) {
        logger.warn(
          { userId: held.userId, channel: held.channel, err: String(error) },
          'chat approvals: a digest failed',
        );
      }
    }
  }

  /** Shows the outcome on every copy whose approval was decided; answers how many it updated. */
  async function showOutcomes(): Promise<number> {
    let shown = 0;
    for (const row of await repository.outcomesDue()) {
      const detail = await repository.detail(row.id);
      if (!detail || !row.platformMessageId) continue;
      const text = outcomeText(chatLanguage(detail.recipientLanguage), detail.approval, {
        decidedBy: detail.decidedByName,
        escalatedTo: detail.escalatedToName,
      });
      // Claimed first: of two passes (two processes) only one shows it.
      if (!text || !(await repository.claimOutcome(row.id, text))) continue;
      const transport = transports[row.channel as ApprovalChannel];
      try {
        await transport?.showOutcome(addressOf(row), row.platformMessageId, text);
      } catch (error) {
        // Shown once at most: a copy the platform refuses to update (deleted, bot blocked) stays as it is.
        logger.warn({ requestId: row.id, err: String(error) }, 'chat approvals: updating a copy failed');
      }
      shown += 1;
    }
    return shown;
  }

  /** Passes of this process run one after another (a kick while one waits adds nothing). */
  let chain: Promise<void> = Promise.resolve();
  let kickWaiting = false;

  async function pass(now: Date): Promise<void> {
    await repository.materialize(now);
    await sendDigests(now);
    for (;;) {
      const rows = await repository.claimQueued(now);
      if (rows.length === 0) break;
      for (const row of rows) await send(row, now);
    }
    await showOutcomes();
  }

  function queue(run: () => Promise<void>): Promise<void> {
    const next = chain.then(run);
    chain = next.catch(() => undefined);
    return next;
  }

  return {
    name: 'chat-approval-requests',
    everyMs: 2000,

    /** One pass at `now` (see above), after the passes of this process already under way. */
    run: (now?: Date) => queue(() => pass(now ?? new Date())),

    /**
     * A pass as soon as possible, after a decision or an approver's first message, in this
     * process; failures are logged.
     */
    kick(): void {
      if (kickWaiting) return;
      kickWaiting = true;
      void queue(async () => {
        kickWaiting = false;
        await pass(new Date()).catch((error: unknown) =>
          logger.warn({ err: error }, 'chat approvals: a pass failed'),
        );
      });
    },

    /** Resolves once the passes under way end: for close. */
    async settled(): Promise<void> {
      await chain;
    },
  };
}

export type ChatRequests = ReturnType<typeof createChatRequests>;
