import type { Config } from '../../core/config/config.js';
import type { KeyValue } from '../../core/kv/kv.js';
import type {
  ApprovalChatTransport,
  ChatAddress,
  ChatButton,
  ChatRequestView,
  ChatSendResult,
} from '../../modules/chat-approvals/chat-ports.js';
import { type GraphClient, type GraphMessage, OUTSIDE_WINDOW_CODE } from './graph-client.js';
import type { TokenLifecycle } from './token-lifecycle.js';

/** The platform's limits, in characters. */
export const CHANA_LIMITS = {
  /** The body of an interactive message. */
  interactiveBody: 1024,
  /** A reply button's title. */
  buttonTitle: 20,
  /** Reply buttons one message carries. */
  buttons: 3,
  /** A list row's title. */
  rowTitle: 24,
  /** Rows of a list message, over all its sections. */
  rows: 10,
  /** The button that opens a list. */
  listButton: 20,
  /** A text message. */
  text: 4096,
} as const;

/** The customer-service window: after the recipient's last message, free-form messages are allowed this long. */
const WINDOW_MS = 24 * 3_600_000;
/**
 * Taken off the window: our clock and the platform's differ, and a message sent in the last
 * minutes of the window may reach the platform after it closed.
 */
const WINDOW_MARGIN_MS = 5 * 60_000;
/** An approver is sent the invitation template at most once in this long, however many requests wait. */
const INVITE_ONCE_PER_MS = 12 * 3_600_000;

export interface ChanAApprovalChatDeps {
  config: Pick<Config['chanA'], 'phoneNumberId' | 'accessToken' | 'approvalTemplate'>;
  graph: GraphClient;
  tokens: Pick<TokenLifecycle, 'current'>;
  /** Claims that spare an approver a second invitation while one waits for their answer. */
  kv: Pick<KeyValue, 'setIfAbsent' | 'delete'>;
  /** When `phone` last wrote to the business number (any message the webhook took), or null. */
  lastInboundAt(phone: string): Promise<Date | null>;
}

/** `text` cut to `limit` characters (code points, so no emoji is split), with an ellipsis when cut. */
export function cut(text: string, limit: number): string {
  const chars = Array.from(text);
  return chars.length <= limit ? text : `${chars.slice(0, limit - 1).join('')}…`;
}

/**
 * Channel A's side of approvals in chat (modules/chat-approvals/chat-ports.ts) over the messages
 * call of the WhatsApp Cloud API. Inside the approver's 24-hour window a request is an interactive
 * message with up to three reply buttons (their ids are the signed tokens); outside it the platform
 * takes only templates, so CHANA_APPROVAL_TEMPLATE invites the approver to write and the request
 * follows their answer (the core queues it again). Every method throws with the platform's reason
 * when a call fails.
 */
export function createChanAApprovalChat(deps: ChanAApprovalChatDeps): ApprovalChatTransport {
  const { config, graph, tokens, kv } = deps;

  async function send(to: ChatAddress, message: GraphMessage): Promise<string> {
    const token = await tokens.current();
    if (!token || !config.phoneNumberId) throw new Error('No channel A access token is stored');
    const result = await graph.sendMessage(
      { phoneNumberId: config.phoneNumberId, token, to: to.address },
      message,
    );
    if (!result.ok) throw new GraphSendError(result.failure.reason, result.failure.code);
    return result.value.id;
  }

  /** The invitation template, once per {@link INVITE_ONCE_PER_MS} per approver. */
  async function invite(to: ChatAddress, view: ChatRequestView): Promise<ChatSendResult> {
    const template = config.approvalTemplate;
    if (!template) {
      throw new Error(
        'The approver is outside the 24-hour window of channel A and no invitation template is configured (CHANA_APPROVAL_TEMPLATE)',
      );
    }
    const claim = `chanA:approval-invited:${to.address}`;
    if (!(await kv.setIfAbsent(claim, String(Date.now()), INVITE_ONCE_PER_MS))) return { kind: 'invited' };
    try {
      await send(to, { type: 'template', template: { name: template, language: { code: view.language } } });
    } catch (error) {
      // Not sent: the next request may try again.
      await kv.delete(claim);
      throw error;
    }
    return { kind: 'invited' };
  }

  return {
    channel: 'chanA',

    configured: () => Boolean(config.phoneNumberId && config.accessToken),

    async sendRequest(to, view) {
      const last = await deps.lastInboundAt(to.address);
      if (!last || Date.now() - last.getTime() > WINDOW_MS - WINDOW_MARGIN_MS) return invite(to, view);
      try {
        const id = await send(to, {
          type: 'interactive',
          interactive: {
            type: 'button',
            body: { text: cut(view.text, CHANA_LIMITS.interactiveBody) },
            action: {
              buttons: view.buttons.slice(0, CHANA_LIMITS.buttons).map((button) => ({
                type: 'reply' as const,
                reply: { id: button.token, title: cut(button.label, CHANA_LIMITS.buttonTitle) },
              })),
            },
          },
        });
        return { kind: 'sent', platformMessageId: id };
      } catch (error) {
        // The platform knows the window better than our record of it (a message we never saw).
        if (error instanceof GraphSendError && error.code === OUTSIDE_WINDOW_CODE) return invite(to, view);
        throw error;
      }
    },

    sendText: (to, text) =>
      send(to, { type: 'text', text: { body: cut(text, CHANA_LIMITS.text), preview_url: false } }),

    async sendChoices(to: ChatAddress, text: string, choices: ChatButton[], openLabel: string) {
      await send(to, {
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: cut(text, CHANA_LIMITS.interactiveBody) },
          action: {
            button: cut(openLabel, CHANA_LIMITS.listButton),
            sections: [
              {
                rows: choices.slice(0, CHANA_LIMITS.rows).map((choice) => ({
                  id: choice.token,
                  title: cut(choice.label, CHANA_LIMITS.rowTitle),
                })),
              },
            ],
          },
        },
      });
    },

    async showOutcome(to, platformMessageId, text) {
      await send(to, {
        type: 'text',
        text: { body: cut(text, CHANA_LIMITS.text), preview_url: false },
        context: { message_id: platformMessageId },
      });
    },

    // A reply button needs no acknowledgement on this platform: the outcome or the next prompt is the answer.
    answerPress: async () => {},
  };
}

/** A refused or failed Graph call, with the Graph error code when the answer had one. */
class GraphSendError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
  ) {
    super(message);
    this.name = 'GraphSendError';
  }
}
