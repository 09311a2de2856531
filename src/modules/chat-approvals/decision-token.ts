import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * What a button of an approval request carries back (channel B's
 * `callback_data`, channel A's interactive reply id): an opaque, signed token
 * naming one request message sent to one approver and the decision pressed,
 * never the approval's id. Telegram allows 64 bytes of callback data; a token
 * is 40 ASCII characters.
 */
export const DECISION_TOKEN_PREFIX = 'apv:';

export const DECISIONS = ['approve', 'edit', 'reject', 'escalate', 'more'] as const;
export type ChatDecision = (typeof DECISIONS)[number];

/** Escalation targets a list offers at most (one byte of the token names the one chosen). */
export const MAX_ESCALATION_CHOICES = 100;
/** Where choice numbers start in the token's decision byte, after the decisions. */
const CHOICE_BASE = 100;

export type DecisionToken =
  /** A request's button. */
  | { requestId: string; decision: ChatDecision }
  /** One user of the list Escalate showed: the index into the users the request stored then. */
  | { requestId: string; decision: 'escalate-to'; choice: number };

const UUID_BYTES = 16;
const SIGNATURE_BYTES = 10;
const TOKEN_BYTES = UUID_BYTES + 1 + SIGNATURE_BYTES;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Signs and reads decision tokens with a key derived from the service's secret (JWT_SECRET). */
export function createDecisionTokens(secret: string) {
  const key = createHmac('sha256', secret).update('chat-approval-decision').digest();
  const signatureOf = (payload: Buffer) =>
    createHmac('sha256', key).update(payload).digest().subarray(0, SIGNATURE_BYTES);

  return {
    /** The token for pressing `decision` on the request message `requestId`. */
    sign(token: DecisionToken): string {
      const { requestId } = token;
      if (!UUID_PATTERN.test(requestId)) throw new Error(`not a UUID: ${requestId}`);
      if (token.decision === 'escalate-to' && !(token.choice >= 0 && token.choice < MAX_ESCALATION_CHOICES)) {
        throw new Error(`no such escalation choice: ${token.choice}`);
      }
      const code =
        token.decision === 'escalate-to' ? CHOICE_BASE + token.choice : DECISIONS.indexOf(token.decision);
      const payload = Buffer.concat([Buffer.from(requestId.replaceAll('-', ''), 'hex'), Buffer.from([code])]);
      return `${DECISION_TOKEN_PREFIX}${Buffer.concat([payload, signatureOf(payload)]).toString('base64url')}`;
    },

    /** The request and decision a token names, or null for anything not signed by this service. */
    read(token: string): DecisionToken | null {
      if (!token.startsWith(DECISION_TOKEN_PREFIX)) return null;
      const text = token.slice(DECISION_TOKEN_PREFIX.length);
      const bytes = Buffer.from(text, 'base64url');
      // Only the one spelling this service writes: no padding, no trailing characters.
      if (bytes.length !== TOKEN_BYTES || bytes.toString('base64url') !== text) return null;
      const payload = bytes.subarray(0, UUID_BYTES + 1);
      if (!timingSafeEqual(bytes.subarray(UUID_BYTES + 1), signatureOf(payload))) return null;
      const code = payload[UUID_BYTES]!;
      const hex = payload.subarray(0, UUID_BYTES).toString('hex');
      const requestId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      if (code >= CHOICE_BASE && code < CHOICE_BASE + MAX_ESCALATION_CHOICES) {
        return { requestId, decision: 'escalate-to', choice: code - CHOICE_BASE };
      }
      const decision = DECISIONS[code];
      return decision ? { requestId, decision } : null;
    },
  };
}

export type DecisionTokens = ReturnType<typeof createDecisionTokens>;
