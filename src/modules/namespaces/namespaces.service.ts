import type { Static } from 'typebox';
import type { Actor } from '../../core/auth/actor.js';
import { assertDepartmentFilter, assertVisible, departmentScope } from '../../core/auth/department-scope.js';
import type { Database } from '../../core/db/client.js';
import type { Persona as PersonaValue } from '../../core/db/schema/knowledge.js';
import { type ValidationDetail, ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import type { KnowledgeBasesRepository } from '../knowledge/knowledge-bases.repository.js';
import type { RolesRepository } from '../roles/roles.repository.js';
import type { NamespaceRow, NamespacesRepository } from './namespaces.repository.js';
import type { NamespaceConfig, Persona } from './namespaces.schemas.js';

export interface NamespacesServiceDeps {
  db: Database;
  namespaces: NamespacesRepository;
  departments: DepartmentsRepository;
  roles: RolesRepository;
  knowledgeBases: KnowledgeBasesRepository;
}

type PersonaInput = Static<typeof Persona>;
type ConfigInput = Static<typeof NamespaceConfig>;

export interface NamespaceInput {
  name?: string;
  systemPrompt?: string | null;
  persona?: PersonaInput;
  config?: ConfigInput;
}

export function toNamespace(row: NamespaceRow) {
  return {
    id: row.id,
    name: row.name,
    departmentId: row.departmentId,
    systemPrompt: row.systemPrompt,
    persona: row.persona,
    config: row.config,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function createNamespacesService(deps: NamespacesServiceDeps) {
  const { db, namespaces, departments, roles, knowledgeBases } = deps;

  async function loadVisible(actor: Actor, id: string): Promise<NamespaceRow> {
    return assertVisible(
      actor,
      await namespaces.findById(id),
      (n) => n.departmentId,
      `Namespace ${id} not found`,
    );
  }

  /** What the schema cannot check: the escalation role exists, the knowledge bases are the department's. */
  async function referenceProblems(input: NamespaceInput, departmentId: string): Promise<ValidationDetail[]> {
    const problems: ValidationDetail[] = [];
    const role = input.persona?.escalateToRole;
    if (role !== undefined && !(await roles.findBySlug(role))) {
      problems.push({ field: 'body.persona.escalateToRole', message: `no role has the slug ${role}` });
    }
    const ids = input.config?.knowledgeBaseIds ?? [];
    const found = new Set(await knowledgeBases.idsInDepartment(ids, departmentId));
    ids.forEach((id, index) => {
      if (!found.has(id)) {
        problems.push({
          field: `body.config.knowledgeBaseIds.${index}`,
          message: `knowledge base ${id} is not one of the namespace department's`,
        });
      }
    });
    return problems;
  }

  return {
    /**
     * Namespaces of the actor's departments, narrowed to `departmentId` when given.
     * @throws ForbiddenError when `departmentId` is outside the actor's departments.
     */
    async list(actor: Actor, query: { departmentId?: string; limit?: number; offset?: number }) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await namespaces.list(departmentScope(actor, query.departmentId), {
        limit,
        offset,
      });
      return { items: rows.map(toNamespace), total, limit, offset };
    },

    /** One namespace. @throws NotFoundError when missing or outside the actor's departments. */
    async get(actor: Actor, id: string) {
      return toNamespace(await loadVisible(actor, id));
    },

    /**
     * Creates a namespace in one of the actor's departments.
     * @throws ForbiddenError when the department is outside the actor's departments.
     * @throws ValidationError for a department that does not exist, an unknown
     *   escalation role, or knowledge bases of another department.
     */
    async create(actor: Actor, input: NamespaceInput & { name: string; departmentId: string }) {
      assertDepartmentFilter(actor, input.departmentId);
      if (!(await departments.findById(input.departmentId))) {
        throw new ValidationError([
          { field: 'body.departmentId', message: `department ${input.departmentId} does not exist` },
        ]);
      }
      const problems = await referenceProblems(input, input.departmentId);
      if (problems.length > 0) throw new ValidationError(problems);
      const row = await namespaces.insert({
        name: input.name.trim(),
        departmentId: input.departmentId,
        systemPrompt: input.systemPrompt ?? null,
        persona: (input.persona ?? {}) as PersonaValue,
        config: input.config ?? {},
      });
      return toNamespace(row);
    },

    /**
     * Changes name, system prompt, persona or config; persona and config are replaced whole.
     * @throws NotFoundError when missing or outside the actor's departments.
     * @throws ValidationError for an unknown escalation role or knowledge bases of another department.
     */
    async update(actor: Actor, id: string, input: NamespaceInput) {
      const current = await loadVisible(actor, id);
      const problems = await referenceProblems(input, current.departmentId);
      if (problems.length > 0) throw new ValidationError(problems);
      const patch: Parameters<NamespacesRepository['update']>[1] = {};
      if (input.name !== undefined) patch.name = input.name.trim();
      if (input.systemPrompt !== undefined) patch.systemPrompt = input.systemPrompt;
      if (input.persona !== undefined) patch.persona = input.persona as PersonaValue;
      if (input.config !== undefined) patch.config = input.config;
      if (Object.keys(patch).length === 0) return toNamespace(current);
      return toNamespace((await namespaces.update(id, patch)) ?? current);
    },

    /**
     * Deletes a namespace (its intents, plugins and templates with it) and
     * clears it as its department's default namespace.
     * @throws NotFoundError when missing or outside the actor's departments.
     */
    async delete(actor: Actor, id: string): Promise<void> {
      const current = await loadVisible(actor, id);
      await db.transaction(async (tx) => {
        await namespaces.clearDefaultOf(current.departmentId, id, tx);
        await namespaces.delete(id, tx);
      });
    },
  };
}

export type NamespacesService = ReturnType<typeof createNamespacesService>;
