import type { Database } from '../../core/db/client.js';
import { createEmployeeProfilesRepository } from './employee-profiles.repository.js';
import { createEmployeeProfilesService } from './employee-profiles.service.js';

/** Employee profiles: one per user, created with the user. */
export function createEmployeeProfilesModule(deps: { db: Database }) {
  return createEmployeeProfilesService({ profiles: createEmployeeProfilesRepository(deps.db) });
}
