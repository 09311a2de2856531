import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChanBTestApp, chatIds, startChanBTestApp } from '../../../test/chanB-app.js';
import { CHAN_B_CORPUS, type ChanBCorpusCase } from '../../../test/fixtures/chanB-update-corpus.js';
import { waitFor } from '../../../test/pipeline-factories.js';
import { agentTasks, messages } from '../../core/db/schema/index.js';
import { updateJobId } from './poller.js';
import { botText } from './texts.js';
import { chanBMessageId } from './updates.js';

const USERNAME = 'corpus_test_bot';
let app: ChanBTestApp;
const nextChat = chatIds(8_000_000);

beforeAll(async () => {
  app = await startChanBTestApp({ token: '7000009:corpus-token', username: USERNAME });
});
afterAll(() => app?.close());

const db = () => app.ctx.container.db;

const stored = async (id: string) =>
  (
    await db()
      .select()
      .from(messages)
      .where(and(eq(messages.channel, 'chanB'), eq(messages.channelMessageId, id)))
  )[0];

const jobOf = (updateId: number) => app.ctx.container.queue.getJob('chanB-inbound', updateJobId(updateId));

/** The stored id of the update's message, when it carries one. */
function storedIdOf(update: Record<string, unknown>): string | null {
  const message = (update.message ?? update.edited_message ?? update.channel_post) as
    | { message_id: number; chat: { id: number } }
    | undefined;
  return message ? chanBMessageId(message.chat.id, message.message_id) : null;
}

/** Pushes a case's update to the fake Bot API and checks it comes to its documented outcome. */
async function runCase(corpusCase: ChanBCorpusCase) {
  const user = nextChat();
  const { update, expect: expected } = corpusCase.build({
    user,
    group: -1_000_000_000_000 - user,
    botUsername: USERNAME,
  });
  const updateId = app.bot.pushUpdate(update);
  const storedId = storedIdOf(update);
  const what = `${corpusCase.name} (update ${updateId})`;
  switch (expected.outcome) {
    case 'message': {
      const row = await waitFor(what, () => stored(storedId!));
      expect(row.content, corpusCase.name).toBe(expected.text);
      if (expected.contentType) expect(row.metadata).toMatchObject({ contentType: expected.contentType });
      await waitFor(`the task of ${what}`, async () => {
        const [task] = await db().select().from(agentTasks).where(eq(agentTasks.messageId, row.id));
        return task;
      });
      return;
    }
    case 'bot_reply': {
      const row = await waitFor(what, () => stored(storedId!));
      expect(row.metadata, corpusCase.name).toMatchObject({ botReply: expected.reply });
      const text = botText(expected.reply, 'en');
      await waitFor(`the bot's reply to ${what}`, () =>
        app.bot.sent.some((sent) => sent.chatId === String(user) && sent.plain === text),
      );
      return;
    }
    case 'feedback': {
      await waitFor(what, async () => (await jobOf(updateId))?.state === 'completed');
      if (expected.answered) {
        const query = (update.callback_query as { id: string }).id;
        await waitFor(`the answer to ${what}`, () =>
          app.bot.answered.some((a) => a.callbackQueryId === query),
        );
      }
      if (storedId) expect(await stored(storedId)).toBeUndefined();
      return;
    }
    case 'ignored':
      await waitFor(`${what} taken`, () => !app.bot.pendingUpdates().includes(updateId));
      expect(await jobOf(updateId), corpusCase.name).toBeFalsy();
      if (storedId) expect(await stored(storedId)).toBeUndefined();
      expect(app.bot.sent.some((sent) => sent.chatId === String(user))).toBe(false);
  }
}

describe('channel B update corpus', () => {
  it('holds at least 20 distinct update kinds', () => {
    expect(CHAN_B_CORPUS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(CHAN_B_CORPUS.map((c) => c.name)).size).toBe(CHAN_B_CORPUS.length);
  });

  it('polls every update and each comes to its documented outcome', async () => {
    await Promise.all(CHAN_B_CORPUS.map(runCase));
    // The poller never stalled on one of them: every update was confirmed.
    expect(app.bot.pendingUpdates()).toEqual([]);
  });
});
