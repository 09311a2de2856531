import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createKnowledgeBase, createUser, type TestUser } from '../../../test/factories.js';
import { multipartBody } from '../../../test/files.js';
import {
  createPipelineScene,
  usePipelineTestApp,
  VACATION_QUESTION,
  waitFor,
} from '../../../test/pipeline-factories.js';
import { approvals, notifications, users } from '../../core/db/schema/index.js';

const ctx = usePipelineTestApp({}, { workers: true });

async function speaks(user: TestUser, language: 'en' | 'uk' | 'ru' | null) {
  await ctx.container.db.update(users).set({ language }).where(eq(users.id, user.user.id));
}

/** The user's notifications of `type`, once there is one. */
function inboxOf(user: TestUser, type: string) {
  return waitFor(`a ${type} notification for ${user.user.email}`, async () => {
    const rows = await ctx.container.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, user.user.id), eq(notifications.type, type)));
    return rows.length > 0 ? rows : null;
  });
}

describe('notifications in the recipient’s language', () => {
  it('writes one approval_pending per approver, each in their own language (none: English)', async () => {
    const { container } = ctx;
    const scene = await createPipelineScene(container);
    const ukrainian = await createUser(container, { role: 'approver', departmentId: scene.departmentId });
    const russian = await createUser(container, { role: 'approver', departmentId: scene.departmentId });
    const unset = await createUser(container, { role: 'approver', departmentId: scene.departmentId });
    await speaks(ukrainian, 'uk');
    await speaks(russian, 'ru');

    await container.pipeline.inbound.receive({
      channel: 'chanA',
      channelUserId: scene.phone,
      text: VACATION_QUESTION,
    });

    const [uk] = await inboxOf(ukrainian, 'approval_pending');
    const [ru] = await inboxOf(russian, 'approval_pending');
    const [en] = await inboxOf(unset, 'approval_pending');
    expect(uk).toMatchObject({ title: 'Відповідь чекає на схвалення', body: VACATION_QUESTION });
    expect(ru).toMatchObject({ title: 'Ответ ждёт одобрения', body: VACATION_QUESTION });
    expect(en).toMatchObject({ title: 'Reply awaiting approval', body: VACATION_QUESTION });
    // One event, one approval: the three rows point at it.
    const [approval] = await container.db.select().from(approvals).where(eq(approvals.id, uk!.entityId!));
    expect(approval?.departmentId).toBe(scene.departmentId);
    expect(new Set([uk!.entityId, ru!.entityId, en!.entityId]).size).toBe(1);
  });

  it('tells each uploader their document is ready in their language (none: English)', async () => {
    const upload = async (language: 'uk' | null) => {
      const uploader = await createUser(ctx.container);
      await speaks(uploader, language);
      const base = await createKnowledgeBase(ctx.container, { departmentId: uploader.user.departmentId });
      const { body, contentType } = multipartBody({
        knowledgeBaseId: base.id,
        title: 'Відпустки',
        file: { filename: 'leave.txt', content: Buffer.from('Annual leave is twenty four days.\n') },
      });
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/knowledge/upload',
        headers: { ...uploader.headers, 'content-type': contentType },
        payload: body,
      });
      expect(res.statusCode).toBe(201);
      return uploader;
    };
    const [ukrainian, unset] = [await upload('uk'), await upload(null)];

    expect(await inboxOf(ukrainian, 'document_ready')).toEqual([
      expect.objectContaining({
        title: 'Документ «Відпустки» готовий',
        body: 'Проіндексовано фрагментів: 1.',
      }),
    ]);
    expect(await inboxOf(unset, 'document_ready')).toEqual([
      expect.objectContaining({ title: 'Document "Відпустки" is ready', body: '1 passage was indexed.' }),
    ]);
  });
});
