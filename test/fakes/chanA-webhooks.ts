import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Channel A webhook payloads as the platform (WhatsApp Cloud API) posts
 * them, and their `X-Hub-Signature-256` signing. Builders take only what a
 * test varies; the rest is the platform's usual shape.
 */

export const TEST_PHONE_NUMBER_ID = '106540352242922';

/** A platform message id, unique per call. */
export const wamid = () => `wamid.HBgM${randomBytes(12).toString('hex').toUpperCase()}`;

type Message = Record<string, unknown>;

export interface ValueParts {
  messages?: Message[];
  statuses?: Record<string, unknown>[];
  contacts?: Array<{ waId: string; name: string }>;
  phoneNumberId?: string;
}

/** One `value` of a change: metadata, contacts, messages and statuses. */
export function changeValue(parts: ValueParts): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    metadata: {
      display_phone_number: '15550783881',
      phone_number_id: parts.phoneNumberId ?? TEST_PHONE_NUMBER_ID,
    },
    ...(parts.contacts
      ? { contacts: parts.contacts.map((c) => ({ profile: { name: c.name }, wa_id: c.waId })) }
      : {}),
    ...(parts.messages ? { messages: parts.messages } : {}),
    ...(parts.statuses ? { statuses: parts.statuses } : {}),
  };
}

/** A whole webhook body with one entry holding one change per `values` item. */
export function webhookPayload(...values: ValueParts[]): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: values.map((value) => ({ field: 'messages', value: changeValue(value) })),
      },
    ],
  };
}

const now = () => String(Math.floor(Date.now() / 1000));

export function textMessage(from: string, body: string, id = wamid()): Message {
  return { from, id, timestamp: now(), type: 'text', text: { body } };
}

export function imageMessage(from: string, mediaId: string, caption?: string, id = wamid()): Message {
  return {
    from,
    id,
    timestamp: now(),
    type: 'image',
    image: { id: mediaId, mime_type: 'image/png', sha256: 'fake', ...(caption ? { caption } : {}) },
  };
}

export function documentMessage(
  from: string,
  mediaId: string,
  values: { mimeType: string; filename: string; caption?: string },
  id = wamid(),
): Message {
  return {
    from,
    id,
    timestamp: now(),
    type: 'document',
    document: {
      id: mediaId,
      mime_type: values.mimeType,
      filename: values.filename,
      sha256: 'fake',
      ...(values.caption ? { caption: values.caption } : {}),
    },
  };
}

/** A message of a type that is not read (audio, video, sticker, location, reaction…). */
export function otherMessage(from: string, type: string, id = wamid()): Message {
  const bodies: Record<string, unknown> = {
    audio: { id: '9001', mime_type: 'audio/ogg; codecs=opus', voice: true },
    video: { id: '9002', mime_type: 'video/mp4' },
    sticker: { id: '9003', mime_type: 'image/webp', animated: false },
    location: { latitude: 50.45, longitude: 30.52, name: 'Office' },
    reaction: { message_id: 'wamid.other', emoji: '👍' },
  };
  return { from, id, timestamp: now(), type, ...(bodies[type] ? { [type]: bodies[type] } : {}) };
}

export function buttonReply(from: string, title: string, id = wamid()): Message {
  return {
    from,
    id,
    timestamp: now(),
    type: 'interactive',
    interactive: { type: 'button_reply', button_reply: { id: 'yes', title } },
  };
}

export interface StatusValues {
  recipientId?: string;
  errors?: Array<{ code: number; title: string; message?: string; details?: string }>;
}

/** A receipt (status callback) for a message part we sent. */
export function statusUpdate(
  platformMessageId: string,
  status: 'sent' | 'delivered' | 'read' | 'failed',
  values: StatusValues = {},
): Record<string, unknown> {
  return {
    id: platformMessageId,
    status,
    timestamp: now(),
    recipient_id: values.recipientId ?? '380501234567',
    ...(status !== 'failed'
      ? {
          conversation: { id: 'c1', origin: { type: 'service' } },
          pricing: { billable: true, pricing_model: 'CBP', category: 'service' },
        }
      : {}),
    ...(values.errors
      ? {
          errors: values.errors.map((e) => ({
            code: e.code,
            title: e.title,
            message: e.message ?? e.title,
            error_data: { details: e.details ?? e.title },
          })),
        }
      : {}),
  };
}

/** The header the platform sends: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export function sign(body: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/**
 * Posts a webhook body through `app.inject`: signed with `appSecret` when
 * given (`signature` overrides the header; null leaves it out). A string
 * body is sent as it is (malformed JSON included).
 */
export function postWebhook(
  app: FastifyInstance,
  body: unknown,
  options: { appSecret?: string; signature?: string | null } = {},
) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const signature =
    options.signature !== undefined
      ? options.signature
      : options.appSecret
        ? sign(raw, options.appSecret)
        : null;
  if (signature !== null) headers['x-hub-signature-256'] = signature;
  return app.inject({ method: 'POST', url: '/api/v1/chanA/webhook', headers, payload: raw });
}
