import type { Actor } from '../../core/auth/actor.js';
import { assertDepartmentFilter } from '../../core/auth/department-scope.js';
import { NotFoundError, ServiceUnavailableError } from '../../core/errors/app-errors.js';
import { guessLanguage } from '../../core/llm/extractive-responder.js';
import { type ChatProvider, LlmProviderError } from '../../core/llm/llm.js';
import { INJECTION_REFUSAL } from '../../core/llm/non-answers.js';
import type { DepartmentsRepository } from '../departments/departments.repository.js';
import { flaggedSourcesOf, flaggedSourcesReason } from './flagged-sources.js';
import { detectInjection } from './injection-detection.js';
import type { RagRepository } from './rag.repository.js';
import { DRAFT_DEFAULT_LIMIT } from './rag.schemas.js';
import type { Retrieval } from './retrieval.js';

/** The system prompt of a draft: answer from the passages, in the user's language. */
export const DRAFT_SYSTEM_PROMPT =
  'You are a company assistant drafting a reply to an employee. Answer briefly, in the language of the question, ' +
  'using only the knowledge base passages provided. If they do not answer the question, say that you do not know.';

export interface DraftInput {
  departmentId: string;
  text: string;
  /** Passages retrieved and answered as sources (default 5). */
  limit?: number;
  /** Search only these knowledge bases (a namespace's); every base of the department when absent. */
  knowledgeBaseIds?: readonly string[];
}

export interface RagServiceDeps {
  rag: RagRepository;
  departments: DepartmentsRepository;
  retrieval: Retrieval;
  chat: ChatProvider;
}

export function createRagService(deps: RagServiceDeps) {
  const { rag, departments, retrieval, chat } = deps;

  return {
    /**
     * Drafts an answer to `text` from every knowledge base of the department:
     * hybrid retrieval, then the chat provider (or the offline extractive
     * responder) over the clean passages, at most `limit` of them, each
     * with its confidence. A message that is itself a prompt injection gets
     * a fixed refusal without retrieval or a model call; retrieved chunks
     * carrying an injection are left out of the prompt and reported through
     * `injectionDetected`, `injectionReason` and `flaggedSources`; chunks held
     * back at ingestion are never retrieved at all.
     * @throws ForbiddenError when the department is outside the caller's departments.
     * @throws NotFoundError when the department does not exist.
     * @throws ServiceUnavailableError when the language or embedding model cannot be reached.
     */
    async draft(actor: Actor, input: DraftInput) {
      assertDepartmentFilter(actor, input.departmentId);
      const department = await departments.findById(input.departmentId);
      if (!department) throw new NotFoundError(`Department ${input.departmentId} not found`);

      const own = detectInjection(input.text);
      if (own.detected) {
        return {
          answer: INJECTION_REFUSAL[guessLanguage(input.text)],
          sources: [],
          confidence: 0,
          injectionDetected: true,
          injectionReason: `message: ${own.reason}`,
          flaggedSources: [],
        };
      }

      try {
        const knowledgeBaseIds =
          input.knowledgeBaseIds ?? (await rag.knowledgeBaseIdsOfDepartment(department.id));
        const found = await retrieval.search({
          text: input.text,
          knowledgeBaseIds,
          departmentIds: [department.id],
          limit: input.limit ?? DRAFT_DEFAULT_LIMIT,
        });
        const reply = await chat.complete({
          messages: [
            { role: 'system', content: DRAFT_SYSTEM_PROMPT },
            { role: 'user', content: input.text },
          ],
          // The responder quotes by the answer confidence, the value the 0.7 line reads.
          passages: found.hits.map((h) => ({
            id: h.chunkId,
            title: h.title,
            content: h.content,
            score: h.confidence,
            headingPath: h.headingPath,
          })),
        });
        const flaggedSources = flaggedSourcesOf(found.injected);
        const injectionReason = flaggedSourcesReason(flaggedSources);
        return {
          answer: reply.text,
          sources: found.hits.map((h) => ({
            chunkId: h.chunkId,
            documentId: h.documentId,
            title: h.title,
            // The ranking score (blended, lifted to 0.9 or more for a word-for-word repeat)
            // and the answer confidence calibrated from it (answer-confidence.ts).
            score: round(h.score),
            confidence: round(h.confidence),
          })),
          confidence: round(found.confidence),
          injectionDetected: flaggedSources.length > 0,
          ...(injectionReason ? { injectionReason } : {}),
          flaggedSources,
        };
      } catch (error) {
        if (error instanceof LlmProviderError) {
          throw new ServiceUnavailableError('The language model service is unavailable; try again later');
        }
        throw error;
      }
    },
  };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

export type RagService = ReturnType<typeof createRagService>;
