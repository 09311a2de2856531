import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser, TEST_PASSWORD } from '../../../test/factories.js';
import {
  chunked,
  corruptPng,
  cutBody,
  multipartBody,
  PNG_SIGNATURE,
  paddedPng,
  pngDeclaring,
  solidImage,
  tinyJpeg,
  tinyPng,
} from '../../../test/files.js';
import { securityChecks } from '../../../test/security.js';
import { auditLogs } from '../../core/db/schema/index.js';
import { onRevocation, type Revocation } from '../../core/realtime/revocations.js';
import { AVATAR_MAX_BYTES } from './avatar-storage.js';

const ctx = useTestApp();

const me = (headers: Record<string, string>) => ctx.app.inject({ url: '/api/v1/me', headers });

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/me' });
securityChecks(() => ctx, { method: 'POST', url: '/api/v1/me/logout-all' });
securityChecks(() => ctx, {
  method: 'POST',
  url: '/api/v1/me/change-password',
  payload: { currentPassword: TEST_PASSWORD, newPassword: 'next-pass-2' },
});
securityChecks(() => ctx, { method: 'POST', url: '/api/v1/me/avatar' });
securityChecks(() => ctx, { method: 'DELETE', url: '/api/v1/me/avatar' });

describe('GET /me', () => {
  it('answers the user, department, profile, role, effective access and capabilities', async () => {
    const other = await createUser(ctx.container);
    const caller = await createUser(ctx.container, {
      role: 'approver',
      extraPermissions: ['canViewAudit'],
      revokedPermissions: ['canEscalate'],
      extraDepartmentIds: [other.user.departmentId],
    });
    const res = await me(caller.headers);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      id: caller.user.id,
      role: 'approver',
      avatarUrl: null,
      isActive: true,
    });
    expect(body.department.id).toBe(caller.user.departmentId);
    expect(body.profile).toMatchObject({ summary: '', currentProjects: [] });
    expect(body.role).toMatchObject({ slug: 'approver', isSystem: true, allDepartments: false });
    expect(body.isGlobal).toBe(false);
    expect(body.effectivePermissions.sort()).toEqual(
      ['canApprove', 'canViewKnowledge', 'canUploadDocuments', 'canGenerateDocuments', 'canViewAudit'].sort(),
    );
    expect(body.effectiveDepartmentIds.sort()).toEqual(
      [caller.user.departmentId, other.user.departmentId].sort(),
    );
    expect(body.capabilities).toEqual({
      approvals: true,
      knowledge: true,
      namespaces: false,
      departments: false,
      users: false,
      employeeProfiles: false,
      roles: false,
      audit: true,
      templates: true,
      settings: false,
    });
  });

  it('shows a department or profile change on the next request, although it caches both', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const caller = await createUser(ctx.container, { departmentId: admin.user.departmentId });
    expect((await me(caller.headers)).json().department.name).not.toBe('Renamed department');
    const renamed = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/departments/${caller.user.departmentId}`,
      headers: admin.headers,
      payload: { name: 'Renamed department' },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await me(caller.headers)).json().department.name).toBe('Renamed department');

    const profile = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/v1/employees/${caller.user.id}/profile`,
      headers: caller.headers,
      payload: { summary: 'Works on the payroll migration' },
    });
    expect(profile.statusCode).toBe(200);
    expect((await me(caller.headers)).json().profile.summary).toBe('Works on the payroll migration');
  });

  it('renames the caller with PATCH /me, leaving the language as it was; a blank or long name is 422', async () => {
    const caller = await createUser(ctx.container, { name: 'Old Name' });
    const patch = (payload: Record<string, unknown>) =>
      ctx.app.inject({ method: 'PATCH', url: '/api/v1/me', headers: caller.headers, payload });
    expect((await patch({ language: 'ru' })).statusCode).toBe(200);
    const renamed = await patch({ name: 'Olena Kovalenko' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().user).toMatchObject({ name: 'Olena Kovalenko', language: 'ru' });
    expect((await me(caller.headers)).json().user.name).toBe('Olena Kovalenko');
    for (const name of ['', 'x'.repeat(201)]) {
      const refused = await patch({ name });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error).toBe('ValidationError');
    }
    expect((await me(caller.headers)).json().user.name).toBe('Olena Kovalenko');
  });

  it('never returns the password hash or token version', async () => {
    const caller = await createUser(ctx.container);
    const text = (await me(caller.headers)).body;
    expect(text).not.toContain('passwordHash');
    expect(text).not.toContain('$argon2');
    expect(text).not.toContain('tokenVersion');
  });

  it('answers 401 once the user is deactivated', async () => {
    const caller = await createUser(ctx.container);
    await ctx.container.repositories.users.update(caller.user.id, { isActive: false });
    expect((await me(caller.headers)).statusCode).toBe(401);
  });
});

