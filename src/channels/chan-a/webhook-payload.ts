import { stripUnsafeText } from '../../core/http/unsafe-text.js';
import { DECISION_TOKEN_PREFIX } from '../../modules/chat-approvals/decision-token.js';

/**
 * Pure reading of channel A webhook payloads (the WhatsApp Cloud API shape):
 *
 * ```
 * { object: 'whatsapp_business_account',
 *   entry: [{ id, changes: [{ field: 'messages',
 *     value: { metadata: { phone_number_id }, contacts: [{ wa_id, profile: { name } }],
 *              messages: [...], statuses: [...] } }] }] }
 * ```
 *
 * Tolerant by design: the platform retries anything that is not a 200, so a
 * part that does not have the expected shape is skipped with a reason (the
 * caller logs it) and the rest is still read. Nothing here throws.
 */

/** Message types whose content the service reads. */
export const READABLE_MEDIA_TYPES = ['image', 'document'] as const;

/**
 * Message types that are not an employee writing: the platform's notices (a number changed,
 * a chat opened for the first time). Logged and skipped, never answered.
 */
const NOTICE_TYPES = ['system', 'request_welcome', 'ephemeral'];

/** One inbound message as the `chanA-inbound` job carries it: small, ids and text only. */
export interface InboundItem {
  /** The platform's message id (`wamid.…`): the idempotency key. */
  id: string;
  /** The sender's phone number, digits only. */
  from: string;
  /** Unix seconds as the platform sent them, or null. */
  timestamp: string | null;
  /** The platform's type: text, image, document, audio, video, sticker, location, contacts, reaction, interactive, button, unsupported… */
  type: string;
  /** The text: a text body, or the title of a button or list reply. */
  text?: string;
  /** Image or document: what is needed to fetch it. */
  media?: { id: string; mimeType: string | null; caption: string | null; filename: string | null };
  /** The sender's profile name from `contacts[]`. */
  profileName?: string;
  /** The business phone-number id the message was sent to. */
  phoneNumberId?: string;
  /** A `reaction`: the platform id of the message reacted to and the emoji, empty when the reaction was removed. */
  reaction?: { messageId: string; emoji: string };
  /**
   * An approver's press on an approval request (a reply button or list row whose id starts with
   * `apv:`): the signed token and the platform id of the message it was under (`context.id`), when
   * given. Such a message has no `text`: it is never read as a question.
   */
  press?: { token: string; platformMessageId: string | null };
}

/** Receipt states the service records; other values (`deleted`, `warning`…) are skipped. */
export const RECEIPT_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number];

/** One error the platform attached to a `failed` receipt. */
export interface ReceiptError {
  code: number | null;
  title: string | null;
  message: string | null;
  details: string | null;
}

/** One status callback: the receipt of a message we sent. */
export interface StatusItem {
  /** The platform id of the message part the receipt is about. */
  id: string;
  status: ReceiptStatus;
  timestamp: string | null;
  recipientId: string | null;
  errors: ReceiptError[];
}

export interface ParsedWebhook {
  messages: InboundItem[];
  statuses: StatusItem[];
  /** Why parts were skipped, for the log (never the content). */
  skipped: string[];
}

type Json = Record<string, unknown>;

const MAX_ID = 200;
const MAX_TEXT = 16_000;
const MAX_NAME = 200;
/** More parts than this in one request is not something the platform sends; the rest is skipped. */
const MAX_ITEMS = 1000;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A trimmed, bounded string (ids and timestamps may come as numbers), or null. */
function str(value: unknown, max: number): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return words(value, max);
}

