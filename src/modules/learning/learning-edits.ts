import type { FastifyBaseLogger } from 'fastify';
import type { DbExecutor, Transaction } from '../../core/db/client.js';
import type { approvals } from '../../core/db/schema/index.js';
import { type EmbeddingProvider, embedderVersion } from '../../core/llm/llm.js';
import { UNKNOWN_INTENT } from '../intents/intent-vote.js';
import type { LearningRepository, SuggestionType } from './learning.repository.js';
import { foldTarget, normalizeQuestion } from './question-folding.js';

/** An approval row (the approvals module's `ApprovalRow`, read from the schema to keep the modules apart). */
export type ApprovalRow = typeof approvals.$inferSelect;

/** The employee's question of an edited approval, embedded before the decision's transaction. */
export interface PreparedEdit {
  question: string;
  /** Null when the embedding provider failed: the edit then folds by normalised text only. */
  embedding: number[] | null;
  embedder: string | null;
}

export interface LearningEditsDeps {
  learning: LearningRepository;
  embeddings: EmbeddingProvider;
  logger: FastifyBaseLogger;
  /** The text of a message (the approval's inbound one), read in the caller's transaction when given. */
  messageContent(messageId: string, tx?: DbExecutor): Promise<string | null>;
}

/** The question an approval answers: the one its context shows the reviewer, else its inbound message. */
async function questionOf(
  approval: ApprovalRow,
  messageContent: LearningEditsDeps['messageContent'],
  tx?: DbExecutor,
): Promise<string | null> {
  const userMessage = (approval.context as { userMessage?: { content?: unknown } }).userMessage;
  const fromContext = typeof userMessage?.content === 'string' ? userMessage.content.trim() : '';
  if (fromContext) return fromContext;
  if (!approval.messageId) return null;
  return (await messageContent(approval.messageId, tx))?.trim() || null;
}

/**
 * What edited approvals teach (docs/learning.md): the approval decision calls
 * {@link LearningEdits.prepare} before its transaction and
 * {@link LearningEdits.recordEdit} inside it.
 */
export function createLearningEdits(deps: LearningEditsDeps) {
  const { learning, embeddings, logger, messageContent } = deps;

  /** Folds the edit into the open suggestion it matches, or inserts a new one. */
  async function suggest(
    tx: Transaction,
    approval: ApprovalRow & { namespaceId: string },
    type: SuggestionType,
    prepared: PreparedEdit,
    answer: string | null,
  ): Promise<void> {
    const intentName = type === 'example' ? approval.intent : null;
    await learning.lockFolding(approval.namespaceId, type, tx);
    const candidates = await learning.lockOpenCandidates(
      { namespaceId: approval.namespaceId, type, intentName },
      tx,
    );
    const normalizedQuestion = normalizeQuestion(prepared.question);
    const target = foldTarget(
      { normalizedQuestion, embedding: prepared.embedding, embedder: prepared.embedder },
      candidates,
    );
    if (target) {
      // The same approval recorded again (a replayed decision) is not a second edit.
      if (target.approvalIds.includes(approval.id)) return;
      await learning.fold(target.id, { approvalId: approval.id, answer }, tx);
      return;
    }
    await learning.insert(
      {
        namespaceId: approval.namespaceId,
        type,
        intentName: approval.intent,
        question: prepared.question,
        normalizedQuestion,
        answer,
        embedding: prepared.embedding,
        embedder: prepared.embedding ? prepared.embedder : null,
        approvalIds: [approval.id],
      },
      tx,
    );
  }

  return {
    /**
     * Reads the employee's question of `approval` and embeds it with the
     * service's embedder. Called before the decision's transaction (a model
     * call must not hold row locks). An embedding failure is logged and
     * answers the question without an embedding, never an error; null when
     * the approval has no namespace or no question.
     */
    async prepare(approval: ApprovalRow): Promise<PreparedEdit | null> {
      if (!approval.namespaceId) return null;
      const question = await questionOf(approval, messageContent);
      if (!question) return null;
      try {
        const [embedding] = await embeddings.embed([question]);
        return {
          question,
          embedding: embedding ?? null,
          embedder: embedding ? embedderVersion(embeddings) : null,
        };
      } catch (err) {
        logger.warn({ err, approvalId: approval.id }, 'learning: the question could not be embedded');
        return { question, embedding: null, embedder: null };
      }
    },

    /**
     * Records an edited approval as suggestions of its namespace, inside the
     * decision's transaction `tx`: an `example` (when the intent is set and not
     * `unknown`) and an `answer` with `editedContent`. Each folds into an open
     * suggestion of the same type (and intent) whose normalised question is
     * equal or whose embedding is at least 0.95 in cosine, else is inserted.
     * Edits of one namespace are serialised, so two concurrent edits of a new
     * question make one suggestion. Approvals without a namespace or question
     * yield nothing. `prepared` is {@link prepare}'s answer (null: text only).
     */
    async recordEdit(
      tx: Transaction,
      approval: ApprovalRow,
      editedContent: string,
      prepared: PreparedEdit | null,
    ): Promise<void> {
      const { namespaceId } = approval;
      if (!namespaceId) return;
      const edit =
        prepared ??
        (await questionOf(approval, messageContent, tx).then((question) =>
          question ? { question, embedding: null, embedder: null } : null,
        ));
      if (!edit) return;
      const scoped = { ...approval, namespaceId };
      if (approval.intent && approval.intent.toLowerCase() !== UNKNOWN_INTENT) {
        await suggest(tx, scoped, 'example', edit, null);
      }
      await suggest(tx, scoped, 'answer', edit, editedContent);
    },
  };
}

export type LearningEdits = ReturnType<typeof createLearningEdits>;
