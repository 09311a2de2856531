import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { unpackBackupArchive } from '../../core/backup/backup-archive.js';
import { openPglite } from '../../core/db/client.js';
import { auditLogs, departments } from '../../core/db/schema/index.js';

const ctx = useTestApp();
const scratch = mkdtempSync(path.join(tmpdir(), 'aos-backup-route-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

securityChecks(() => ctx, { method: 'POST', url: '/api/v1/admin/backup', permission: 'canEditSettings' });

const backup = (headers: Record<string, string>) =>
  ctx.app.inject({ method: 'POST', url: '/api/v1/admin/backup', headers });

describe('POST /admin/backup', () => {
  it('answers 403 to a holder of canEditSettings without access to every department', async () => {
    const head = await createUser(ctx.container, {
      role: 'dept_head',
      extraPermissions: ['canEditSettings'],
    });
    const res = await backup(head.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'ForbiddenError' });
    expect(res.json().message).toContain('every department');
  });

  it('answers the archive of an embedded database, or 409 on PostgreSQL, and audits a download', async () => {
    const admin = await createUser(ctx.container, { role: 'admin' });
    const [department] = await ctx.container.db
      .insert(departments)
      .values({ name: 'In the backup', slug: `in-backup-${Date.now()}` })
      .returning();
    const res = await backup(admin.headers);
    if (ctx.container.database.driver === 'postgres') {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: 'ConflictError' });
      expect(res.json().message).toContain('npm run backup');
      return;
    }
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-tar');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="backup-.*\.tar"$/);
    const file = path.join(scratch, 'route.tar');
    writeFileSync(file, res.rawPayload);
    const into = mkdtempSync(path.join(scratch, 'unpacked-'));
    const unpacked = await unpackBackupArchive(file, into);
    expect(unpacked.manifest).toMatchObject({ format: 'aos-backup', database: 'pglite' });
    const audit = await ctx.container.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.userId, admin.user.id), eq(auditLogs.entityType, 'backup')));
    expect(audit).toHaveLength(1);
    // The snapshot holds the row committed before the call.
    const copy = await openPglite({ loadDataDir: new Blob([readFileSync(unpacked.databaseFile)]) });
    try {
      const rows = await copy.db.select().from(departments).where(eq(departments.id, department!.id));
      expect(rows).toHaveLength(1);
    } finally {
      await copy.close();
    }
  });
});
