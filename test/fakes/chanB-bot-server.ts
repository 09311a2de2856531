import type { ServerResponse } from 'node:http';
import { startHttpServer } from '../http-server.js';

/** One call the fake received. */
export interface BotCall {
  /** Bot API method, e.g. `getUpdates`, `sendMessage`. */
  method: string;
  /** The token the call named in its path (`/bot<token>/<method>`). */
  token: string;
  body: Record<string, unknown>;
  /** The answer's HTTP status (0 while a long poll is still held). */
  status: number;
  /** Position among all calls, from 1 (order of arrival). */
  seq: number;
}

/** A canned answer for the next call of one method. */
export interface BotReply {
  status: number;
  body: unknown;
}

/** A message the fake accepted with `sendMessage`. */
export interface SentMessage {
  messageId: number;
  chatId: string;
  text: string;
  parseMode: string | null;
  /** The text as a client displays it (MarkdownV2 or HTML markup removed). */
  plain: string;
  /** The `reply_markup` sent with it (the inline keyboard), null when none. */
  replyMarkup: Record<string, unknown> | null;
}

/** A message changed with `editMessageText`: what it reads now. */
export interface EditedMessage {
  messageId: number;
  chatId: string;
  text: string;
  parseMode: string | null;
  plain: string;
  /** The `reply_markup` sent with the edit; null or an empty keyboard removes the buttons. */
  replyMarkup: Record<string, unknown> | null;
}

/** A button press answered with `answerCallbackQuery`. */
export interface AnsweredCallback {
  callbackQueryId: string;
  /** The toast shown, null when none. */
  text: string | null;
}

/** An update as a test pushes it: everything but `update_id`, which the fake assigns. */
export type PushedUpdate = Record<string, unknown>;

const RESERVED = '_*[]()~`>#+-=|{}.!';
const MAX_TEXT = 4096;
const HTML_TAGS = new Set([
  'b',
  'strong',
  'i',
  'em',
  'u',
  'ins',
  's',
  'strike',
  'del',
  'span',
  'tg-spoiler',
  'a',
  'code',
  'pre',
  'blockquote',
  'tg-emoji',
]);

class EntityError extends Error {}

const ENTITY_NAMES: Record<string, string> = {
  bold: 'Bold',
  italic: 'Italic',
  underline: 'Underline',
  strike: 'Strikethrough',
  spoiler: 'Spoiler',
  code: 'Code',
  pre: 'Pre',
  link: 'TextUrl',
};

/**
 * Parses MarkdownV2 the way the Bot API does, strictly: every reserved
 * character outside an entity marker must be escaped with `\`, entities must
 * nest and close, inside code only `` ` `` and `\` are escaped, inside a link
 * address only `)` and `\`. Answers the displayed text or throws an
 * {@link EntityError} with the platform's wording.
 */
