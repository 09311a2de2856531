import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { TokenService } from '../../core/auth/jwt.js';
import type { Bus } from '../../core/bus/bus.js';
import type { Config } from '../../core/config/config.js';
import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { OrganisationRepositories } from '../users/organisation-repositories.js';
import { createAvatarImages } from './avatar-image.js';
import { createAvatarStorage } from './avatar-storage.js';
import { meRoutes } from './me.routes.js';
import { createMeService } from './me.service.js';

/** The caller's own account; `avatarDir` is where app.ts serves the avatar files from. */
export function createMeModule(
  deps: OrganisationRepositories & {
    db: Database;
    tokens: TokenService;
    bus: Bus;
    dataDir: string;
    decoders: Config['decoders'];
  },
) {
  const avatars = createAvatarStorage(deps.dataDir);
  const avatarImages = createAvatarImages(deps.decoders);
  const service = createMeService({ ...deps, avatars, avatarImages, accessStamps: accessStampsOf(deps.db) });
  return defineModule({
    service,
    avatarDir: avatars.dir,
    routes: (api) => api.register(meRoutes, { me: service }),
  });
}
