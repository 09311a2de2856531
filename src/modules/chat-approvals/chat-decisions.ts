import type { AuditWriter } from '../../core/audit/audit-hook.js';
import { type Actor, hasPermission } from '../../core/auth/actor.js';
import { canAccessDepartment } from '../../core/auth/department-scope.js';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../core/errors/app-errors.js';
import type { ApprovalDecisions, Decision } from '../approvals/approval-decisions.js';
import { type ChatTexts, chatLanguage, chatTexts, outcomeText } from './chat-approval-texts.js';
import type { ChatApprovalsRepository, ChatRequestRow } from './chat-approvals.repository.js';
import type {
  ApprovalChannel,
  ApprovalChatInbound,
  ApprovalChatTransport,
  ChatAddress,
  ChatButton,
  ChatPress,
} from './chat-ports.js';
import type { ChatRequests } from './chat-requests.js';
import { type DecisionToken, type DecisionTokens, MAX_ESCALATION_CHOICES } from './decision-token.js';

/** How long the bot waits for an edit's text or a rejection's reason. */
export const AWAIT_ANSWER_MS = 15 * 60_000;
/** Escalation targets a list shows at most (channel A's list message holds ten rows). */
const ESCALATION_LIST_MAX = Math.min(10, MAX_ESCALATION_CHOICES);
/** The longest edited reply and reason the REST routes take; chat answers are held to the same. */
const MAX_EDIT = 16_000;
const MAX_REASON = 2000;
/** Channel B shows a short notice on the pressed button itself; channel A has none, so it gets a message. */
const PRESS_NOTICE: Record<ApprovalChannel, boolean> = { chanB: true, chanA: false };

const WAITING = new Set(['pending', 'escalated']);
const CANCEL = /^\/cancel(@\w+)?$/i;
const SKIP = /^\/skip(@\w+)?$/i;

export interface ChatDecisionsDeps {
  repository: ChatApprovalsRepository;
  tokens: DecisionTokens;
  transports: Partial<Record<ApprovalChannel, ApprovalChatTransport>>;
  /** The REST routes' decision service: the same checks, transaction, trust and delivery. */
  decisions: Pick<ApprovalDecisions, 'decide'>;
  /** The user as an actor with their current role, overrides and departments; null when inactive or gone. */
  actorOf(userId: string): Promise<Actor | null>;
  /** The users who may approve in a department now. */
  approversOf(departmentId: string): Promise<string[]>;
  requests: Pick<ChatRequests, 'kick'>;
  audit: AuditWriter;
  logger: { warn(object: object, message?: string): void };
  now?: () => Date;
}

/** What a sender's press or answer is about, once its sender is known. */
interface Scene {
  channel: ApprovalChannel;
  transport: ApprovalChatTransport;
  to: ChatAddress;
  userId: string;
  t: ChatTexts;
  /** The press to answer; null for a text answer. */
  press: ChatPress | null;
}

/**
 * Decisions taken in chat: button presses (signed tokens, decision-token.ts) and the texts an
 * edit or a rejection asked for. Each decision goes through the approvals' own decision service
 * as the linked user (whose permissions, departments and activity are read at that moment) and is
 * audited with the channel and the platform's message id; the copies of the request everywhere
 * then show the outcome (chat-requests.ts).
 */
