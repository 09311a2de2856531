import type { AuditWriter } from '../../core/audit/audit-hook.js';
import { accessStampsOf } from '../../core/auth/access-stamps.js';
import type { Database } from '../../core/db/client.js';
import type { KeyValue } from '../../core/kv/kv.js';
import { defineModule } from '../../core/module.js';
import type { ConversationsRepository } from '../conversations/conversations.repository.js';
import type { NotificationsRepository } from '../notifications/notifications.repository.js';
import type { UsersRepository } from '../users/users.repository.js';
import { createChannelIdentitiesRepository } from './channel-identities.repository.js';
import { channelIdentitiesRoutes } from './channel-identities.routes.js';
import { createChannelIdentitiesService } from './channel-identities.service.js';
import { createChannelLinking } from './channel-linking.service.js';
import { createIdentityLinker } from './identity-linker.js';
import { createPlaceholderMerge } from './placeholder-merge.repository.js';

/** Channel identities, link codes and placeholder merging (docs/channels.md, linking); `linking` serves the channels. */
export function createChannelIdentitiesModule(deps: {
  db: Database;
  kv: KeyValue;
  users: UsersRepository;
  /** The writer of conversations: a link change closes or moves the sender's conversations. */
  conversations: Pick<ConversationsRepository, 'closeOpenOfSender' | 'reassignUser'>;
  /** The writer of notifications: a merged placeholder's notifications move to its user. */
  notifications: Pick<NotificationsRepository, 'reassignUser'>;
  audit: AuditWriter;
  botUsername(): Promise<string | null>;
}) {
  const identities = createChannelIdentitiesRepository(deps.db);
  const merge = createPlaceholderMerge({
    conversations: deps.conversations,
    notifications: deps.notifications,
  });
  const linker = createIdentityLinker({ identities, merge, conversations: deps.conversations });
  const accessStamps = accessStampsOf(deps.db);
  const service = createChannelIdentitiesService({ ...deps, identities, linker, accessStamps });
  const linking = createChannelLinking({ ...deps, identities, linker, accessStamps });
  return defineModule({
    service,
    linking,
    routes: (api) => api.register(channelIdentitiesRoutes, { identities: service }),
  });
}

export type ChannelIdentitiesModule = ReturnType<typeof createChannelIdentitiesModule>;
