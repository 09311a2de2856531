import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, tsz } from './columns.js';
import { namespaces } from './knowledge.js';
import { users } from './organisation.js';

/**
 * A namespace's golden question: what an employee might ask and, optionally,
 * what a good answer holds (a phrase, the document it comes from, the intent).
 */
export const evalCases = pgTable(
  'eval_cases',
  {
    id: id(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    /** A phrase the draft must contain (compared case- and whitespace-insensitively). */
    expectedAnswer: text('expected_answer'),
    /**
     * The document whose passage should rank first. No foreign key: a case
     * whose document was deleted keeps its id and then fails visibly.
     */
    expectedDocumentId: uuid('expected_document_id'),
    /** The intent name the classifier should answer. */
    expectedIntent: text('expected_intent'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('eval_cases_namespace_id_created_at_idx').on(t.namespaceId, t.createdAt)],
);

/** One run of a namespace's cases: its state, then each case's result and the totals. */
export const evalRuns = pgTable(
  'eval_runs',
  {
    id: id(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('queued'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** Cases the run evaluates (those of the namespace when it started). */
    caseCount: integer('case_count').notNull().default(0),
    /** Cases evaluated so far (progress while running). */
    processed: integer('processed').notNull().default(0),
    /** Per-case results, in case order; written when the run completes. */
    results: jsonb('results').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    /** Totals over the results; null until the run completes. */
    totals: jsonb('totals').$type<Record<string, number | null>>(),
    /** Why a failed run failed. */
    error: text('error'),
    createdAt: createdAt(),
    startedAt: tsz('started_at'),
    finishedAt: tsz('finished_at'),
  },
  (t) => [
    index('eval_runs_namespace_id_created_at_idx').on(t.namespaceId, t.createdAt),
    // The lost-run sweep's read: runs not finished yet.
    index('eval_runs_unfinished_idx').on(t.createdAt).where(sql`${t.status} in ('queued', 'running')`),
    check('eval_runs_status_check', sql`${t.status} in ('queued', 'running', 'completed', 'failed')`),
  ],
);

export type EvalCaseRow = typeof evalCases.$inferSelect;
export type EvalRunRow = typeof evalRuns.$inferSelect;
