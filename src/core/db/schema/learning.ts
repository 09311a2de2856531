import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, tsz, updatedAt } from './columns.js';
import { knowledgeBases, namespaces } from './knowledge.js';
import { users } from './organisation.js';

/**
 * What an edited approval teaches (docs/learning.md): an `example` (the employee's message for the
 * approval's intent) or an `answer` (the question with the approved edited text). Near-identical
 * questions fold into one suggestion whose `count` grows.
 */
export const learningSuggestions = pgTable(
  'learning_suggestions',
  {
    id: id(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    /** example or answer. */
    type: text('type').notNull(),
    /** open, accepted or dismissed. */
    status: text('status').notNull().default('open'),
    /** The approval's intent (the intent an `example` is for). */
    intentName: text('intent_name'),
    /** The employee's question as first asked. */
    question: text('question').notNull(),
    /** Lower-cased, punctuation and repeated spaces removed: equal texts fold. */
    normalizedQuestion: text('normalized_question').notNull(),
    /** `answer` only: the approved edited text (the latest fold's). */
    answer: text('answer'),
    /** The question's embedding under `embedder`, for folding near-identical questions. */
    embedding: jsonb('embedding').$type<number[]>(),
    embedder: text('embedder'),
    count: integer('count').notNull().default(1),
    /** The edited approvals folded into it, oldest first. */
    approvalIds: jsonb('approval_ids').$type<string[]>().notNull().default([]),
    /** Where an accepted `answer` was written. */
    knowledgeBaseId: uuid('knowledge_base_id').references(() => knowledgeBases.id, { onDelete: 'set null' }),
    documentId: uuid('document_id'),
    decidedById: uuid('decided_by_id').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: tsz('decided_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('learning_suggestions_namespace_id_type_status_idx').on(
      t.namespaceId,
      t.type,
      t.status,
      t.createdAt,
    ),
    check('learning_suggestions_type_check', sql`${t.type} in ('example', 'answer')`),
    check('learning_suggestions_status_check', sql`${t.status} in ('open', 'accepted', 'dismissed')`),
  ],
);
