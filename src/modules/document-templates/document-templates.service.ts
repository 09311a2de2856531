import type { Actor } from '../../core/auth/actor.js';
import { canAccessDepartment, departmentScope } from '../../core/auth/department-scope.js';
import {
  ForbiddenError,
  NotFoundError,
  type ValidationDetail,
  ValidationError,
} from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type {
  DocumentTemplatesRepository,
  TemplatePatch,
  TemplateRow,
} from './document-templates.repository.js';
import type { OutputFormat } from './document-templates.schemas.js';
import { tagNames, templateBodyProblems } from './template-body.js';
import { normaliseVariables, type TemplateVariable, type VariableInput } from './template-variables.js';

/** How templates find their namespace's department (the namespaces repository fits). */
export interface NamespaceLookup {
  findById(id: string): Promise<{ id: string; departmentId: string } | null>;
}

export interface TemplateInput {
  departmentId?: string | null;
  name?: string;
  description?: string | null;
  category?: string;
  templateBody?: string;
  variables?: VariableInput[];
  outputFormat?: OutputFormat;
}

export function variablesOf(row: TemplateRow): TemplateVariable[] {
  return row.variables as TemplateVariable[];
}

export function toTemplate(row: TemplateRow) {
  return {
    id: row.id,
    namespaceId: row.namespaceId,
    departmentId: row.departmentId,
    name: row.name,
    description: row.description,
    category: row.category,
    templateBody: row.templateBody,
    // Whether a variable was inferred is the service's own bookkeeping, not part of the answer.
    variables: variablesOf(row).map(({ inferred: _inferred, ...variable }) => variable),
    outputFormat: row.outputFormat,
    createdById: row.createdById,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** A shared template (no department) is usable in every department; otherwise its department's. */
export function canUseTemplate(actor: Actor, row: TemplateRow): boolean {
  return row.departmentId === null || canAccessDepartment(actor, row.departmentId);
}

export function createDocumentTemplatesService(deps: {
  templates: DocumentTemplatesRepository;
  namespaces: NamespaceLookup;
}) {
  const { templates, namespaces } = deps;

  /**
   * The template when the actor may use it.
   * @throws NotFoundError when missing or of a department outside the actor's.
   */
  async function loadUsable(actor: Actor, id: string): Promise<TemplateRow> {
    const row = await templates.findById(id);
    if (!row || !canUseTemplate(actor, row)) throw new NotFoundError(`Document template ${id} not found`);
    return row;
  }

  /**
   * The template and its namespace's department, when the actor may change it:
   * managing a template needs the namespace's department, even for a shared one.
   */
  async function loadManageable(actor: Actor, id: string) {
    const row = await loadUsable(actor, id);
    const namespace = await namespaces.findById(row.namespaceId);
    if (!namespace || !canAccessDepartment(actor, namespace.departmentId)) {
      throw new ForbiddenError(
        `Document template ${id} is shared from a namespace outside your departments; only its department can change it`,
      );
    }
    return { row, namespaceDepartmentId: namespace.departmentId };
  }

  /** departmentId must be the namespace's department or null (shared); left out, it is the namespace's. */
  function departmentProblem(departmentId: string | null | undefined, namespaceDepartmentId: string) {
    if (departmentId === undefined || departmentId === null || departmentId === namespaceDepartmentId)
      return [];
    return [
      {
        field: 'body.departmentId',
        message: `must be the namespace's department (${namespaceDepartmentId}) or null`,
      },
    ];
  }

  /**
   * Checks variables and body together: the body may only use declared
   * variables. Without declared variables (`inputs` null) they are inferred
   * from the body: each tag a string that is not required, marked `inferred`.
   */
  function contentProblems(body: string, inputs: readonly VariableInput[] | null) {
    const inferred = inputs === null;
    const declared =
      inputs ?? tagNames(body).map((name): VariableInput => ({ name, type: 'string', required: false }));
    const normalised = normaliseVariables(declared);
    const variables = inferred
      ? normalised.variables.map((variable) => ({ ...variable, inferred: true }))
      : normalised.variables;
    const names = new Set(variables.map((v) => v.name));
    return { variables, problems: [...normalised.problems, ...templateBodyProblems(body, names)] };
  }

  /** Whether a template's variables all came from its body (none declared by hand). */
  const inferredOnly = (row: TemplateRow) => variablesOf(row).every((variable) => variable.inferred === true);

  return {
    loadUsable,

    /**
     * Templates the actor can use (their departments' and the shared ones), newest first.
     * @throws ForbiddenError when `departmentId` is outside the actor's departments.
     */
    async list(
      actor: Actor,
      query: { category?: string; departmentId?: string; limit?: number; offset?: number },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const scope = departmentScope(actor, query.departmentId);
      const { rows, total } = await templates.list(
        scope,
        { category: query.category, departmentId: query.departmentId },
        { limit, offset },
      );
      return { items: rows.map(toTemplate), total, limit, offset };
    },

    /** One template. @throws NotFoundError when missing or not usable by the actor. */
    async get(actor: Actor, id: string) {
      return toTemplate(await loadUsable(actor, id));
    },

    /**
     * Creates a template in a namespace of the actor's departments.
     * @throws ValidationError for a namespace that is missing or outside the actor's departments,
     *   a department other than the namespace's, variables declared twice or with a default of
     *   the wrong type, and a body that does not parse, uses an undeclared variable, a partial or
     *   unescaped output.
     */
    async create(
      actor: Actor,
      input: TemplateInput & { namespaceId: string; name: string; templateBody: string },
    ) {
      const namespace = await namespaces.findById(input.namespaceId);
      if (!namespace || !canAccessDepartment(actor, namespace.departmentId)) {
        throw new ValidationError([
          { field: 'body.namespaceId', message: `no namespace ${input.namespaceId} in your departments` },
        ]);
      }
      const { variables, problems } = contentProblems(input.templateBody, input.variables ?? null);
      problems.unshift(...departmentProblem(input.departmentId, namespace.departmentId));
      if (problems.length > 0) throw new ValidationError(problems);
      const row = await templates.insert({
        namespaceId: namespace.id,
        departmentId: input.departmentId === undefined ? namespace.departmentId : input.departmentId,
        name: input.name.trim(),
        description: input.description ?? null,
        category: input.category ?? 'custom',
        templateBody: input.templateBody,
        variables,
        outputFormat: input.outputFormat ?? 'md',
        createdById: actor.kind === 'user' ? actor.userId : null,
      });
      return toTemplate(row);
    },

    /**
     * Changes a template; `variables` is replaced whole, and body and variables
     * are checked together as on create.
     * @throws NotFoundError when missing or not usable by the actor.
     * @throws ForbiddenError for a shared template whose namespace is of another department.
     * @throws ValidationError as {@link create}.
     */
    async update(actor: Actor, id: string, input: TemplateInput) {
      const current = await loadManageable(actor, id);
      const problems: ValidationDetail[] = departmentProblem(
        input.departmentId,
        current.namespaceDepartmentId,
      );
      // A new body without variables is inferred again only where nothing was declared by hand.
      const reinfer =
        input.templateBody !== undefined && input.variables === undefined && inferredOnly(current.row);
      const checked = contentProblems(
        input.templateBody ?? current.row.templateBody,
        reinfer ? null : (input.variables ?? variablesOf(current.row)),
      );
      problems.push(...checked.problems);
      if (problems.length > 0) throw new ValidationError(problems);
      const patch: TemplatePatch = {};
      if (input.departmentId !== undefined) patch.departmentId = input.departmentId;
      if (input.name !== undefined) patch.name = input.name.trim();
      if (input.description !== undefined) patch.description = input.description;
      if (input.category !== undefined) patch.category = input.category;
      if (input.templateBody !== undefined) patch.templateBody = input.templateBody;
      if (input.variables !== undefined || reinfer) patch.variables = checked.variables;
      if (input.outputFormat !== undefined) patch.outputFormat = input.outputFormat;
      if (Object.keys(patch).length === 0) return toTemplate(current.row);
      return toTemplate((await templates.update(id, patch)) ?? current.row);
    },

    /**
     * Deletes a template; its generation history stays, without the link.
     * @throws NotFoundError when missing or not usable by the actor.
     * @throws ForbiddenError for a shared template whose namespace is of another department.
     */
    async delete(actor: Actor, id: string): Promise<void> {
      await loadManageable(actor, id);
      await templates.delete(id);
    },
  };
}

export type DocumentTemplatesService = ReturnType<typeof createDocumentTemplatesService>;
