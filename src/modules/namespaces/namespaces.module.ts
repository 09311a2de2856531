import type { Database } from '../../core/db/client.js';
import { defineModule } from '../../core/module.js';
import type { KnowledgeBasesRepository } from '../knowledge/knowledge-bases.repository.js';
import type { OrganisationRepositories } from '../users/organisation-repositories.js';
import { createNamespacesRepository } from './namespaces.repository.js';
import { namespacesRoutes } from './namespaces.routes.js';
import { createNamespacesService } from './namespaces.service.js';

/** Namespaces: an assistant's persona, knowledge and agent settings inside one department. */
export function createNamespacesModule(
  deps: OrganisationRepositories & { db: Database; knowledgeBases: KnowledgeBasesRepository },
) {
  const namespaces = createNamespacesRepository(deps.db);
  const service = createNamespacesService({ ...deps, namespaces });
  return defineModule({
    service,
    repositories: { namespaces },
    routes: (api) => api.register(namespacesRoutes, { namespaces: service }),
  });
}
