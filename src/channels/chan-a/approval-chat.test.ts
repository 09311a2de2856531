import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database.js';
import { type FakeGraphServer, startFakeGraphServer } from '../../../test/fakes/chanA-graph-server.js';
import type { Config } from '../../core/config/config.js';
import type { DatabaseHandle } from '../../core/db/client.js';
import { createDatabaseKeyValue } from '../../core/kv/database-kv.js';
import { fallbackLogger } from '../../core/logger.js';
import type { ApprovalChatTransport, ChatRequestView } from '../../modules/chat-approvals/chat-ports.js';
import { createDecisionTokens } from '../../modules/chat-approvals/decision-token.js';
import { createInboxRepository, type InboxRepository } from '../inbox/inbox.repository.js';
import { createChanAApprovalChat } from './approval-chat.js';
import { createGraphClient } from './graph-client.js';
import { createTokenLifecycle } from './token-lifecycle.js';

let database: DatabaseHandle;
let graph: FakeGraphServer;
let inbox: InboxRepository;

beforeAll(async () => {
  [database, graph] = await Promise.all([createTestDatabase(), startFakeGraphServer()]);
  inbox = createInboxRepository(database.db);
});
afterAll(async () => {
  await graph?.close();
  await database?.close();
});

const PHONE_NUMBER_ID = '106540352242922';

function chanAConfig(approvalTemplate: string | null): Config['chanA'] {
  return {
    appId: null,
    appSecret: null,
    phoneNumberId: PHONE_NUMBER_ID,
    accessToken: 'approval-chat-token',
    webhookVerifyToken: null,
    allowUnsigned: false,
    phoneNumber: `1555${randomBytes(3).toString('hex')}`,
    rateLimitPerMin: 60,
    apiBaseUrl: `${graph.url}/v21.0`,
    reengagementTemplate: null,
    reengagementTemplateLanguage: 'en_US',
    approvalTemplate,
  };
}

/** The transport as chan-a.module.ts builds it: the window read from the channel inbox. */
function transportWith(approvalTemplate: string | null): ApprovalChatTransport {
  const config = chanAConfig(approvalTemplate);
  const kv = createDatabaseKeyValue(database.db);
  const client = createGraphClient({ baseUrl: config.apiBaseUrl });
  return createChanAApprovalChat({
    config,
    graph: client,
    kv,
    tokens: createTokenLifecycle({ kv, graph: client, config, logger: fallbackLogger }),
    lastInboundAt: (phone) => inbox.lastMessageAt('chanA-inbound', phone),
  });
}

