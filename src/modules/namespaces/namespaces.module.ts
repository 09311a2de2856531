import type { Database } from '../../core/db/client.js';
import type { KnowledgeBasesRepository } from '../knowledge/knowledge-bases.repository.js';
import type { OrganisationRepositories } from '../users/users.module.js';
import { createNamespacesRepository } from './namespaces.repository.js';
import { createNamespacesService } from './namespaces.service.js';

export function createNamespacesModule(
  deps: OrganisationRepositories & { db: Database; knowledgeBases: KnowledgeBasesRepository },
) {
  const namespaces = createNamespacesRepository(deps.db);
  return { repository: namespaces, service: createNamespacesService({ ...deps, namespaces }) };
}
