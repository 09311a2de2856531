import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { createDepartment, createUser } from '../../../test/factories.js';

const ctx = useTestApp();

describe('recipients', () => {
  it("answers approvers asked at once as each would be alone, each department's own", async () => {
    const { container } = ctx;
    const [north, south] = [await createDepartment(container), await createDepartment(container)];
    const approver = async (departmentId: string, overrides: { revokedPermissions?: string[] } = {}) =>
      (await createUser(container, { role: 'approver', departmentId, ...overrides })).user.id;
    const northApprover = await approver(north.id);
    const southApprover = await approver(south.id);
    const revoked = await approver(north.id, { revokedPermissions: ['canApprove'] });
    await createUser(container, { role: 'employee', departmentId: north.id });
    const { recipients } = container.pipeline;

    // Asked together, they are answered from one batch: north twice (one read), south once.
    const [northOnce, southOnce, northAgain] = await Promise.all([
      recipients.approvers(north.id),
      recipients.approvers(south.id),
      recipients.approvers(north.id),
    ]);
    const alone = async (departmentId: string) =>
      [...(await recipients.withPermission(departmentId, 'canApprove'))].sort();
    expect([...northOnce].sort()).toEqual(await alone(north.id));
    expect([...southOnce].sort()).toEqual(await alone(south.id));
    expect(northAgain).toEqual(northOnce);
    expect(northOnce).toContain(northApprover);
    expect(northOnce).not.toContain(southApprover);
    expect(northOnce).not.toContain(revoked);
    expect(southOnce).toContain(southApprover);
    expect(southOnce).not.toContain(northApprover);
  });
});
