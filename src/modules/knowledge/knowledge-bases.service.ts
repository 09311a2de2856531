import type { Actor } from '../../core/auth/actor.js';
import { assertDepartmentFilter, assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import type { Database } from '../../core/db/client.js';
import type { RagWeights, SyntheticQuestionsSettings } from '../../core/db/schema/knowledge.js';
import { ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import type { DocumentFiles } from './document-files.js';
import type {
  KnowledgeBaseRow,
  KnowledgeBasesRepository,
  KnowledgeBaseWithCount,
} from './knowledge-bases.repository.js';
import { DEFAULT_RAG_WEIGHTS, DEFAULT_SYNTHETIC_QUESTIONS } from './knowledge-bases.schemas.js';

export interface KnowledgeBasesServiceDeps {
  db: Database;
  bases: KnowledgeBasesRepository;
  departments: DepartmentsRepository;
  files: DocumentFiles;
}

/** The option as given in a request body: `perChunk` may be left out. */
export interface SyntheticQuestionsInput {
  enabled: boolean;
  perChunk?: number;
}

/** The stored option after `input`: an omitted perChunk keeps the current (or default) value. */
function syntheticQuestionsAfter(
  current: SyntheticQuestionsSettings,
  input: SyntheticQuestionsInput,
): SyntheticQuestionsSettings {
  return { enabled: input.enabled, perChunk: input.perChunk ?? current.perChunk };
}

export function toKnowledgeBase(row: KnowledgeBaseWithCount) {
  return {
    id: row.id,
    name: row.name,
    departmentId: row.departmentId,
    description: row.description,
    ragWeights: { vector: row.ragWeights.vector, keyword: row.ragWeights.keyword },
    syntheticQuestions: {
      enabled: row.syntheticQuestions.enabled === true,
      perChunk: row.syntheticQuestions.perChunk ?? DEFAULT_SYNTHETIC_QUESTIONS.perChunk,
    },
    documentCount: row.documentCount,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function createKnowledgeBasesService(deps: KnowledgeBasesServiceDeps) {
  const { db, bases, departments, files } = deps;

  /** The base when the actor may see it. @throws NotFoundError when missing or outside the actor's departments. */
  async function loadVisible(actor: Actor, id: string): Promise<KnowledgeBaseRow> {
    return assertVisible(
      actor,
      await bases.findById(id),
      (b) => b.departmentId,
      `Knowledge base ${id} not found`,
    );
  }

  async function answer(id: string) {
    const row = await bases.findWithCount(id);
    return toKnowledgeBase(row!);
  }

  return {
    loadVisible,

    /**
     * Knowledge bases of the actor's departments, narrowed to `departmentId` when given.
     * @throws ForbiddenError when `departmentId` is outside the actor's departments.
     */
    async list(actor: Actor, query: { departmentId?: string; limit?: number; offset?: number }) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await bases.list(departmentScope(actor, query.departmentId), { limit, offset });
      return { items: rows.map(toKnowledgeBase), total, limit, offset };
    },

    /** One knowledge base. @throws NotFoundError when missing or outside the actor's departments. */
    async get(actor: Actor, id: string) {
      await loadVisible(actor, id);
      return answer(id);
    },

    /**
     * Creates a knowledge base in one of the actor's departments, with the default rag weights
     * and synthetic questions off unless `syntheticQuestions` turns them on.
     * @throws ForbiddenError when the department is outside the actor's departments.
     * @throws ValidationError when the department does not exist.
     */
    async create(
      actor: Actor,
      input: {
        name: string;
        departmentId: string;
        description?: string | null;
        syntheticQuestions?: SyntheticQuestionsInput;
      },
    ) {
      assertDepartmentFilter(actor, input.departmentId);
      if (!(await departments.findById(input.departmentId))) {
        throw new ValidationError([
          { field: 'body.departmentId', message: `department ${input.departmentId} does not exist` },
        ]);
      }
      const row = await bases.insert({
        name: input.name.trim(),
        departmentId: input.departmentId,
        description: input.description ?? null,
        ragWeights: { ...DEFAULT_RAG_WEIGHTS },
        syntheticQuestions: input.syntheticQuestions
          ? syntheticQuestionsAfter(DEFAULT_SYNTHETIC_QUESTIONS, input.syntheticQuestions)
          : { ...DEFAULT_SYNTHETIC_QUESTIONS },
      });
      return toKnowledgeBase({ ...row, documentCount: 0 });
    },

    /**
     * Renames or re-describes a base, or switches its synthetic questions
     * (documents ingested or reprocessed afterwards follow the new setting).
     * @throws NotFoundError when missing or outside the actor's departments.
     */
    async update(
      actor: Actor,
      id: string,
      input: { name?: string; description?: string | null; syntheticQuestions?: SyntheticQuestionsInput },
    ) {
      const current = await loadVisible(actor, id);
      const patch: {
        name?: string;
        description?: string | null;
        syntheticQuestions?: SyntheticQuestionsSettings;
      } = {};
      if (input.name !== undefined) patch.name = input.name.trim();
      if (input.description !== undefined) patch.description = input.description;
      if (input.syntheticQuestions !== undefined) {
        patch.syntheticQuestions = syntheticQuestionsAfter(
          current.syntheticQuestions,
          input.syntheticQuestions,
        );
      }
      if (Object.keys(patch).length > 0) await bases.update(id, patch);
      return answer(id);
    },

    /**
     * Sets how retrieval blends vector and keyword scores for this base.
     * @throws NotFoundError when missing or outside the actor's departments.
     * @throws ValidationError when both weights are zero.
     */
    async setConfig(actor: Actor, id: string, input: { ragWeights: RagWeights }) {
      await loadVisible(actor, id);
      const { vector, keyword } = input.ragWeights;
      if (vector === 0 && keyword === 0) {
        throw new ValidationError([
          { field: 'body.ragWeights', message: 'vector and keyword cannot both be zero' },
        ]);
      }
      await bases.update(id, { ragWeights: { vector, keyword } });
      return answer(id);
    },

    /**
     * Deletes a base with its documents, chunks and stored files, and drops it
     * from namespaces that listed it.
     * @throws NotFoundError when missing or outside the actor's departments.
     */
    async delete(actor: Actor, id: string): Promise<void> {
      await loadVisible(actor, id);
      const stored = await db.transaction(async (tx) => {
        const fileNames = await bases.storedFiles(id, tx);
        await bases.unlinkFromNamespaces(id, tx);
        await bases.delete(id, tx);
        return fileNames;
      });
      // Files go after the commit: a failed delete leaves documents whose files still exist.
      await Promise.all(stored.map((name) => files.remove(name)));
    },
  };
}

export type KnowledgeBasesService = ReturnType<typeof createKnowledgeBasesService>;
