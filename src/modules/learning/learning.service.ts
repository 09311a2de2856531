import { Readable } from 'node:stream';
import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import { ConflictError, ValidationError } from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import { knowledgeBasesOfNamespace } from '../evaluation/evaluation-runner.js';
import type { IntentsService } from '../intents/intents.service.js';
import type { DocumentFiles } from '../knowledge/document-files.js';
import type { DocumentsService } from '../knowledge/documents.service.js';
import type {
  LearningRepository,
  SuggestionRow,
  SuggestionStatus,
  SuggestionType,
} from './learning.repository.js';
import { answerDocument } from './question-folding.js';

/** The namespace fields scope and knowledge-base checks read. */
export interface NamespaceRef {
  id: string;
  departmentId: string;
  config: Record<string, unknown>;
}

export interface LearningServiceDeps {
  learning: LearningRepository;
  ports: {
    findNamespace(id: string): Promise<NamespaceRef | null>;
    knowledgeBaseIdsOfDepartment(departmentId: string): Promise<string[]>;
    /** The intents module's add-example path (embeds the phrase, creates the intent's trust record). */
    addExample: IntentsService['addExample'];
    /** The knowledge module's upload: stores a file as a pending document and queues its ingestion. */
    upload: DocumentsService['upload'];
    receiveFile: DocumentFiles['receive'];
  };
}

/** A suggestion as the API answers it (never its embedding). */
export function toSuggestion(row: SuggestionRow) {
  return {
    id: row.id,
    namespaceId: row.namespaceId,
    type: row.type as SuggestionType,
    status: row.status as SuggestionStatus,
    intent: row.intentName,
    question: row.question,
    answer: row.answer,
    count: row.count,
    approvalIds: row.approvalIds,
    knowledgeBaseId: row.knowledgeBaseId,
    documentId: row.documentId,
    decidedById: row.decidedById,
    decidedAt: iso(row.decidedAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

/** The suggestion endpoints: the review queue of what edited approvals teach (docs/learning.md). */
export function createLearningService(deps: LearningServiceDeps) {
  const { learning, ports } = deps;

  async function visibleNamespace(actor: Actor, id: string): Promise<NamespaceRef> {
    return assertVisible(
      actor,
      await ports.findNamespace(id),
      (n) => n.departmentId,
      `Namespace ${id} not found`,
    );
  }

  /** The suggestion and its namespace when that is in the actor's departments; NotFoundError otherwise. */
  async function visibleSuggestion(actor: Actor, id: string) {
    const notFound = `Learning suggestion ${id} not found`;
    const row = await learning.findById(id);
    const namespace = row ? await ports.findNamespace(row.namespaceId) : null;
    assertVisible(actor, namespace, (n) => n.departmentId, notFound);
    return { row: row!, namespace: namespace! };
  }

  function assertOpen(row: SuggestionRow): void {
    if (row.status !== 'open')
      throw new ConflictError(`Learning suggestion ${row.id} is already ${row.status}`);
  }

  /** Marks it decided, or 409 when another request decided it first. */
  async function claim(actor: Actor, row: SuggestionRow, status: 'accepted' | 'dismissed') {
    const decided = await learning.decide(row.id, {
      status,
      decidedById: actor.kind === 'user' ? actor.userId : null,
    });
    if (!decided) throw new ConflictError(`Learning suggestion ${row.id} is no longer open`);
    return decided;
  }

  /**
   * Runs what accepting writes elsewhere after the suggestion is claimed, so
   * a second accept cannot write it twice; a failure opens it again and is rethrown.
   */
  async function acceptWith(actor: Actor, row: SuggestionRow, write: () => Promise<SuggestionRow | null>) {
    const claimed = await claim(actor, row, 'accepted');
    try {
      return (await write()) ?? claimed;
    } catch (error) {
      await learning.reopen(row.id);
      throw error;
    }
  }

  /** Writes the answer as a Markdown question-and-answer document through the knowledge module's upload. */
  async function writeAnswer(actor: Actor, row: SuggestionRow, knowledgeBaseId: string) {
    const { title, markdown } = answerDocument(row.question, row.answer ?? '');
    const { tempPath, size } = await ports.receiveFile(Readable.from([Buffer.from(markdown, 'utf8')]));
    const document = await ports.upload(actor, {
      knowledgeBaseId,
      title,
      file: { tempPath, fileName: 'learned-answer.md', size },
    });
    return learning.setDocument(row.id, { knowledgeBaseId, documentId: document.id });
  }

  return {
    /**
     * A namespace's suggestions in one status (default `open`), optionally of
     * one type, the most asked first.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     */
    async list(
      actor: Actor,
      query: {
        namespaceId: string;
        type?: SuggestionType;
        status?: SuggestionStatus;
        limit?: number;
        offset?: number;
      },
    ) {
      const namespace = await visibleNamespace(actor, query.namespaceId);
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await learning.list(
        {
          namespaceId: namespace.id,
          status: query.status ?? 'open',
          ...(query.type ? { type: query.type } : {}),
        },
        { limit, offset },
      );
      return { items: rows.map(toSuggestion), total, limit, offset };
    },

    /**
     * Accepts an open suggestion: an `example` is added to its intent through
     * the intents module (embedded; the intent's trust record is created when
     * it had none); an `answer` is written as a question-and-answer Markdown
     * document into `knowledgeBaseId` and queued for ingestion. Answers the
     * suggestion, `accepted`, with the knowledge base and document of an answer.
     * @throws NotFoundError when it is missing or its namespace is outside the actor's departments.
     * @throws ConflictError when it is not open, or its question is already an example of another intent.
     * @throws ValidationError for an answer without a knowledge base the namespace searches.
     * @throws ServiceUnavailableError when the embedding provider fails (the suggestion stays open).
     */
    async accept(actor: Actor, id: string, input: { knowledgeBaseId?: string }) {
      const { row, namespace } = await visibleSuggestion(actor, id);
      assertOpen(row);
      if (row.type === 'example') {
        const intentName = row.intentName ?? '';
        const accepted = await acceptWith(actor, row, async () => {
          await ports.addExample(actor, { namespaceId: namespace.id, intentName, exampleText: row.question });
          return null;
        });
        return toSuggestion(accepted);
      }
      const knowledgeBaseId = input.knowledgeBaseId;
      const searched = await knowledgeBasesOfNamespace(namespace, ports.knowledgeBaseIdsOfDepartment);
      if (!knowledgeBaseId || !searched.includes(knowledgeBaseId)) {
        const message = knowledgeBaseId
          ? `knowledge base ${knowledgeBaseId} is not one namespace ${namespace.id} searches`
          : 'an answer suggestion needs the knowledge base to write it to';
        throw new ValidationError([{ field: 'body.knowledgeBaseId', message }]);
      }
      return toSuggestion(await acceptWith(actor, row, () => writeAnswer(actor, row, knowledgeBaseId)));
    },

    /**
     * Dismisses an open suggestion; nothing else changes.
     * @throws NotFoundError when it is missing or its namespace is outside the actor's departments.
     * @throws ConflictError when it is not open.
     */
    async dismiss(actor: Actor, id: string) {
      const { row } = await visibleSuggestion(actor, id);
      assertOpen(row);
      return toSuggestion(await claim(actor, row, 'dismissed'));
    },
  };
}

export type LearningService = ReturnType<typeof createLearningService>;