export function parseMarkdownV2(text: string): string {
  const offset = (i: number) => Buffer.byteLength(text.slice(0, i), 'utf8');
  const stack: Array<{ type: string; at: number }> = [];
  let plain = '';
  let i = 0;
  const toggle = (type: string, width: number) => {
    const top = stack.at(-1);
    if (top?.type === type) stack.pop();
    else if (stack.some((e) => e.type === type))
      throw new EntityError(
        `Can't find end of ${ENTITY_NAMES[top?.type ?? type]} entity at byte offset ${offset(top?.at ?? i)}`,
      );
    else stack.push({ type, at: i });
    i += width;
  };
  while (i < text.length) {
    const c = text[i] as string;
    const top = stack.at(-1);
    if (top?.type === 'code' || top?.type === 'pre') {
      if (c === '\\' && (text[i + 1] === '`' || text[i + 1] === '\\')) {
        plain += text[i + 1];
        i += 2;
      } else if (top.type === 'pre' && text.startsWith('```', i)) {
        stack.pop();
        i += 3;
      } else if (top.type === 'code' && c === '`') {
        stack.pop();
        i += 1;
      } else if (c === '`') {
        throw new EntityError(`Can't find end of Pre entity at byte offset ${offset(top.at)}`);
      } else {
        plain += c;
        i += 1;
      }
      continue;
    }
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined || next.charCodeAt(0) > 126)
        throw new EntityError(`Character '\\' is reserved and must be escaped with the preceding '\\'`);
      plain += next;
      i += 2;
      continue;
    }
    if (text.startsWith('```', i)) {
      stack.push({ type: 'pre', at: i });
      i += 3;
      const language = /^[A-Za-z0-9_+-]*\n/.exec(text.slice(i));
      if (language) i += language[0].length;
      continue;
    }
    if (c === '`') {
      stack.push({ type: 'code', at: i });
      i += 1;
      continue;
    }
    if (c === '*') {
      toggle('bold', 1);
      continue;
    }
    if (c === '_') {
      if (text[i + 1] === '_') toggle('underline', 2);
      else toggle('italic', 1);
      continue;
    }
    if (c === '~') {
      toggle('strike', 1);
      continue;
    }
    if (c === '|' && text[i + 1] === '|') {
      toggle('spoiler', 2);
      continue;
    }
    if (c === '[') {
      stack.push({ type: 'link', at: i });
      i += 1;
      continue;
    }
    if (c === ']' && top?.type === 'link') {
      if (text[i + 1] !== '(')
        throw new EntityError(`Can't find end of a URL at byte offset ${offset(i + 1)}`);
      let j = i + 2;
      let url = '';
      while (j < text.length && text[j] !== ')') {
        if (text[j] === '\\') j += 1;
        url += text[j] ?? '';
        j += 1;
      }
      if (j >= text.length) throw new EntityError(`Can't find end of a URL at byte offset ${offset(i + 1)}`);
      if (!/^(https?|tg|mailto):/i.test(url)) throw new EntityError(`Wrong HTTP URL specified`);
      stack.pop();
      i = j + 1;
      continue;
    }
    // A quotation marker is allowed at the start of a line only.
    if (c === '>' && (i === 0 || text[i - 1] === '\n')) {
      i += 1;
      continue;
    }
    if (RESERVED.includes(c))
      throw new EntityError(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);
    plain += c;
    i += 1;
  }
  const open = stack.at(-1);
  if (open)
    throw new EntityError(
      `Can't find end of ${ENTITY_NAMES[open.type]} entity at byte offset ${offset(open.at)}`,
    );
  return plain;
}

/** Parses the Bot API's HTML subset strictly (known tags, balanced, `<` and `&` escaped). Answers the displayed text. */
export function parseBotHtml(text: string): string {
  const stack: string[] = [];
  let plain = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '<') {
      const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z-]+="[^"<]*")*)\s*>/.exec(text.slice(i));
      if (!tag)
        throw new EntityError(`Unexpected end tag at byte offset ${Buffer.byteLength(text.slice(0, i))}`);
      const [whole, closing, rawName] = tag;
      const name = (rawName ?? '').toLowerCase();
      if (!HTML_TAGS.has(name)) throw new EntityError(`Unsupported start tag "${name}" at byte offset ${i}`);
      if (closing) {
        if (stack.pop() !== name)
          throw new EntityError(`Unmatched end tag at byte offset ${i}, expected "</${name}>"`);
      } else stack.push(name);
      i += whole.length;
      continue;
    }
    if (c === '&') {
      const entity = /^&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);/.exec(text.slice(i));
      if (!entity) throw new EntityError(`Unsupported HTML entity at byte offset ${i}`);
      const decoded: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
      const name = entity[1] as string;
      plain +=
        decoded[name] ??
        String.fromCodePoint(Number(name.startsWith('#x') ? `0x${name.slice(2)}` : name.slice(1)));
      i += entity[0].length;
      continue;
    }
    plain += c;
    i += 1;
  }
  if (stack.length > 0)
    throw new EntityError(`Can't find end tag corresponding to start tag "${stack.at(-1)}"`);
  return plain;
}

