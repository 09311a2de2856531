/**
 * The pipeline's own work alone, for `bench/pipeline.ts`: per message, the
 * parts of a task that neither store, queue nor publish anything, called
 * one message at a time in this process on the run's data:
 *
 * - the hybrid retrieval of `rag_search` (prompt-injection scan of the
 *   message, embedding, both in-memory legs, the shortlisted chunks' read,
 *   trigram scores, the chunks' injection scan);
 * - the model of `generate` (the offline extractive responder over the
 *   passages found);
 * - the intent classification of `confidence_check`.
 *
 * What the whole pipeline adds to these (the task's rows, jobs and events,
 * its reads, ordering and decision) is what the floor measures on its own.
 * The CPU per message here, next to the floor's, says how much of a
 * machine's CPU a message needs at the least: the two sums to more than
 * the target allows are a machine too slow for it, whatever the code does
 * between them.
 */
import type { Container } from '../src/container.js';
import { type CpuTimes, cpuSpent, cpuTimes, perMessage } from './lib.js';

export interface OwnWorkInput {
  container: Container;
  namespaceId: string;
  departmentId: string;
  knowledgeBaseIds: string[];
  texts: readonly string[];
}

/** CPU milliseconds per message of the own work (this process, and the database for the chunk reads). */
export async function ownWork(input: OwnWorkInput): Promise<CpuTimes> {
  const { container, texts } = input;
  const before = cpuTimes();
  for (const text of texts) {
    const found = await container.rag.retrieval.search({
      text,
      knowledgeBaseIds: input.knowledgeBaseIds,
      departmentIds: [input.departmentId],
      limit: 5,
    });
    await container.llm.chat.complete({
      messages: [
        { role: 'system', content: 'You answer questions about the company.' },
        { role: 'user', content: text },
      ],
      passages: found.hits.map((hit) => ({
        id: hit.chunkId,
        title: hit.title,
        content: hit.content,
        score: hit.score,
      })),
    });
    await container.intents.classifier.classify(input.namespaceId, text, found.embedding ?? undefined);
  }
  return perMessage(cpuSpent(before, cpuTimes()), texts.length);
}
