import type { TokenService } from '../../core/auth/jwt.js';
import type { Bus } from '../../core/bus/bus.js';
import type { OrganisationRepositories } from '../users/users.module.js';
import { createAvatarStorage } from './avatar-storage.js';
import { createMeService } from './me.service.js';

export function createMeModule(
  deps: OrganisationRepositories & { tokens: TokenService; bus: Bus; dataDir: string },
) {
  const avatars = createAvatarStorage(deps.dataDir);
  return { service: createMeService({ ...deps, avatars }), avatarDir: avatars.dir };
}