export function createChatDecisions(deps: ChatDecisionsDeps): ApprovalChatInbound {
  const { repository, tokens, transports, logger } = deps;
  const now = deps.now ?? (() => new Date());

  /** Answers the press (a notice on channel B) or, without one, writes to the sender. */
  async function tell(scene: Scene, text: string): Promise<void> {
    if (scene.press && PRESS_NOTICE[scene.channel]) await scene.transport.answerPress(scene.press, text);
    else await scene.transport.sendText(scene.to, text);
  }

  /** The outcome of a decided approval, as the "already decided" answer names it. */
  async function decidedText(scene: Scene, requestId: string): Promise<string> {
    const detail = await repository.detail(requestId);
    const outcome = detail
      ? outcomeText(chatLanguage(await repository.languageOf(scene.userId)), detail.approval, {
          decidedBy: detail.decidedByName,
          escalatedTo: detail.escalatedToName,
        })
      : null;
    return scene.t.alreadyDecided(outcome ?? scene.t.gone);
  }

  /**
   * The actor deciding `request`, or null after telling them why not: the approval is gone or
   * decided, the user was deactivated, or they may no longer approve (or escalate) there.
   */
  async function deciderFor(
    scene: Scene,
    request: ChatRequestRow,
    escalating: boolean,
  ): Promise<Actor | null> {
    const detail = await repository.detail(request.id);
    if (!detail) {
      await tell(scene, scene.t.gone);
      return null;
    }
    if (!WAITING.has(detail.approval.status)) {
      await tell(scene, await decidedText(scene, request.id));
      return null;
    }
    const actor = await deps.actorOf(scene.userId);
    const allowed =
      actor !== null &&
      canAccessDepartment(actor, detail.approval.departmentId) &&
      (await deps.approversOf(detail.approval.departmentId)).includes(scene.userId) &&
      (!escalating || hasPermission(actor, 'canEscalate'));
    if (!allowed) {
      await tell(scene, scene.t.notAllowed);
      return null;
    }
    return actor;
  }

  /** Runs one decision as `actor`; answers whether it was taken. */
  async function decide(
    scene: Scene,
    actor: Actor,
    request: ChatRequestRow,
    decision: Decision,
  ): Promise<boolean> {
    try {
      await deps.decisions.decide(actor, request.approvalId, decision);
    } catch (error) {
      if (error instanceof ConflictError) await tell(scene, await decidedText(scene, request.id));
      else if (error instanceof NotFoundError || error instanceof ForbiddenError)
        await tell(scene, scene.t.notAllowed);
      else if (error instanceof ValidationError) await tell(scene, error.message);
      else throw error;
      return false;
    }
    const { action, ...given } = decision;
    await deps.audit.record({
      userId: actor.kind === 'user' ? actor.userId : null,
      action,
      entityType: 'approvals',
      entityId: request.approvalId,
      changes: {
        ...given,
        via: scene.channel,
        platformMessageId: scene.press?.platformMessageId ?? request.platformMessageId,
      },
      ipAddress: null,
      userAgent: null,
    });
    await repository.clearAwaiting(scene.userId, scene.channel);
    if (scene.press && PRESS_NOTICE[scene.channel]) await scene.transport.answerPress(scene.press, null);
    // Every copy, this one included, shows the outcome now rather than at the next pass.
    deps.requests.kick();
    return true;
  }

  async function ask(scene: Scene, request: ChatRequestRow, awaiting: 'edit' | 'reason', text: string) {
    await repository.clearAwaiting(scene.userId, scene.channel);
    await repository.update(request.id, {
      awaiting,
      awaitingUntil: new Date(now().getTime() + AWAIT_ANSWER_MS),
    });
    if (scene.press && PRESS_NOTICE[scene.channel]) await scene.transport.answerPress(scene.press, null);
    await scene.transport.sendText(scene.to, text);
  }

  async function offerEscalation(scene: Scene, request: ChatRequestRow, departmentId: string) {
    const others = (await deps.approversOf(departmentId)).filter((id) => id !== scene.userId);
    const people = (await repository.names(others))
      .sort((a, b) => a.name.localeCompare(b.name))
      .slice(0, ESCALATION_LIST_MAX);
    if (people.length === 0) {
      await tell(scene, scene.t.nobodyToEscalate);
      return;
    }
    await repository.update(request.id, { escalationChoices: people.map((p) => p.id) });
    if (scene.press && PRESS_NOTICE[scene.channel]) await scene.transport.answerPress(scene.press, null);
    await scene.transport.sendChoices(
      scene.to,
      scene.t.escalateTo,
      people.map((p, choice) => ({
        label: p.name,
        token: tokens.sign({ requestId: request.id, decision: 'escalate-to', choice }),
      })),
      scene.t.choose,
    );
  }

  async function onPress(scene: Scene, request: ChatRequestRow, token: DecisionToken): Promise<void> {
    const escalating = token.decision === 'escalate' || token.decision === 'escalate-to';
    const actor = await deciderFor(scene, request, escalating);
    if (!actor) return;
    switch (token.decision) {
      case 'approve':
        await decide(scene, actor, request, { action: 'approve' });
        return;
      case 'edit':
        await ask(scene, request, 'edit', scene.t.askEdit);
        return;
      case 'reject':
        await ask(scene, request, 'reason', scene.t.askReason);
        return;
      case 'more': {
        const choices: ChatButton[] = [
          { label: scene.t.edit, token: tokens.sign({ requestId: request.id, decision: 'edit' }) },
        ];
        if (hasPermission(actor, 'canEscalate')) {
          choices.push({
            label: scene.t.escalate,
            token: tokens.sign({ requestId: request.id, decision: 'escalate' }),
          });
        }
        await scene.transport.sendChoices(scene.to, scene.t.moreText, choices, scene.t.choose);
        return;
      }
      case 'escalate': {
        const detail = await repository.detail(request.id);
        if (detail) await offerEscalation(scene, request, detail.approval.departmentId);
        return;
      }
      case 'escalate-to': {
        const target = request.escalationChoices[token.choice];
        if (!target) {
          await tell(scene, scene.t.invalid);
          return;
        }
        await decide(scene, actor, request, { action: 'escalate', escalatedToId: target });
        return;
      }
    }
  }

  /** The scene of a sender linked to a user, or null (then nothing is answered). */
  async function sceneOf(
    channel: ApprovalChannel,
    senderId: string,
    press: ChatPress | null,
  ): Promise<Scene | null> {
    const transport = transports[channel];
    if (!transport) return null;
    const userId = await repository.userOfSender(channel, senderId);
    if (!userId) return null;
    const t = chatTexts(chatLanguage(await repository.languageOf(userId)));
    return { channel, transport, to: { channel, address: senderId }, userId, t, press };
  }

  return {
    async press(input) {
      const press = { pressId: input.pressId, platformMessageId: input.platformMessageId };
      const scene = await sceneOf(input.channel, input.senderId, press);
      if (!scene) {
        // The sender's id is personal data: the log names the channel only.
        logger.warn(
          { channel: input.channel },
          'chat approvals: a button press from an unlinked sender was ignored',
        );
        return;
      }
      const token = tokens.read(input.token);
      if (!token) return tell(scene, scene.t.invalid);
      const request = await repository.find(token.requestId);
      if (!request) return tell(scene, scene.t.gone);
      if (request.userId !== scene.userId || request.channel !== scene.channel)
        return tell(scene, scene.t.foreign);
      await onPress(scene, request, token);
    },

    async intercept(input) {
      const scene = await sceneOf(input.channel, input.senderId, null);
      if (!scene) return false;
      // Channel A: the approver wrote, so their 24-hour window is open: invitations get their request.
      if (scene.channel === 'chanA' && (await repository.requeueInvited(scene.userId, 'chanA')) > 0) {
        deps.requests.kick();
      }
      const request = await repository.awaitingOf(scene.userId, scene.channel, now());
      if (!request) return false;
      const body = input.text.trim();
      if (CANCEL.test(body)) {
        await repository.clearAwaiting(scene.userId, scene.channel);
        await scene.transport.sendText(scene.to, scene.t.cancelled);
        return true;
      }
      const actor = await deciderFor(scene, request, false);
      if (!actor) {
        await repository.clearAwaiting(scene.userId, scene.channel);
        return true;
      }
      if (request.awaiting === 'edit') {
        if (!body) {
          await scene.transport.sendText(scene.to, scene.t.askEdit);
          return true;
        }
        await decide(scene, actor, request, { action: 'approve', editedContent: body.slice(0, MAX_EDIT) });
        return true;
      }
      const reason = SKIP.test(body) || !body ? undefined : body.slice(0, MAX_REASON);
      await decide(scene, actor, request, { action: 'reject', ...(reason ? { reason } : {}) });
      return true;
    },
  };
}
