import { adminDocs } from './admin.js';
import { agentTasksDocs } from './agent-tasks.js';
import { analyticsDocs } from './analytics.js';
import { approvalsDocs } from './approvals.js';
import { auditDocs } from './audit.js';
import { authDocs } from './auth.js';
import { chanADocs } from './chan-a.js';
import { chanBDocs } from './chan-b.js';
import { channelIdentitiesDocs } from './channel-identities.js';
import { commonDocs } from './common.js';
import { conversationsDocs } from './conversations.js';
import { departmentsDocs } from './departments.js';
import { documentTemplatesDocs } from './document-templates.js';
import { employeeProfilesDocs } from './employee-profiles.js';
import { evaluationDocs } from './evaluation.js';
import { feedbackDocs } from './feedback.js';
import { intentsDocs } from './intents.js';
import { knowledgeDocs } from './knowledge.js';
import { learningDocs } from './learning.js';
import { meDocs } from './me.js';
import { namespacesDocs } from './namespaces.js';
import { notificationsDocs } from './notifications.js';
import { permissionsDocs } from './permissions.js';
import { pluginsDocs } from './plugins.js';
import { ragDocs } from './rag.js';
import { rolesDocs } from './roles.js';
import { setupDocs } from './setup.js';
import { systemDocs } from './system.js';
import { tracesDocs } from './traces.js';
import type {
  DocsArea,
  FieldTexts,
  OperationDocs,
  OperationExample,
  ResponseDocs,
  TagDocs,
} from './types.js';
import { usersDocs } from './users.js';

/** Every area's texts; a module's routes are documented by adding its area here. */
const AREAS: readonly DocsArea[] = [
  commonDocs,
  systemDocs,
  authDocs,
  setupDocs,
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
  evaluationDocs,
  learningDocs,
  pluginsDocs,
  intentsDocs,
  agentTasksDocs,
  tracesDocs,
  adminDocs,
  analyticsDocs,
  conversationsDocs,
  feedbackDocs,
  approvalsDocs,
  notificationsDocs,
  documentTemplatesDocs,
  chanADocs,
  chanBDocs,
  channelIdentitiesDocs,
];

/** The areas themselves, for checks across them (one English text translated two ways). */
export const DOCS_AREAS = AREAS;

export const OPERATION_DOCS: OperationDocs = Object.assign({}, ...AREAS.map((a) => a.operations));
export const TAG_DOCS: TagDocs = Object.assign({}, ...AREAS.map((a) => a.tags));
export const FIELD_TEXTS: FieldTexts = Object.assign({}, ...AREAS.map((a) => a.fields ?? {}));
export const RESPONSE_DOCS: ResponseDocs = Object.assign({}, ...AREAS.map((a) => a.responses ?? {}));
export const OPERATION_EXAMPLES: Record<string, OperationExample> = Object.assign(
  {},
  ...AREAS.map((a) => a.examples ?? {}),
);