/**
 * A real HTTP server on 127.0.0.1 speaking the parts of the Telegram Bot API
 * that channel B uses, at `/bot<token>/<method>` (JSON bodies):
 *
 * - `getMe`, `deleteWebhook` (a webhook set with `setWebhookActive(true)`
 *   makes `getUpdates` answer 409 until it is deleted);
 * - `getUpdates`: long polling honouring `offset` (confirms every update
 *   below it) and `timeout` (the request is held until an update is pushed
 *   or the timeout passes); a second `getUpdates` while one is held ends the
 *   held one with 409 Conflict, as the platform does;
 * - `sendMessage`: records `reply_markup` (an inline keyboard, checked: a text
 *   and 1-64 bytes of callback data per button) and checks `parse_mode` strictly (MarkdownV2 reserved
 *   characters, balanced entities; the HTML subset) and answers
 *   `400 Bad Request: can't parse entities: …` like the platform; texts over
 *   4,096 characters answer `400 Bad Request: message is too long`;
 * - `editMessageText`: only a message the bot sent, recorded in `edited`; the
 *   same text and keyboard again answer `400 Bad Request: message is not
 *   modified`, an unknown message `400 Bad Request: message to edit not found`;
 *   `messageAt` reads a message as it stands;
 * - `answerCallbackQuery`: recorded in `answered`.
 *
 * A token other than the one given answers 401. `replyNext(method, reply)`
 * queues a canned answer (409, 429 with `parameters.retry_after`, 500…) for
 * a coming call of that method. Every call is recorded in order.
 */
