import { describe, expect, it } from 'vitest';
import {
  buttonReply,
  documentMessage,
  imageMessage,
  otherMessage,
  statusUpdate,
  TEST_PHONE_NUMBER_ID,
  textMessage,
  webhookPayload,
} from '../../../test/fakes/chanA-webhooks.js';
import { parseWebhook } from './webhook-payload.js';

const from = '380501234567';

describe('parseWebhook', () => {
  it('reads text, media, other types and button replies, with the profile name of the sender', () => {
    const payload = webhookPayload({
      contacts: [{ waId: from, name: 'Olena' }],
      messages: [
        textMessage(from, 'Hello', 'wamid.1'),
        imageMessage(from, 'media-1', 'my payslip', 'wamid.2'),
        documentMessage(from, 'media-2', { mimeType: 'application/pdf', filename: 'a.pdf' }, 'wamid.3'),
        otherMessage(from, 'audio', 'wamid.4'),
        buttonReply(from, 'Yes, please', 'wamid.5'),
      ],
    });
    const parsed = parseWebhook(payload, TEST_PHONE_NUMBER_ID);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.messages).toMatchObject([
      {
        id: 'wamid.1',
        from,
        type: 'text',
        text: 'Hello',
        profileName: 'Olena',
        phoneNumberId: TEST_PHONE_NUMBER_ID,
      },
      {
        id: 'wamid.2',
        type: 'image',
        media: { id: 'media-1', mimeType: 'image/png', caption: 'my payslip' },
      },
      {
        id: 'wamid.3',
        type: 'document',
        media: { id: 'media-2', mimeType: 'application/pdf', filename: 'a.pdf' },
      },
      { id: 'wamid.4', type: 'audio' },
      { id: 'wamid.5', type: 'interactive', text: 'Yes, please' },
    ]);
    expect(parsed.messages[3]).not.toHaveProperty('text');
    expect(parsed.messages[3]).not.toHaveProperty('media');
  });

  it('reads an approver’s press (a reply id starting with apv:) as a press with the request’s message id, never as text', () => {
    const token = `apv:${'A'.repeat(36)}`;
    const pressed = (
      id: string,
      interactive: Record<string, unknown>,
      context?: Record<string, unknown>,
    ) => ({
      from,
      id,
      timestamp: '1764400000',
      type: 'interactive',
      interactive,
      ...(context ? { context } : {}),
    });
    const payload = webhookPayload({
      contacts: [{ waId: from, name: 'Olena' }],
      messages: [
        pressed(
          'wamid.p1',
          { type: 'button_reply', button_reply: { id: token, title: 'Approve' } },
          { from: '15550783881', id: 'wamid.request-1' },
        ),
        pressed(
          'wamid.p2',
          { type: 'list_reply', list_reply: { id: token, title: 'Edit' } },
          { from: '15550783881', id: 'wamid.list-1' },
        ),
        pressed('wamid.p3', { type: 'button_reply', button_reply: { id: token, title: 'Approve' } }),
        // Only the prefix makes a press: another id is an ordinary reply, read as its title.
        pressed('wamid.p4', { type: 'button_reply', button_reply: { id: 'apv-like', title: 'Approve' } }),
      ],
    });
    const parsed = parseWebhook(payload, TEST_PHONE_NUMBER_ID);
    expect(parsed.skipped).toEqual([]);
    expect(parsed.messages).toEqual([
      {
        id: 'wamid.p1',
        from,
        timestamp: '1764400000',
        type: 'interactive',
        press: { token, platformMessageId: 'wamid.request-1' },
        profileName: 'Olena',
        phoneNumberId: TEST_PHONE_NUMBER_ID,
      },
      {
        id: 'wamid.p2',
        from,
        timestamp: '1764400000',
        type: 'interactive',
        press: { token, platformMessageId: 'wamid.list-1' },
        profileName: 'Olena',
        phoneNumberId: TEST_PHONE_NUMBER_ID,
      },
      expect.objectContaining({ id: 'wamid.p3', press: { token, platformMessageId: null } }),
      expect.objectContaining({ id: 'wamid.p4', text: 'Approve' }),
    ]);
    expect(parsed.messages[2]).not.toHaveProperty('text');
    expect(parsed.messages[3]).not.toHaveProperty('press');
  });

  it('reads receipts with their errors and skips states it does not record', () => {
    const payload = webhookPayload({
      statuses: [
        statusUpdate('wamid.a', 'delivered'),
        statusUpdate('wamid.b', 'failed', { errors: [{ code: 131047, title: 'Re-engagement message' }] }),
        { ...statusUpdate('wamid.c', 'read'), status: 'deleted' },
      ],
    });
    const parsed = parseWebhook(payload);
    expect(parsed.statuses).toMatchObject([
      { id: 'wamid.a', status: 'delivered', errors: [] },
      {
        id: 'wamid.b',
        status: 'failed',
        errors: [{ code: 131047, title: 'Re-engagement message', details: 'Re-engagement message' }],
      },
    ]);
    expect(parsed.skipped).toHaveLength(1);
  });

  it('never throws: every malformed shape is skipped with a reason and the rest is read', () => {
    const shapes: unknown[] = [
      null,
      'text',
      [],
      42,
      {},
      { object: 'page', entry: [] },
      { object: 'whatsapp_business_account' },
      { object: 'whatsapp_business_account', entry: 'x' },
      {
        object: 'whatsapp_business_account',
        entry: [null, 1, { changes: 'x' }, { changes: [null, { value: 7 }] }],
      },
      webhookPayload({ messages: [null as never, { id: 5, from: [] }, { id: 'w', from: '12' }] }),
      webhookPayload({ messages: [{ id: 'w', from, type: 'text', text: { body: 7 } }] }),
      webhookPayload({ statuses: [null as never, { id: 'x' }, { status: 'sent' }] }),
    ];
    for (const shape of shapes) {
      const parsed = parseWebhook(shape);
      expect(parsed.messages, JSON.stringify(shape)).toEqual([]);
      expect(parsed.statuses).toEqual([]);
      expect(parsed.skipped.length, JSON.stringify(shape)).toBeGreaterThan(0);
    }
    const mixed = webhookPayload({ messages: [{ id: 'bad' }, textMessage(from, 'still read', 'wamid.ok')] });
    expect(parseWebhook(mixed).messages.map((m) => m.id)).toEqual(['wamid.ok']);
  });

  it('drops text PostgreSQL cannot store, and skips changes for another business number', () => {
    const parsed = parseWebhook(
      webhookPayload({ messages: [textMessage(from, 'a\u0000b\ud800c', 'wamid.1')] }),
    );
    expect(parsed.messages[0]?.text).toBe('abc');
    const elsewhere = webhookPayload({ phoneNumberId: '999', messages: [textMessage(from, 'hi')] });
    expect(parseWebhook(elsewhere, TEST_PHONE_NUMBER_ID).messages).toEqual([]);
    expect(parseWebhook(elsewhere, null).messages).toHaveLength(1);
  });
});
