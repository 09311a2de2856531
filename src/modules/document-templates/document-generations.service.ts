import { Readable } from 'node:stream';
import type { Actor } from '../../core/auth/actor.js';
import { canAccessDepartment, departmentScope } from '../../core/auth/department-scope.js';
import {
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  type ValidationDetail,
  ValidationError,
} from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import type { DocumentFiles } from '../knowledge/document-files.js';
import type { DocumentsService } from '../knowledge/documents.service.js';
import type {
  DocumentGenerationsRepository,
  GenerationRow,
  GenerationVisibility,
} from './document-generations.repository.js';
import type { OutputFormat } from './document-templates.schemas.js';
import type { DocumentTemplatesService } from './document-templates.service.js';
import { variablesOf } from './document-templates.service.js';
import { buildOutput, type FileFormat, type OutputFile } from './output-file.js';
import { renderMarkdown } from './render.js';
import { resolveInput } from './template-variables.js';

export interface GenerationsServiceDeps {
  generations: DocumentGenerationsRepository;
  templates: DocumentTemplatesService;
  /** Knowledge bases by id (the knowledge bases repository fits). */
  knowledgeBases: { findById(id: string): Promise<{ id: string; departmentId: string } | null> };
  /** The knowledge module's upload path: stores the file as a document and queues its ingestion. */
  documents: Pick<DocumentsService, 'upload'>;
  files: Pick<DocumentFiles, 'receive'>;
}

export interface GenerateInput {
  input?: Record<string, unknown>;
  preview?: boolean;
  outputFormat?: OutputFormat;
  saveToKnowledgeBaseId?: string | null;
}

/** What a generation answers: the file, and the history row and knowledge document it made (null for a preview). */
export interface Generated extends OutputFile {
  generationId: string | null;
  documentId: string | null;
}

export function toGeneration(row: GenerationRow) {
  return {
    id: row.id,
    templateId: row.templateId,
    templateName: row.templateName,
    userId: row.userId,
    departmentId: row.departmentId,
    input: row.input,
    outputFormat: row.outputFormat,
    sizeBytes: row.sizeBytes,
    savedToKnowledgeBaseId: row.savedToKnowledgeBaseId,
    savedDocumentId: row.savedDocumentId,
    createdAt: iso(row.createdAt),
  };
}

/** Own history always; with canManageTemplates, every generation of the actor's departments too. */
function visibilityOf(actor: Actor): GenerationVisibility {
  return {
    userId: actor.userId,
    managed: actor.permissions.has('canManageTemplates') ? departmentScope(actor) : null,
  };
}

function canSee(actor: Actor, row: GenerationRow): boolean {
  if (row.userId === actor.userId) return true;
  return actor.permissions.has('canManageTemplates') && canAccessDepartment(actor, row.departmentId);
}

export function createDocumentGenerationsService(deps: GenerationsServiceDeps) {
  const { generations, templates, knowledgeBases, documents, files } = deps;

  /**
   * The knowledge base a result is saved to, checked before anything is rendered.
   * @throws ForbiddenError without canUploadDocuments.
   * @throws NotFoundError when missing or outside the actor's departments.
   */
  async function targetBase(actor: Actor, id: string) {
    if (!actor.permissions.has('canUploadDocuments')) {
      throw new ForbiddenError('Saving to a knowledge base needs canUploadDocuments');
    }
    const base = await knowledgeBases.findById(id);
    if (!base || !canAccessDepartment(actor, base.departmentId)) {
      throw new NotFoundError(`Knowledge base ${id} not found`);
    }
    return base;
  }

  /**
   * Stores the result in a knowledge base through the knowledge module's
   * upload (Markdown for md and html, which is built from it; the DOCX file
   * for docx). Ingestion follows on the queue and sends the uploader a
   * document_ready notification when the document is ready.
   */
  async function saveToKnowledge(actor: Actor, knowledgeBaseId: string, title: string, file: OutputFile) {
    const { tempPath, size } = await files.receive(Readable.from([file.bytes]));
    const document = await documents.upload(actor, {
      knowledgeBaseId,
      title,
      file: { tempPath, fileName: file.fileName, size },
    });
    return document.id;
  }

  return {
    /**
     * Renders a template with the given input and builds the file. Unless it is
     * a preview, writes a history row and, with saveToKnowledgeBaseId, stores the
     * result as a knowledge document whose ingestion is queued.
     * @throws NotFoundError for a template the actor cannot use, or a knowledge base outside their departments.
     * @throws NotImplementedError for pdf.
     * @throws ValidationError for input that misses a required variable, has a value of the wrong type
     *   or names no variable, and for a preview that asks to be saved.
     * @throws ForbiddenError for saving without canUploadDocuments.
     */
    async generate(actor: Actor, templateId: string, request: GenerateInput): Promise<Generated> {
      const template = await templates.loadUsable(actor, templateId);
      const format = (request.outputFormat ?? template.outputFormat) as OutputFormat;
      if (format === 'pdf') {
        throw new NotImplementedError('PDF output is not available yet; choose md, html or docx');
      }
      const { values, problems } = resolveInput(variablesOf(template), request.input ?? {});
      const saveTo = request.saveToKnowledgeBaseId ?? null;
      const extra: ValidationDetail[] = [];
      if (request.preview && saveTo) {
        extra.push({
          field: 'body.saveToKnowledgeBaseId',
          message: 'a preview is not saved; leave it out or set preview to false',
        });
      }
      if (problems.length + extra.length > 0) throw new ValidationError([...problems, ...extra]);
      const base = saveTo ? await targetBase(actor, saveTo) : null;

      const markdown = renderMarkdown(template.templateBody, values);
      const file = await buildOutput(format as FileFormat, markdown, template.name);
      if (request.preview) return { ...file, generationId: null, documentId: null };

      // The knowledge document gets the Markdown source for html: its text is the same, and HTML is no upload type.
      const stored = format === 'html' ? await buildOutput('md', markdown, template.name) : file;
      const documentId = base ? await saveToKnowledge(actor, base.id, template.name, stored) : null;
      const row = await generations.insert({
        templateId: template.id,
        templateName: template.name,
        userId: actor.userId,
        departmentId: template.departmentId ?? (actor.kind === 'user' ? actor.departmentId : null),
        input: values,
        outputFormat: format,
        sizeBytes: file.bytes.length,
        content: markdown,
        savedToKnowledgeBaseId: base?.id ?? null,
        savedDocumentId: documentId,
      });
      return { ...file, generationId: row.id, documentId };
    },

    /**
     * The generation history the actor may read, newest first: their own, plus
     * every generation of their departments when they hold canManageTemplates.
     * Filters narrow it; another user's id gives an empty list, not an error.
     */
    async list(
      actor: Actor,
      query: { userId?: string; templateId?: string; limit?: number; offset?: number },
    ) {
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await generations.list(
        visibilityOf(actor),
        { userId: query.userId, templateId: query.templateId },
        { limit, offset },
      );
      return { items: rows.map(toGeneration), total, limit, offset };
    },

    /**
     * One generation with the rendered Markdown.
     * @throws NotFoundError when missing or not visible to the actor (the list's rule).
     */
    async get(actor: Actor, id: string) {
      const row = await generations.findById(id);
      if (!row || !canSee(actor, row)) throw new NotFoundError(`Document generation ${id} not found`);
      return { ...toGeneration(row), content: row.content };
    },
  };
}

export type DocumentGenerationsService = ReturnType<typeof createDocumentGenerationsService>;
