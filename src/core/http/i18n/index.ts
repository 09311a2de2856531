import { authDocs } from './auth.js';
import { meDocs } from './me.js';
import { systemDocs } from './system.js';
import type { DocsArea, OperationDocs, TagDocs } from './types.js';

/** Every area's texts; a module's routes are documented by adding its area here. */
const AREAS: readonly DocsArea[] = [systemDocs, authDocs, meDocs];

export const OPERATION_DOCS: OperationDocs = Object.assign({}, ...AREAS.map((a) => a.operations));
export const TAG_DOCS: TagDocs = Object.assign({}, ...AREAS.map((a) => a.tags));
