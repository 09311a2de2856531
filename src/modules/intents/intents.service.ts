import type { Actor } from '../../core/auth/actor.js';
import { assertVisible } from '../../core/auth/department-scope.js';
import type { Database } from '../../core/db/client.js';
import {
  ConflictError,
  NotFoundError,
  ServiceUnavailableError,
  type ValidationDetail,
  ValidationError,
} from '../../core/errors/app-errors.js';
import { iso } from '../../core/http/schemas.js';
import { type EmbeddingProvider, embedderVersion, LlmProviderError } from '../../core/llm/llm.js';
import type { IntentClassifier } from './intent-classifier.js';
import type {
  IntentExampleRow,
  IntentExamplesRepository,
  NamespaceRef,
} from './intent-examples.repository.js';
import { checkIntentName, checkPhrase } from './intent-input.js';
import type { IntentTrustRepository } from './intent-trust.repository.js';

/** Phrases per embedding call, as the provider contract asks callers to batch. */
export const EMBEDDING_BATCH = 32;

export function toIntentExample(row: IntentExampleRow) {
  return {
    id: row.id,
    namespaceId: row.namespaceId,
    intentName: row.intentName,
    exampleText: row.exampleText,
    createdAt: iso(row.createdAt),
  };
}

export interface NewExample {
  intentName: string;
  exampleText: string;
}

/** The provider's failure as the API answers it: 503 with a generic message. */
async function withProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LlmProviderError) {
      throw new ServiceUnavailableError('The embedding service is unavailable; try again later');
    }
    throw error;
  }
}

