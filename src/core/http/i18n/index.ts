import { auditDocs } from './audit.js';
import { authDocs } from './auth.js';
import { departmentsDocs } from './departments.js';
import { employeeProfilesDocs } from './employee-profiles.js';
import { knowledgeDocs } from './knowledge.js';
import { meDocs } from './me.js';
import { namespacesDocs } from './namespaces.js';
import { permissionsDocs } from './permissions.js';
import { ragDocs } from './rag.js';
import { rolesDocs } from './roles.js';
import { systemDocs } from './system.js';
import type { DocsArea, OperationDocs, TagDocs } from './types.js';
import { usersDocs } from './users.js';

/** Every area's texts; a module's routes are documented by adding its area here. */
const AREAS: readonly DocsArea[] = [
  systemDocs,
  authDocs,
  meDocs,
  ragDocs,
  departmentsDocs,
  rolesDocs,
  usersDocs,
  permissionsDocs,
  employeeProfilesDocs,
  auditDocs,
  knowledgeDocs,
  namespacesDocs,
];

export const OPERATION_DOCS: OperationDocs = Object.assign({}, ...AREAS.map((a) => a.operations));
export const TAG_DOCS: TagDocs = Object.assign({}, ...AREAS.map((a) => a.tags));
