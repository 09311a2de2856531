import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createRole, createUser } from '../../../test/factories.js';
import { securityChecks } from '../../../test/security.js';
import { PERMISSIONS } from '../../core/auth/permissions.js';

const ctx = useTestApp();

securityChecks(() => ctx, { method: 'GET', url: '/api/v1/permissions' });

interface Text {
  en: string;
  ru: string;
  uk: string;
}
interface Group {
  key: string;
  label: Text;
  permissions: Array<{ key: string; group: string; label: Text; description: Text }>;
}

describe('GET /permissions', () => {
  it('lists each of the 19 permissions exactly once, grouped, with texts in en, ru and uk', async () => {
    const role = await createRole(ctx.container);
    const caller = await createUser(ctx.container, { role: role.slug });
    const res = await ctx.app.inject({ url: '/api/v1/permissions', headers: caller.headers });
    expect(res.statusCode).toBe(200);
    const groups = res.json().groups as Group[];
    const keys = groups.flatMap((g) => g.permissions.map((p) => p.key));
    expect(keys.sort()).toEqual([...PERMISSIONS].sort());
    for (const group of groups) {
      for (const text of [group.label, ...group.permissions.flatMap((p) => [p.label, p.description])]) {
        expect(text.en.trim()).not.toBe('');
        expect(text.ru.trim()).not.toBe('');
        expect(text.uk.trim()).not.toBe('');
      }
      for (const permission of group.permissions) {
        expect(permission.group).toBe(group.key);
        expect(permission.label.ru).not.toBe(permission.label.en);
        expect(permission.description.uk).not.toBe(permission.description.en);
      }
    }
    expect(groups.find((g) => g.key === 'users')?.permissions.map((p) => p.key)).toEqual([
      'canViewAllUsers',
      'canCreateUsers',
      'canManageUsers',
    ]);
  });
});