export function createIntentsService(deps: {
  db: Database;
  examples: IntentExamplesRepository;
  trust: IntentTrustRepository;
  classifier: IntentClassifier;
  embeddings: EmbeddingProvider;
}) {
  const { db, examples, trust, classifier, embeddings } = deps;

  async function visibleNamespace(actor: Actor, namespaceId: string): Promise<NamespaceRef> {
    return assertVisible(
      actor,
      await examples.namespace(namespaceId),
      (n) => n.departmentId,
      `Namespace ${namespaceId} not found`,
    );
  }

  /** The existing example for a repeated phrase, or 409 when it belongs to another intent. */
  function repeated(existing: IntentExampleRow, intentName: string) {
    if (existing.intentName !== intentName) {
      throw new ConflictError(
        `The phrase is already an example of intent "${existing.intentName}" in namespace ${existing.namespaceId}`,
      );
    }
    return { example: toIntentExample(existing), created: false };
  }

  const service = {
    /**
     * Embeds and stores examples of one namespace, {@link EMBEDDING_BATCH}
     * phrases per provider call; each batch is inserted in one transaction
     * together with the trust records of intents that had none (defaults).
     * Phrases already stored in the namespace are skipped. No access checks:
     * the HTTP method and the seeding command decide. Answers the inserted rows.
     * @throws LlmProviderError when the embedding provider fails (earlier batches stay stored).
     */
    async storeExamples(
      namespaceId: string,
      items: readonly NewExample[],
      onBatch?: (done: number, total: number) => void,
    ): Promise<IntentExampleRow[]> {
      const inserted: IntentExampleRow[] = [];
      const embedder = embedderVersion(embeddings);
      for (let start = 0; start < items.length; start += EMBEDDING_BATCH) {
        const batch = items.slice(start, start + EMBEDDING_BATCH);
        const vectors = await embeddings.embed(batch.map((item) => item.exampleText));
        const rows = await db.transaction(async (tx) => {
          const stored = await examples.insertMany(
            batch.map((item, i) => ({ namespaceId, ...item, embedding: vectors[i] ?? null, embedder })),
            tx,
          );
          await trust.ensure(
            namespaceId,
            stored.map((row) => row.intentName),
            tx,
          );
          return stored;
        });
        // After the commit: every process's in-memory copy of the examples reloads at its next use.
        if (rows.length > 0) await classifier.examplesChanged(namespaceId);
        inserted.push(...rows);
        onBatch?.(Math.min(start + batch.length, items.length), items.length);
      }
      return inserted;
    },

    /**
     * Adds one example phrase (as `exampleText` or `phrase`) to an intent.
     * The same phrase again for the same intent answers the stored example
     * with `created: false`.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     * @throws ValidationError without a phrase, for two different phrases, or a bad intent name.
     * @throws ConflictError when the phrase is already an example of another intent.
     * @throws ServiceUnavailableError when the embedding provider fails.
     */
    async addExample(
      actor: Actor,
      input: { namespaceId: string; intentName: string; exampleText?: string; phrase?: string },
    ) {
      const problems: ValidationDetail[] = [];
      const name = checkIntentName(input.intentName);
      if (!name.ok) problems.push({ field: 'body.intentName', message: name.problem });
      const field = input.exampleText === undefined ? 'body.phrase' : 'body.exampleText';
      const raw = input.exampleText ?? input.phrase;
      const phrase = raw === undefined ? null : checkPhrase(raw);
      if (!phrase) {
        problems.push({ field: 'body.exampleText', message: 'exampleText (or phrase) is required' });
      } else if (!phrase.ok) {
        problems.push({ field, message: phrase.problem });
      } else if (input.phrase !== undefined && input.phrase.trim() !== phrase.value) {
        problems.push({ field: 'body.phrase', message: 'differs from exampleText; send one of them' });
      }
      if (problems.length > 0 || !name.ok || !phrase?.ok) throw new ValidationError(problems);

      const namespace = await visibleNamespace(actor, input.namespaceId);
      const existing = await examples.findByText(namespace.id, phrase.value);
      if (existing) return repeated(existing, name.value);
      const [row] = await withProvider(() =>
        service.storeExamples(namespace.id, [{ intentName: name.value, exampleText: phrase.value }]),
      );
      if (row) return { example: toIntentExample(row), created: true };
      // Stored by a concurrent request between the lookup and the insert.
      const winner = await examples.findByText(namespace.id, phrase.value);
      if (!winner) throw new ConflictError('The phrase was stored and removed concurrently; try again');
      return repeated(winner, name.value);
    },

    /**
     * Examples of a namespace, optionally of one intent (name trimmed), newest first.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     */
    async listExamples(
      actor: Actor,
      query: { namespaceId: string; intentName?: string; limit?: number; offset?: number },
    ) {
      const namespace = await visibleNamespace(actor, query.namespaceId);
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const filter = {
        namespaceId: namespace.id,
        ...(query.intentName === undefined ? {} : { intentName: query.intentName.trim() }),
      };
      const { rows, total } = await examples.list(filter, { limit, offset });
      return { items: rows.map(toIntentExample), total, limit, offset };
    },

    /**
     * Deletes one example. The intent's trust record stays, even when this was its last example.
     * @throws NotFoundError when missing or its namespace is outside the actor's departments.
     */
    async deleteExample(actor: Actor, id: string): Promise<void> {
      const example = await examples.findById(id);
      const namespace = example ? await examples.namespace(example.namespaceId) : null;
      assertVisible(actor, namespace, (n) => n.departmentId, `Intent example ${id} not found`);
      if (!(await examples.delete(id))) throw new NotFoundError(`Intent example ${id} not found`);
      await classifier.examplesChanged(example!.namespaceId);
    },

    /**
     * The namespace's intent names with their example counts, by name.
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     */
    async listIntents(actor: Actor, query: { namespaceId: string; limit?: number; offset?: number }) {
      const namespace = await visibleNamespace(actor, query.namespaceId);
      const limit = query.limit ?? 20;
      const offset = query.offset ?? 0;
      const { rows, total } = await examples.intents(namespace.id, { limit, offset });
      return {
        items: rows.map((r) => ({ ...r, exampleCount: Number(r.exampleCount) })),
        total,
        limit,
        offset,
      };
    },

    /**
     * Classifies a message against the namespace's examples (see the classifier).
     * @throws NotFoundError when the namespace is missing or outside the actor's departments.
     * @throws ServiceUnavailableError when the embedding provider fails.
     */
    async classify(actor: Actor, input: { namespaceId: string; text: string }) {
      const namespace = await visibleNamespace(actor, input.namespaceId);
      return withProvider(() => classifier.classify(namespace.id, input.text));
    },
  };
  return service;
}

export type IntentsService = ReturnType<typeof createIntentsService>;
