import { randomUUID } from 'node:crypto';
import type { Update } from 'grammy/types';
import { describe, expect, it } from 'vitest';
import { feedbackData, parseFeedbackData, parseUpdate } from '../../channels/chan-b/updates.js';
import { ratingOfEmoji } from './reactions.js';

describe('ratingOfEmoji', () => {
  it('reads 👍 as up and 👎 as down in every skin tone, with or without the presentation selector', () => {
    for (const tone of ['', '\u{1F3FB}', '\u{1F3FC}', '\u{1F3FD}', '\u{1F3FE}', '\u{1F3FF}', '\uFE0F']) {
      expect(ratingOfEmoji(`👍${tone}`)).toBe('up');
      expect(ratingOfEmoji(`👎${tone}`)).toBe('down');
    }
  });

  it('reads no emoji as a removal and any other emoji as saying nothing', () => {
    expect(ratingOfEmoji('')).toBeNull();
    expect(ratingOfEmoji(null)).toBeNull();
    for (const other of ['❤️', '😂', '👍👍', '👌', 'up', '?']) expect(ratingOfEmoji(other)).toBeUndefined();
  });
});

describe('channel B rating data and updates', () => {
  it('round-trips a reply id through callback data of at most 64 bytes, and refuses anything else', () => {
    const id = randomUUID();
    for (const rating of ['up', 'down'] as const) {
      const data = feedbackData(rating, id);
      expect(Buffer.byteLength(data)).toBe(37);
      expect(parseFeedbackData(data)).toEqual({ rating, messageId: id });
    }
    for (const bad of [
      '',
      'fb:u:',
      `fb:x:${'a'.repeat(32)}`,
      `fb:u:${'g'.repeat(32)}`,
      `fb:u:${'a'.repeat(33)}`,
    ]) {
      expect(parseFeedbackData(bad)).toBeNull();
    }
  });

  it('reads a button press and a reaction of a private chat as feedback, and leaves out groups and bots', () => {
    const chat = { id: 5, type: 'private', first_name: 'Olena' };
    const from = { id: 5, is_bot: false, first_name: 'Olena', language_code: 'uk' };
    const press = parseUpdate({
      update_id: 1,
      callback_query: {
        id: 'q1',
        from,
        chat_instance: '5',
        data: 'fb:u:x',
        message: { message_id: 9, date: 0, chat },
      },
    } as unknown as Update);
    expect(press).toMatchObject({
      kind: 'feedback',
      userId: '5',
      chatId: '5',
      language: 'uk',
      feedback: { via: 'button', callbackQueryId: 'q1', data: 'fb:u:x' },
    });
    const reaction = (newReaction: unknown[], extra: Record<string, unknown> = {}) =>
      parseUpdate({
        update_id: 2,
        message_reaction: {
          chat,
          message_id: 9,
          user: from,
          date: 0,
          old_reaction: [],
          new_reaction: newReaction,
          ...extra,
        },
      } as unknown as Update);
    expect(
      reaction([
        { type: 'emoji', emoji: '🔥' },
        { type: 'emoji', emoji: '👎🏽' },
      ])?.feedback,
    ).toEqual({
      via: 'reaction',
      messageId: `${chat.id}-9`,
      emoji: '👎🏽',
    });
    expect(reaction([])?.feedback).toMatchObject({ emoji: '' });
    const custom = reaction([{ type: 'custom_emoji', custom_emoji_id: '1' }])?.feedback;
    expect(custom?.via === 'reaction' && ratingOfEmoji(custom.emoji)).toBeUndefined();
    expect(reaction([{ type: 'emoji', emoji: '👍' }], { chat: { id: -100, type: 'supergroup' } })).toBeNull();
    expect(reaction([{ type: 'emoji', emoji: '👍' }], { user: undefined, actor_chat: chat })).toBeNull();
    expect(reaction([{ type: 'emoji', emoji: '👍' }], { user: { ...from, is_bot: true } })).toBeNull();
  });
});
