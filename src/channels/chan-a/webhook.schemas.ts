import { Type } from 'typebox';

/** The platform's verification handshake, as query parameters with dotted names. */
export const HandshakeQuery = Type.Object({
  'hub.mode': Type.Optional(Type.String({ maxLength: 40, description: 'Always subscribe in a handshake' })),
  'hub.verify_token': Type.Optional(
    Type.String({ maxLength: 500, description: 'The token set as CHANA_WEBHOOK_VERIFY_TOKEN' }),
  ),
  'hub.challenge': Type.Optional(
    Type.String({ maxLength: 200, description: 'Echoed back as the response body when the token matches' }),
  ),
});

export const HandshakeResponse = Type.String({ description: 'The hub.challenge value, as plain text' });

const Change = Type.Object(
  {
    field: Type.Optional(Type.String({ maxLength: 60, description: 'messages for messages and receipts' })),
    value: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description:
            'metadata.phone_number_id, contacts[] (profile names), messages[] (inbound messages) and statuses[] (receipts of sent messages)',
        },
      ),
    ),
  },
  { additionalProperties: true },
);

/**
 * What the platform posts: documented for readers, never validated, since
 * the signature covers the raw bytes and a malformed payload is acknowledged
 * rather than refused (the route reads the body itself).
 */
export const WebhookBody = Type.Object(
  {
    object: Type.String({ maxLength: 60, description: 'Always whatsapp_business_account' }),
    entry: Type.Array(
      Type.Object(
        {
          id: Type.Optional(Type.String({ maxLength: 60, description: 'The business account id' })),
          changes: Type.Array(Change, { maxItems: 100 }),
        },
        { additionalProperties: true },
      ),
      { maxItems: 100 },
    ),
  },
  { additionalProperties: true },
);

export const WebhookAck = Type.Object({
  received: Type.Literal(true, { description: 'Always true: the payload was taken, processing follows' }),
});