describe('POST /me/change-password', () => {
  it('returns a fresh token, and the old one answers 401', async () => {
    const caller = await createUser(ctx.container);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/change-password',
      headers: caller.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'next-pass-2' },
    });
    expect(res.statusCode).toBe(200);
    expect((await me(caller.headers)).statusCode).toBe(401);
    expect((await me({ authorization: `Bearer ${res.json().token}` })).statusCode).toBe(200);
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: caller.user.email, password: 'next-pass-2' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('answers 401 for a wrong current password and changes nothing', async () => {
    const caller = await createUser(ctx.container);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/change-password',
      headers: caller.headers,
      payload: { currentPassword: 'wrong-pass-1', newPassword: 'next-pass-2' },
    });
    expect(res.statusCode).toBe(401);
    expect((await me(caller.headers)).statusCode).toBe(200);
  });

  it('answers 422 for a new password that breaks the rule', async () => {
    const caller = await createUser(ctx.container);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/change-password',
      headers: caller.headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: '12345678' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0].field).toBe('body.newPassword');
  });
});

describe('POST /me/logout-all', () => {
  it('makes every existing token 401 and publishes a revocation for the sockets', async () => {
    const caller = await createUser(ctx.container);
    const second = ctx.container.tokens.sign(caller.user.id, caller.user.tokenVersion);
    const revocations: Revocation[] = [];
    const unsubscribe = await onRevocation(ctx.container.bus, (r) => revocations.push(r));
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/logout-all',
      headers: caller.headers,
    });
    expect(res.statusCode).toBe(200);
    expect((await me(caller.headers)).statusCode).toBe(401);
    expect((await me({ authorization: `Bearer ${second}` })).statusCode).toBe(401);
    await expect.poll(() => revocations).toContainEqual({ userId: caller.user.id, reason: 'logout-all' });
    await unsubscribe();
  });
});

