import type { ChatDecision } from './decision-token.js';

/** The channels an approver can decide from. */
export type ApprovalChannel = 'chanA' | 'chanB';

/** Where a request goes: the recipient's address on the channel (channel B's chat id, channel A's phone number). */
export interface ChatAddress {
  channel: ApprovalChannel;
  address: string;
}

/** A button under a message: its label and what pressing it sends back (a signed token, decision-token.ts). */
export interface ChatButton {
  label: string;
  token: string;
}

/** One approval request as written for one recipient, in their language. */
export interface ChatRequestView {
  /** The whole text: the employee and their question, the draft, the reasons, the confidence. */
  text: string;
  /**
   * The buttons, in order. Channel B: approve, edit, reject, escalate (an inline keyboard, two rows of
   * two). Channel A: approve, reject, more (three reply buttons; `more` opens a list of edit and escalate).
   */
  buttons: Array<ChatButton & { decision: ChatDecision }>;
  /** Channel A, outside the recipient's 24-hour window: the language of CHANA_APPROVAL_TEMPLATE. */
  language: 'en' | 'uk' | 'ru';
}

/** What sending a request came to. */
export type ChatSendResult =
  /** Sent: the platform's id of the message (to edit it or answer under it later). */
  | { kind: 'sent'; platformMessageId: string }
  /** Channel A outside the 24-hour window: only the invitation template went; the request follows once they write. */
  | { kind: 'invited' };

/** A button press as the channel received it, to answer it. */
export interface ChatPress {
  /** Channel B: the callback query's id (answered with `answerCallbackQuery`); channel A: the inbound message's id. */
  pressId: string;
  /** The message the button was under, when the platform says (channel B: the request's message id). */
  platformMessageId: string | null;
}

/**
 * What chat approvals need of a channel (implemented in src/channels/<chan>/approval-chat.ts).
 * Every method throws when the platform refuses or cannot be reached; the caller records it.
 */
export interface ApprovalChatTransport {
  readonly channel: ApprovalChannel;
  /** Whether the channel has credentials to send with. */
  configured(): boolean;
  /** Sends a request with its buttons (channel A: the invitation template outside the 24-hour window). */
  sendRequest(to: ChatAddress, view: ChatRequestView): Promise<ChatSendResult>;
  /** Sends a plain text (prompts, the digest, outcomes on channel A). Answers the platform message id. */
  sendText(to: ChatAddress, text: string): Promise<string>;
  /**
   * Sends a choice among `choices` (Escalate → the users; channel A's More → Edit, Escalate):
   * channel B an inline keyboard, one button a row; channel A a list message opened by `openLabel`.
   */
  sendChoices(to: ChatAddress, text: string, choices: ChatButton[], openLabel: string): Promise<void>;
  /**
   * Shows the outcome on a copy already sent: channel B edits the message to `text` (its buttons
   * removed); channel A answers `text` as a reply to it.
   */
  showOutcome(to: ChatAddress, platformMessageId: string, text: string): Promise<void>;
  /** Acknowledges a press: channel B `answerCallbackQuery` (a toast when `text`); channel A does nothing. */
  answerPress(press: ChatPress, text: string | null): Promise<void>;
}

/** What the channels' inbound consumers hand to chat approvals (modules/chat-approvals). */
export interface ApprovalChatInbound {
  /**
   * A button press whose data starts with `apv:`. From a sender linked to no user, the press is
   * ignored and logged; otherwise it is answered (refused, decided, or a follow-up asked). Never throws
   * for what the press says; throws only when the database or the platform fails (the job retries).
   */
  press(input: { channel: ApprovalChannel; senderId: string; token: string } & ChatPress): Promise<void>;
  /**
   * A text from `senderId` on `channel`: when its user has an edit or a reason awaited (15 minutes),
   * the text is that answer (or `/cancel`) and is consumed: answers true and the message must not reach
   * the pipeline. Answers false for everything else. On channel A any message also opens the 24-hour
   * window: invitations sent meanwhile get their request now.
   */
  intercept(input: { channel: ApprovalChannel; senderId: string; text: string }): Promise<boolean>;
}