export async function startFakeBotServer(options: { token: string; username?: string }) {
  const calls: BotCall[] = [];
  const sent: SentMessage[] = [];
  const answered: AnsweredCallback[] = [];
  const edited: EditedMessage[] = [];
  /** The bot's messages as they read now (after edits), by `<chat id>:<message id>`. */
  const current = new Map<string, EditedMessage>();
  const canned = new Map<string, Array<{ reply: BotReply; after: number }>>();
  const pending: Array<Record<string, unknown> & { update_id: number }> = [];
  const refusedModes = new Set<string>();
  let nextUpdateId = 100_000;
  // Message ids count per chat, as the Bot API numbers them: two chats both have a message 1.
  const lastMessageId = new Map<string, number>();
  const nextMessageId = (chatId: string | number) => {
    const next = (lastMessageId.get(String(chatId)) ?? 0) + 1;
    lastMessageId.set(String(chatId), next);
    return next;
  };
  let nextCallbackId = 1;
  let webhookActive = false;
  let seq = 0;
  /** The getUpdates request being held, woken when an update is pushed or ended by a newer one. */
  let held: { wake: () => void; conflict: () => void } | null = null;
  let maxConcurrentPolls = 0;
  let polling = 0;

  const send = (res: ServerResponse, call: BotCall | null, reply: BotReply) => {
    if (call) call.status = reply.status;
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.body));
  };
  const ok = (result: unknown): BotReply => ({ status: 200, body: { ok: true, result } });
  const error = (status: number, description: string, parameters?: Record<string, unknown>): BotReply => ({
    status,
    body: { ok: false, error_code: status, description, ...(parameters ? { parameters } : {}) },
  });

  async function getUpdates(body: Record<string, unknown>, call: BotCall, res: ServerResponse) {
    if (webhookActive)
      return send(
        res,
        call,
        error(
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        ),
      );
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    // Confirms every update below the offset, as the platform does.
    while (pending.length > 0 && (pending[0]?.update_id ?? 0) < offset) pending.shift();
    const limit = typeof body.limit === 'number' ? body.limit : 100;
    const timeoutSec = typeof body.timeout === 'number' ? body.timeout : 0;
    held?.conflict();
    const ready = () => pending.filter((u) => u.update_id >= offset).slice(0, limit);
    if (ready().length > 0 || timeoutSec === 0) return send(res, call, ok(ready()));
    polling += 1;
    maxConcurrentPolls = Math.max(maxConcurrentPolls, polling);
    const outcome = await new Promise<'wake' | 'conflict' | 'timeout' | 'gone'>((resolve) => {
      const finish = (how: 'wake' | 'conflict' | 'timeout' | 'gone') => {
        clearTimeout(timer);
        if (held === me) held = null;
        resolve(how);
      };
      const timer = setTimeout(() => finish('timeout'), timeoutSec * 1000);
      const me = { wake: () => finish('wake'), conflict: () => finish('conflict') };
      held = me;
      res.on('close', () => finish('gone'));
    });
    polling -= 1;
    if (outcome === 'gone') {
      call.status = 499;
      return;
    }
    if (outcome === 'conflict')
      return send(
        res,
        call,
        error(
          409,
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
        ),
      );
    return send(res, call, ok(ready()));
  }

  /** The displayed text of a call's `text` in its `parse_mode`, or the platform's refusal. */
  function readText(body: Record<string, unknown>): { plain: string; parseMode: string | null } | BotReply {
    const text = typeof body.text === 'string' ? body.text : '';
    const parseMode = typeof body.parse_mode === 'string' ? body.parse_mode : null;
    if (!text.trim()) return error(400, 'Bad Request: message text is empty');
    let plain = text;
    try {
      if (parseMode && refusedModes.has(parseMode))
        throw new EntityError(`Can't find end of the entity starting at byte offset 0`);
      if (parseMode === 'MarkdownV2') plain = parseMarkdownV2(text);
      else if (parseMode === 'HTML') plain = parseBotHtml(text);
      else if (parseMode !== null) return error(400, `Bad Request: unsupported parse_mode`);
    } catch (failure) {
      if (failure instanceof EntityError)
        return error(400, `Bad Request: can't parse entities: ${failure.message}`);
      throw failure;
    }
    if (plain.length > MAX_TEXT) return error(400, 'Bad Request: message is too long');
    return { plain, parseMode };
  }

  function sendMessage(body: Record<string, unknown>, call: BotCall, res: ServerResponse) {
    const chatId = body.chat_id;
    if (chatId === undefined || chatId === null || chatId === '')
      return send(res, call, error(400, 'Bad Request: chat_id is empty'));
    const read = readText(body);
    if ('status' in read) return send(res, call, read);
    const replyMarkup = readMarkup(body.reply_markup);
    if (replyMarkup === undefined)
      return send(res, call, error(400, "Bad Request: can't parse reply keyboard markup JSON object"));
    const messageId = nextMessageId(String(chatId));
    const message = { messageId, chatId: String(chatId), text: String(body.text), ...read, replyMarkup };
    sent.push(message);
    current.set(`${message.chatId}:${messageId}`, { ...message });
    return send(
      res,
      call,
      ok({
        message_id: messageId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: Number(chatId), type: 'private' },
        text: read.plain,
        ...(replyMarkup ? { reply_markup: replyMarkup } : {}),
      }),
    );
  }

  /** An inline keyboard's buttons as compared for "not modified": none and an empty keyboard are the same. */
  const buttonsOf = (markup: Record<string, unknown> | null) => JSON.stringify(markup?.inline_keyboard ?? []);

  function editMessageText(body: Record<string, unknown>, call: BotCall, res: ServerResponse) {
    const chatId = String(body.chat_id ?? '');
    const messageId = Number(body.message_id);
    if (!chatId) return send(res, call, error(400, 'Bad Request: chat_id is empty'));
    const message = current.get(`${chatId}:${messageId}`);
    if (!message) return send(res, call, error(400, 'Bad Request: message to edit not found'));
    const read = readText(body);
    if ('status' in read) return send(res, call, read);
    const replyMarkup = readMarkup(body.reply_markup);
    if (replyMarkup === undefined)
      return send(res, call, error(400, "Bad Request: can't parse reply keyboard markup JSON object"));
    if (message.plain === read.plain && buttonsOf(message.replyMarkup) === buttonsOf(replyMarkup))
      return send(
        res,
        call,
        error(
          400,
          'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        ),
      );
    const now = { messageId, chatId, text: String(body.text), ...read, replyMarkup };
    current.set(`${chatId}:${messageId}`, now);
    edited.push({ ...now });
    return send(
      res,
      call,
      ok({
        message_id: messageId,
        date: Math.floor(Date.now() / 1000),
        edit_date: Math.floor(Date.now() / 1000),
        chat: { id: Number(chatId), type: 'private' },
        text: read.plain,
        ...(replyMarkup && buttonsOf(replyMarkup) !== '[]' ? { reply_markup: replyMarkup } : {}),
      }),
    );
  }

  /**
   * The reply markup of a call, as the platform checks it: an inline keyboard whose buttons
   * each have a text and callback data of 1-64 bytes; undefined when it is malformed.
   */
  function readMarkup(value: unknown): Record<string, unknown> | null | undefined {
    if (value === undefined || value === null) return null;
    const markup = (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
    const rows = markup.inline_keyboard;
    if (!Array.isArray(rows)) return undefined;
    for (const row of rows) {
      if (!Array.isArray(row)) return undefined;
      for (const button of row as Array<Record<string, unknown>>) {
        const data = button.callback_data;
        if (typeof button.text !== 'string' || !button.text) return undefined;
        if (typeof data !== 'string' || Buffer.byteLength(data) < 1 || Buffer.byteLength(data) > 64)
          return undefined;
      }
    }
    return markup;
  }

  function answerCallbackQuery(body: Record<string, unknown>, call: BotCall, res: ServerResponse) {
    const id = body.callback_query_id;
    if (typeof id !== 'string' || !id) return send(res, call, error(400, 'Bad Request: query is empty'));
    answered.push({ callbackQueryId: id, text: typeof body.text === 'string' ? body.text : null });
    return send(res, call, ok(true));
  }

  const server = await startHttpServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return send(res, null, error(404, 'Not Found'));
    const [, token = '', method = ''] = match;
    let body: Record<string, unknown> = Object.fromEntries(url.searchParams);
    if (chunks.length > 0) {
      try {
        body = {
          ...body,
          ...(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>),
        };
      } catch {
        return send(res, null, error(400, 'Bad Request: invalid JSON'));
      }
    }
    const call: BotCall = { method, token, body, status: 0, seq: ++seq };
    calls.push(call);
    if (token !== options.token) return send(res, call, error(401, 'Unauthorized'));
    const queue = canned.get(method) ?? [];
    const head = queue[0];
    if (head && head.after > 0) head.after -= 1;
    else if (head) {
      queue.shift();
      return send(res, call, head.reply);
    }
    switch (method) {
      case 'getMe':
        return send(
          res,
          call,
          ok({
            id: 7_000_001,
            is_bot: true,
            first_name: 'Assistant',
            username: options.username ?? 'assistant_test_bot',
          }),
        );
      case 'deleteWebhook':
        webhookActive = false;
        return send(res, call, ok(true));
      case 'getUpdates':
        return getUpdates(body, call, res);
      case 'sendMessage':
        return sendMessage(body, call, res);
      case 'editMessageText':
        return editMessageText(body, call, res);
      case 'answerCallbackQuery':
        return answerCallbackQuery(body, call, res);
      default:
        return send(res, call, error(404, 'Not Found: method not found'));
    }
  });

  return {
    url: server.url,
    token: options.token,
    /** Every call so far, in order of arrival. */
    calls,
    /** Messages accepted by `sendMessage`, in order. */
    sent,
    /** Button presses answered with `answerCallbackQuery`, in order. */
    answered,
    /** Messages changed with `editMessageText`, in order (each as it read after the edit). */
    edited,
    /** One of the bot's messages as it reads now (after any edits), undefined when the bot sent none so. */
    messageAt: (chatId: string | number, messageId: number): EditedMessage | undefined => {
      const message = current.get(`${chatId}:${messageId}`);
      return message ? { ...message } : undefined;
    },
    /** Calls of one method, in order. */
    callsOf: (method: string) => calls.filter((c) => c.method === method),
    /** The most `getUpdates` requests ever held at the same time. */
    maxConcurrentPolls: () => maxConcurrentPolls,
    /** Updates not yet confirmed by an offset. */
    pendingUpdates: () => pending.map((u) => u.update_id),
    /**
     * Queues an update (`update_id` assigned, increasing) and wakes a held
     * `getUpdates`. Answers the update id.
     */
    pushUpdate(update: PushedUpdate): number {
      const updateId = nextUpdateId++;
      pending.push({ ...update, update_id: updateId });
      held?.wake();
      return updateId;
    },
    /** A private-chat text message update from `userId` (chat id = user id). */
    textUpdate(
      userId: number,
      text: string,
      extra: { languageCode?: string; firstName?: string } = {},
    ): PushedUpdate {
      return {
        message: {
          message_id: nextMessageId(userId),
          date: Math.floor(Date.now() / 1000),
          chat: { id: userId, type: 'private', first_name: extra.firstName ?? 'Olena' },
          from: {
            id: userId,
            is_bot: false,
            first_name: extra.firstName ?? 'Olena',
            ...(extra.languageCode ? { language_code: extra.languageCode } : {}),
          },
          text,
          ...(text.startsWith('/')
            ? { entities: [{ type: 'bot_command', offset: 0, length: text.split(/\s/)[0]?.length ?? 1 }] }
            : {}),
        },
      };
    },
    /**
     * A press of an inline button with `data` under message `messageId` of the private chat
     * of `chatId`, by `fromId` (the chat's user unless given). Answers the update.
     */
    callbackUpdate(chatId: number, messageId: number, data: string, fromId = chatId): PushedUpdate {
      const message = current.get(`${chatId}:${messageId}`);
      return {
        callback_query: {
          id: `cb${nextCallbackId++}`,
          from: { id: fromId, is_bot: false, first_name: 'Olena' },
          message: {
            message_id: messageId,
            date: Math.floor(Date.now() / 1000),
            chat: { id: chatId, type: 'private', first_name: 'Olena' },
            // The message as it reads now, as the platform sends it with the press.
            text: message?.plain ?? 'reply',
            ...(message?.replyMarkup ? { reply_markup: message.replyMarkup } : {}),
          },
          chat_instance: String(chatId),
          data,
        },
      };
    },
    /**
     * A change of `userId`'s reaction to message `messageId` of the private chat of `chatId`
     * (the user's unless given): `emoji` now set, none when the reaction was removed.
     */
    reactionUpdate(userId: number, messageId: number, emoji: string[], chatId = userId): PushedUpdate {
      return {
        message_reaction: {
          chat: { id: chatId, type: 'private', first_name: 'Olena' },
          message_id: messageId,
          user: { id: userId, is_bot: false, first_name: 'Olena' },
          date: Math.floor(Date.now() / 1000),
          old_reaction: [],
          new_reaction: emoji.map((e) => ({ type: 'emoji', emoji: e })),
        },
      };
    },
    /**
     * Queues a canned answer for a coming call of `method`: the next one, or
     * the one after `after` calls served normally.
     */
    replyNext(method: string, reply: BotReply, after = 0) {
      const list = canned.get(method) ?? [];
      list.push({ reply, after });
      canned.set(method, list);
    },
    /** A Bot API error answer: `{ ok: false, error_code, description, parameters? }`. */
    error,
    /** Makes `sendMessage` refuse a parse mode's entities (to exercise a fallback). */
    refuseParseMode(mode: 'MarkdownV2' | 'HTML') {
      refusedModes.add(mode);
    },
    /** As if a webhook were set: `getUpdates` answers 409 until `deleteWebhook`. */
    setWebhookActive(active: boolean) {
      webhookActive = active;
    },
    close: () => {
      held?.conflict();
      return server.close();
    },
  };
}

export type FakeBotServer = Awaited<ReturnType<typeof startFakeBotServer>>;
