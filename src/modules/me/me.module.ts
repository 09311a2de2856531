import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { TokenService } from '../../core/auth/jwt.js';
import type { Bus } from '../../core/bus/bus.js';
import type { Database } from '../../core/db/client.js';
import type { OrganisationRepositories } from '../users/users.module.js';
import { createAvatarStorage } from './avatar-storage.js';
import { createMeService } from './me.service.js';

export function createMeModule(
  deps: OrganisationRepositories & { db: Database; tokens: TokenService; bus: Bus; dataDir: string },
) {
  const avatars = createAvatarStorage(deps.dataDir);
  const accessStamps = accessStampsOf(deps.db);
  return { service: createMeService({ ...deps, avatars, accessStamps }), avatarDir: avatars.dir };
}