describe('avatar', () => {
  const upload = (headers: Record<string, string>, bytes: Buffer, filename = 'me.png') => {
    const { body, contentType } = multipartBody({ file: { filename, content: bytes } });
    return ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/avatar',
      headers: { ...headers, 'content-type': contentType },
      payload: body,
    });
  };
  const avatarFiles = () => readdirSync(path.join(ctx.dataDir, 'avatars')).filter((f) => !f.startsWith('.'));

  /** A served avatar is a PNG this service encoded: PNG magic bytes, the given size, nothing appended. */
  const expectReencodedPng = (bytes: Buffer, size: { width: number; height: number }) => {
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(imageSize(bytes)).toMatchObject(size);
    expect(bytes.subarray(bytes.length - 8, bytes.length - 4).toString('latin1')).toBe('IEND');
  };

  it('stores a PNG re-encoded, serves it, replaces it with a JPEG and deletes it', async () => {
    const caller = await createUser(ctx.container);
    const png = await upload(caller.headers, tinyPng());
    expect(png.statusCode).toBe(200);
    const pngUrl: string = png.json().avatarUrl;
    expect(pngUrl).toMatch(new RegExp(`^/static/avatars/${caller.user.id}\\.png\\?v=\\d+$`));
    const served = await ctx.app.inject({ url: pngUrl });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expectReencodedPng(served.rawPayload, { width: 1, height: 1 });
    expect((await me(caller.headers)).json().user.avatarUrl).toBe(pngUrl);

    // A JPEG sent under a .png name is read as what it is, and stored as the PNG drawn from it.
    const jpeg = await solidImage('jpeg', 40, 30);
    const jpg = await upload(caller.headers, jpeg, 'still.png');
    expect(jpg.statusCode).toBe(200);
    expect(jpg.json().avatarUrl).toContain(`${caller.user.id}.png`);
    expect(avatarFiles().filter((f) => f.startsWith(caller.user.id))).toEqual([`${caller.user.id}.png`]);
    expectReencodedPng((await ctx.app.inject({ url: jpg.json().avatarUrl })).rawPayload, {
      width: 40,
      height: 30,
    });

    // The audit entry describes the file, never its bytes.
    const [entry] = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, caller.user.id), eq(auditLogs.action, 'update-avatar')))
      .limit(1);
    expect(entry?.changes).toMatchObject({ file: { filename: 'me.png', size: tinyPng().length } });
    expect(JSON.stringify(entry?.changes)).not.toContain('PNG');

    const del = await ctx.app.inject({ method: 'DELETE', url: '/api/v1/me/avatar', headers: caller.headers });
    expect(del.statusCode).toBe(204);
    expect(existsSync(path.join(ctx.dataDir, 'avatars', `${caller.user.id}.png`))).toBe(false);
    expect((await me(caller.headers)).json().user.avatarUrl).toBeNull();
  });

  it('serves a PNG with a script appended, named a.html, as a clean image only', async () => {
    const caller = await createUser(ctx.container);
    const hostile = Buffer.concat([
      await solidImage('png', 16, 16),
      Buffer.from('<script>alert(document.cookie)</script>'),
    ]);
    const res = await upload(caller.headers, hostile, 'a.html');
    expect(res.statusCode).toBe(200);
    const url: string = res.json().avatarUrl;
    expect(url).toMatch(new RegExp(`^/static/avatars/${caller.user.id}\\.png\\?v=\\d+$`));
    const served = await ctx.app.inject({ url });
    expect(served.headers['content-type']).toBe('image/png');
    expectReencodedPng(served.rawPayload, { width: 16, height: 16 });
    expect(served.rawPayload.includes(Buffer.from('<script'))).toBe(false);
  });

  it('draws a PNG with a corrupt checksum anew (the decoder reads its pixels) without harm to the service', async () => {
    const caller = await createUser(ctx.container);
    const res = await upload(caller.headers, corruptPng());
    expect(res.statusCode).toBe(200);
    expectReencodedPng((await ctx.app.inject({ url: res.json().avatarUrl })).rawPayload, {
      width: 1,
      height: 1,
    });
    expect((await ctx.app.inject({ url: '/health' })).statusCode).toBe(200);
  });

  it('scales a large avatar down to 512 pixels on its longest side', async () => {
    const caller = await createUser(ctx.container);
    const res = await upload(caller.headers, await solidImage('webp', 1024, 256));
    expect(res.statusCode).toBe(200);
    expectReencodedPng((await ctx.app.inject({ url: res.json().avatarUrl })).rawPayload, {
      width: 512,
      height: 128,
    });
  });

  const allAvatarFiles = () => readdirSync(path.join(ctx.dataDir, 'avatars'));
  const avatarAudits = (userId: string) =>
    ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, userId), eq(auditLogs.action, 'update-avatar')));

  /** A caller whose avatar is already the tiny PNG, with its URL and the bytes served there. */
  async function callerWithAvatar() {
    const caller = await createUser(ctx.container);
    const first = await upload(caller.headers, tinyPng());
    expect(first.statusCode).toBe(200);
    const avatarUrl = first.json().avatarUrl as string;
    return { caller, avatarUrl, served: (await ctx.app.inject({ url: avatarUrl })).rawPayload };
  }

  /** The caller's avatar is still the tiny PNG, at the same URL, and nothing else was written. */
  async function expectAvatarKept(
    caller: Awaited<ReturnType<typeof createUser>>,
    avatarUrl: string,
    served: Buffer,
  ) {
    expect((await me(caller.headers)).json().user.avatarUrl).toBe(avatarUrl);
    expect(avatarFiles().filter((f) => f.startsWith(caller.user.id))).toEqual([`${caller.user.id}.png`]);
    expect(allAvatarFiles().filter((f) => f.startsWith('.'))).toEqual([]);
    expect((await ctx.app.inject({ url: avatarUrl })).rawPayload.equals(served)).toBe(true);
    const audits = await avatarAudits(caller.user.id);
    expect(audits.map((a) => (a.changes as { file: { size: number } }).file.size)).toEqual([
      tinyPng().length,
    ]);
  }

  it('answers 413 for a 2.5 MB avatar every time, storing nothing and keeping the old avatar', async () => {
    const { caller, avatarUrl, served } = await callerWithAvatar();
    const { body, contentType } = multipartBody({
      file: { filename: 'big.png', content: paddedPng(2.5 * 1024 * 1024) },
    });
    // Half the tries arrive with a chunk ending exactly at the 2 MB limit: the case where the
    // parser's size error used to be lost and the file stored cut to 2 MB.
    const atLimit = body.indexOf(tinyPng()) + AVATAR_MAX_BYTES;
    for (let attempt = 0; attempt < 20; attempt++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/me/avatar',
        headers: { ...caller.headers, 'content-type': contentType },
        payload: attempt % 2 === 0 ? body : chunked(body, [atLimit]),
      });
      expect(res.statusCode, `attempt ${attempt + 1}`).toBe(413);
      expect(res.json()).toEqual({
        error: 'PayloadTooLargeError',
        message: expect.stringContaining('2 MB'),
        statusCode: 413,
      });
    }
    await expectAvatarKept(caller, avatarUrl, served);
  });

  it('takes exactly 2 MB and refuses one byte more', async () => {
    const caller = await createUser(ctx.container);
    const over = await upload(caller.headers, paddedPng(AVATAR_MAX_BYTES + 1));
    expect(over.statusCode).toBe(413);
    expect(avatarFiles().some((f) => f.startsWith(caller.user.id))).toBe(false);
    const exact = await upload(caller.headers, paddedPng(AVATAR_MAX_BYTES));
    expect(exact.statusCode).toBe(200);
    // Stored as the image drawn anew: the padding after its end is gone.
    expectReencodedPng((await ctx.app.inject({ url: exact.json().avatarUrl })).rawPayload, {
      width: 1,
      height: 1,
    });
  });

  describe('answers 400 for a malformed multipart body, storing nothing and keeping the old avatar', () => {
    const send = (headers: Record<string, string>, contentType: string, payload: Buffer) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/me/avatar',
        headers: { ...headers, 'content-type': contentType },
        payload,
      });
    const form = () => multipartBody({ file: { filename: 'me.png', content: tinyJpeg() }, note: 'hello' });

    it.each([
      ['without a boundary', () => ({ contentType: 'multipart/form-data', body: form().body })],
      [
        'with an empty boundary',
        () => ({ contentType: 'multipart/form-data; boundary=', body: form().body }),
      ],
      ['cut in the middle of the file', () => ({ ...form(), body: cutBody(form().body, 'JFIF', 2) })],
      [
        'cut after the file, in the next part',
        () => {
          const { body, contentType } = form();
          return { contentType, body: cutBody(body, 'name="note"', 4) };
        },
      ],
      [
        'missing only its closing boundary',
        () => {
          const { body, contentType } = form();
          return { contentType, body: body.subarray(0, body.lastIndexOf('--\r\n') - 1) };
        },
      ],
    ])('%s', async (_label, make) => {
      const { caller, avatarUrl, served } = await callerWithAvatar();
      const { body, contentType } = make();
      const res = await send(caller.headers, contentType, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: 'BadRequestError',
        message: expect.stringMatching(/multipart/i),
        statusCode: 400,
      });
      await expectAvatarKept(caller, avatarUrl, served);
    });
  });

  it.each([
    [
      'a PNG cut inside its header',
      () => tinyPng().subarray(0, 40),
      /^The avatar cannot be read as an image/,
    ],
    [
      'a PNG that declares 100000 × 100000 pixels',
      () => pngDeclaring(100_000, 100_000),
      /^The avatar is 100000 × 100000 pixels, more than \d+ \(DECODER_MAX_PIXELS\)$/,
    ],
    ['a JPEG cut after its header', () => tinyJpeg(), /^The avatar cannot be read as an image/],
  ])('answers 422 for %s, keeping the old avatar', async (_label, make, message) => {
    const { caller, avatarUrl, served } = await callerWithAvatar();
    const res = await upload(caller.headers, make());
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      error: 'ValidationError',
      message: expect.stringMatching(message),
      statusCode: 422,
      details: [{ field: 'body.file', message: expect.stringMatching(message) }],
    });
    await expectAvatarKept(caller, avatarUrl, served);
  });

  it('answers 415 for content that is not PNG, JPEG or WebP, whatever the name', async () => {
    const caller = await createUser(ctx.container);
    const res = await upload(caller.headers, Buffer.from('GIF89a not really an image'), 'fake.png');
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('UnsupportedMediaTypeError');
  });

  it('answers 415 for a JSON body and 422 for a form without a file', async () => {
    const caller = await createUser(ctx.container);
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/avatar',
      headers: caller.headers,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const { body, contentType } = multipartBody({ note: 'no file here' });
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/me/avatar',
      headers: { ...caller.headers, 'content-type': contentType },
      payload: body,
    });
    expect(empty.statusCode).toBe(422);
  });
});