/** A phone number no other test uses. */
const newPhone = () => `380${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

/** The platform delivered a message from `phone` just now, as the webhook keeps it. */
async function wrote(phone: string): Promise<void> {
  await inbox.insert([
    {
      queue: 'chanA-inbound',
      jobId: `message-${randomUUID()}`,
      jobName: 'message',
      sender: phone,
      platformOrder: Math.floor(Date.now() / 1000),
      payload: {},
      options: {},
    },
  ]);
}

const tokens = createDecisionTokens('approval-chat-test-secret');

function view(text: string, language: ChatRequestView['language'] = 'uk'): ChatRequestView {
  const requestId = randomUUID();
  return {
    text,
    language,
    buttons: [
      { decision: 'approve', label: 'Схвалити', token: tokens.sign({ requestId, decision: 'approve' }) },
      { decision: 'reject', label: 'Відхилити', token: tokens.sign({ requestId, decision: 'reject' }) },
      {
        decision: 'more',
        label: 'Більше… (редагувати, передати)',
        token: tokens.sign({ requestId, decision: 'more' }),
      },
    ],
  };
}

/** The body of the last messages call and how many calls there were. */
const lastCall = () => {
  const calls = graph.messageCalls();
  return calls[calls.length - 1]!;
};

describe('channel A approval chat', () => {
  it('inside the window sends the request as reply buttons, the tokens as their ids', async () => {
    const chat = transportWith('approval_invite');
    const phone = newPhone();
    await wrote(phone);
    const request = view(`Потрібне схвалення\n${'ж'.repeat(1100)}`);
    const before = graph.messageCalls().length;

    const result = await chat.sendRequest({ channel: 'chanA', address: phone }, request);

    expect(graph.messageCalls()).toHaveLength(before + 1);
    const call = lastCall();
    expect(result).toEqual({ kind: 'sent', platformMessageId: expect.stringMatching(/^wamid\.fake-/) });
    expect(call.path).toBe(`/${PHONE_NUMBER_ID}/messages`);
    expect(call.headers.authorization).toBe('Bearer approval-chat-token');
    const body = call.body as { interactive: { body: { text: string } } };
    expect(body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: expect.any(String) },
        action: {
          buttons: [
            { type: 'reply', reply: { id: request.buttons[0]!.token, title: 'Схвалити' } },
            { type: 'reply', reply: { id: request.buttons[1]!.token, title: 'Відхилити' } },
            // Cut to the platform's 20 characters.
            { type: 'reply', reply: { id: request.buttons[2]!.token, title: 'Більше… (редагувати…' } },
          ],
        },
      },
    });
    expect(Array.from(body.interactive.body.text)).toHaveLength(1024);
    expect(body.interactive.body.text.startsWith('Потрібне схвалення\nжжж')).toBe(true);
    expect(body.interactive.body.text.endsWith('ж…')).toBe(true);
  });

  it('outside the window sends the invitation template in the approver’s language, once while it waits', async () => {
    const chat = transportWith('approval_invite');
    const phone = newPhone();
    const before = graph.messageCalls().length;

    expect(await chat.sendRequest({ channel: 'chanA', address: phone }, view('Потрібне схвалення'))).toEqual({
      kind: 'invited',
    });
    expect(lastCall().body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'template',
      template: { name: 'approval_invite', language: { code: 'uk' } },
    });
    // A second request while the invitation waits for an answer sends nothing more.
    expect(await chat.sendRequest({ channel: 'chanA', address: phone }, view('Ще одне'))).toEqual({
      kind: 'invited',
    });
    expect(graph.messageCalls()).toHaveLength(before + 1);

    // Once they wrote, the request goes with its buttons.
    await wrote(phone);
    expect(await chat.sendRequest({ channel: 'chanA', address: phone }, view('Ще одне'))).toMatchObject({
      kind: 'sent',
    });
    expect(lastCall().body).toMatchObject({
      to: phone,
      type: 'interactive',
      interactive: { type: 'button' },
    });
  });

  it('falls back to the template when the platform says the window is closed (code 131047)', async () => {
    const chat = transportWith('approval_invite');
    const phone = newPhone();
    await wrote(phone);
    graph.replyNext('messages', graph.graphError(400, 'Re-engagement message', 131047));
    const before = graph.messageCalls().length;

    expect(
      await chat.sendRequest({ channel: 'chanA', address: phone }, view('Approval needed', 'en')),
    ).toEqual({ kind: 'invited' });
    const calls = graph.messageCalls().slice(before);
    expect(calls.map((call) => call.body.type)).toEqual(['interactive', 'template']);
    expect(calls[1]!.body.template).toEqual({ name: 'approval_invite', language: { code: 'en' } });
  });

  it('outside the window without CHANA_APPROVAL_TEMPLATE throws and sends nothing', async () => {
    const chat = transportWith(null);
    const phone = newPhone();
    const before = graph.messageCalls().length;

    await expect(
      chat.sendRequest({ channel: 'chanA', address: phone }, view('Approval needed', 'ru')),
    ).rejects.toThrow(
      `The approver is outside the 24-hour window of channel A and no invitation template is configured (CHANA_APPROVAL_TEMPLATE)`,
    );
    expect(graph.messageCalls()).toHaveLength(before);
  });

  it('throws the platform’s reason when it refuses a request', async () => {
    const chat = transportWith('approval_invite');
    const phone = newPhone();
    await wrote(phone);
    graph.replyNext('messages', graph.graphError(400, 'Invalid parameter', 100));

    await expect(
      chat.sendRequest({ channel: 'chanA', address: phone }, view('Approval needed')),
    ).rejects.toThrow('Graph API 400 (code 100): Invalid parameter');
  });

  it('sends a text, a list of choices and an outcome as a reply to the request', async () => {
    const chat = transportWith(null);
    const phone = newPhone();
    const to = { channel: 'chanA' as const, address: phone };
    const requestId = randomUUID();

    const textId = await chat.sendText(to, 'You have 7 approvals waiting.');
    expect(textId).toMatch(/^wamid\.fake-/);
    expect(lastCall().body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'text',
      text: { body: 'You have 7 approvals waiting.', preview_url: false },
    });

    const edit = tokens.sign({ requestId, decision: 'edit' });
    const escalate = tokens.sign({ requestId, decision: 'escalate' });
    await chat.sendChoices(
      to,
      'What would you like to do with this reply?',
      [
        { label: 'Edit', token: edit },
        { label: 'Escalate to someone else entirely', token: escalate },
      ],
      'Choose',
    );
    expect(lastCall().body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'What would you like to do with this reply?' },
        action: {
          button: 'Choose',
          sections: [
            {
              rows: [
                { id: edit, title: 'Edit' },
                // Cut to the platform's 24 characters.
                { id: escalate, title: 'Escalate to someone els…' },
              ],
            },
          ],
        },
      },
    });

    await chat.showOutcome(to, 'wamid.request-1', '✅ Approved by Olena at 10:42 UTC');
    expect(lastCall().body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone,
      type: 'text',
      text: { body: '✅ Approved by Olena at 10:42 UTC', preview_url: false },
      context: { message_id: 'wamid.request-1' },
    });

    const before = graph.messageCalls().length;
    await chat.answerPress({ pressId: 'wamid.press', platformMessageId: 'wamid.request-1' }, 'Done');
    expect(graph.messageCalls()).toHaveLength(before);
  });

  it('is configured with a phone number id and a token', () => {
    expect(transportWith(null).configured()).toBe(true);
    const kv = createDatabaseKeyValue(database.db);
    const config = { ...chanAConfig(null), accessToken: null };
    const client = createGraphClient({ baseUrl: config.apiBaseUrl });
    const bare = createChanAApprovalChat({
      config,
      graph: client,
      kv,
      tokens: createTokenLifecycle({ kv, graph: client, config, logger: fallbackLogger }),
      lastInboundAt: (phone) => inbox.lastMessageAt('chanA-inbound', phone),
    });
    expect(bare.configured()).toBe(false);
  });
});