/** A trimmed, bounded string, or null: content fields are strings or nothing. */
function words(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  // PostgreSQL refuses NUL and unpaired surrogates: dropped here rather than failing the job.
  const trimmed = stripUnsafeText(value).trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The text of a text message, a button reply, a list reply or a video's caption; null for other types. */
function textOf(message: Json, type: string): string | null {
  if (type === 'text' && isObject(message.text)) return words(message.text.body, MAX_TEXT);
  // A video is not read, but the words sent with it are the employee's question.
  if (type === 'video' && isObject(message.video)) return words(message.video.caption, MAX_TEXT);
  if (type === 'button' && isObject(message.button)) {
    return words(message.button.text, MAX_TEXT) ?? words(message.button.payload, MAX_TEXT);
  }
  if (type === 'interactive' && isObject(message.interactive)) {
    const reply = message.interactive.button_reply ?? message.interactive.list_reply;
    if (isObject(reply)) return words(reply.title, MAX_TEXT) ?? words(reply.id, MAX_TEXT);
  }
  return null;
}

function readMessage(message: unknown, names: Map<string, string>, phoneNumberId: string | null) {
  if (!isObject(message)) return { skipped: 'a message that is not an object' };
  const id = str(message.id, MAX_ID);
  const from = typeof message.from === 'string' ? message.from.replace(/\D/g, '') : '';
  if (!id) return { skipped: 'a message without an id' };
  if (from.length < 5 || from.length > 15)
    return { skipped: `message ${id}: the sender is not a phone number` };
  const type = str(message.type, 40) ?? 'unknown';
  if (NOTICE_TYPES.includes(type)) return { skipped: `message ${id}: a ${type} notice is not answered` };
  const interactive = type === 'interactive' && isObject(message.interactive) ? message.interactive : null;
  const pressed = interactive ? (interactive.button_reply ?? interactive.list_reply) : null;
  const item: InboundItem = { id, from, timestamp: str(message.timestamp, 20), type };
  const token = isObject(pressed) ? str(pressed.id, MAX_ID) : null;
  if (token?.startsWith(DECISION_TOKEN_PREFIX)) {
    const context = isObject(message.context) ? str(message.context.id, MAX_ID) : null;
    item.press = { token, platformMessageId: context };
    const name = names.get(from);
    if (name) item.profileName = name;
    if (phoneNumberId) item.phoneNumberId = phoneNumberId;
    return { item };
  }
  const text = textOf(message, type);
  if (text) item.text = text;
  else if (type === 'text' || type === 'button' || type === 'interactive') {
    return { skipped: `message ${id}: a ${type} message without text` };
  }
  if ((READABLE_MEDIA_TYPES as readonly string[]).includes(type)) {
    const media = message[type];
    const mediaId = isObject(media) ? str(media.id, MAX_ID) : null;
    if (isObject(media) && mediaId) {
      item.media = {
        id: mediaId,
        mimeType: str(media.mime_type, 200),
        caption: words(media.caption, MAX_TEXT),
        filename: str(media.filename, 255),
      };
    }
  }
  if (type === 'reaction') {
    const reaction = isObject(message.reaction) ? message.reaction : null;
    const target = reaction ? str(reaction.message_id, MAX_ID) : null;
    if (!reaction || !target) return { skipped: `message ${id}: a reaction without the message it is on` };
    item.reaction = { messageId: target, emoji: words(reaction.emoji, 40) ?? '' };
  }
  const name = names.get(from);
  if (name) item.profileName = name;
  if (phoneNumberId) item.phoneNumberId = phoneNumberId;
  return { item };
}

function readError(error: unknown): ReceiptError {
  const e = isObject(error) ? error : {};
  const code = typeof e.code === 'number' && Number.isInteger(e.code) ? e.code : null;
  const details = isObject(e.error_data) ? str(e.error_data.details, 1000) : null;
  return { code, title: str(e.title, 500), message: str(e.message, 1000), details };
}

function readStatus(status: unknown) {
  if (!isObject(status)) return { skipped: 'a status that is not an object' };
  const id = str(status.id, MAX_ID);
  if (!id) return { skipped: 'a status without a message id' };
  const value = str(status.status, 40);
  if (!value || !(RECEIPT_STATUSES as readonly string[]).includes(value)) {
    return { skipped: `status of ${id}: ${value ?? 'no'} status is not recorded` };
  }
  const item: StatusItem = {
    id,
    status: value as ReceiptStatus,
    timestamp: str(status.timestamp, 20),
    recipientId: str(status.recipient_id, 40),
    errors: arrayOf(status.errors).slice(0, 10).map(readError),
  };
  return { item };
}

/**
 * The messages and receipts in a parsed webhook body. `phoneNumberId`, when
 * given, keeps only changes addressed to that business number (an app may
 * serve several; the others are skipped, not an error).
 */
export function parseWebhook(body: unknown, phoneNumberId: string | null = null): ParsedWebhook {
  const parsed: ParsedWebhook = { messages: [], statuses: [], skipped: [] };
  if (!isObject(body)) {
    parsed.skipped.push('the body is not a JSON object');
    return parsed;
  }
  if (body.object !== 'whatsapp_business_account') {
    parsed.skipped.push(`object ${JSON.stringify(str(body.object, 60))} is not whatsapp_business_account`);
    return parsed;
  }
  if (!Array.isArray(body.entry)) {
    parsed.skipped.push('the body has no entry list');
    return parsed;
  }
  const full = () => parsed.messages.length + parsed.statuses.length >= MAX_ITEMS;
  for (const [e, entry] of body.entry.entries()) {
    if (!isObject(entry) || !Array.isArray(entry.changes)) {
      parsed.skipped.push(`entry ${e}: no changes list`);
      continue;
    }
    for (const [c, change] of entry.changes.entries()) {
      const where = `entry ${e} change ${c}`;
      if (!isObject(change) || !isObject(change.value)) {
        parsed.skipped.push(`${where}: no value`);
        continue;
      }
      if (change.field !== undefined && change.field !== 'messages') {
        parsed.skipped.push(`${where}: field ${JSON.stringify(str(change.field, 60))} is not read`);
        continue;
      }
      const { value } = change;
      const errors = arrayOf(value.errors).flatMap((error) =>
        isObject(error) ? [str(error.code, 20) ?? '?'] : [],
      );
      if (errors.length) parsed.skipped.push(`${where}: the platform reported errors ${errors.join(', ')}`);
      const target = isObject(value.metadata) ? str(value.metadata.phone_number_id, 60) : null;
      if (phoneNumberId && target && target !== phoneNumberId) {
        parsed.skipped.push(`${where}: addressed to another phone number id`);
        continue;
      }
      const names = new Map<string, string>();
      for (const contact of arrayOf(value.contacts)) {
        if (!isObject(contact)) continue;
        const waId = typeof contact.wa_id === 'string' ? contact.wa_id.replace(/\D/g, '') : '';
        const name = isObject(contact.profile) ? words(contact.profile.name, MAX_NAME) : null;
        if (waId && name) names.set(waId, name);
      }
      for (const message of arrayOf(value.messages)) {
        if (full()) break;
        const read = readMessage(message, names, target);
        if (read.item) parsed.messages.push(read.item);
        else parsed.skipped.push(`${where}: ${read.skipped}`);
      }
      for (const status of arrayOf(value.statuses)) {
        if (full()) break;
        const read = readStatus(status);
        if (read.item) parsed.statuses.push(read.item);
        else parsed.skipped.push(`${where}: ${read.skipped}`);
      }
      if (full()) {
        parsed.skipped.push(`more than ${MAX_ITEMS} messages and statuses: the rest was skipped`);
        return parsed;
      }
    }
  }
  return parsed;
}
