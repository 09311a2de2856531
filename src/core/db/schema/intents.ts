import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
  vector,
} from 'drizzle-orm/pg-core';
import { createdAt, id, MIGRATED_EMBEDDING_DIMENSIONS, updatedAt } from './columns.js';
import { namespaces } from './knowledge.js';
import { users } from './organisation.js';

export const intentExamples = pgTable(
  'intent_examples',
  {
    id: id(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    intentName: text('intent_name').notNull(),
    exampleText: text('example_text').notNull(),
    embedding: vector('embedding', { dimensions: MIGRATED_EMBEDDING_DIMENSIONS }),
    /** The embedder that made `embedding` (EmbeddingProvider.version); null: made before versions were kept. */
    embedder: text('embedder'),
    createdAt: createdAt(),
  },
  (t) => [
    index('intent_examples_namespace_id_intent_name_idx').on(t.namespaceId, t.intentName),
    index('intent_examples_embedding_idx').using('hnsw', t.embedding.op('vector_cosine_ops')),
    // The same phrase twice in one namespace is one example; hashed because a phrase may exceed a btree entry.
    uniqueIndex('intent_examples_namespace_id_text_idx').on(t.namespaceId, sql`md5(${t.exampleText})`),
  ],
);

export const intentTrust = pgTable(
  'intent_trust',
  {
    id: id(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    intentName: text('intent_name').notNull(),
    successfulCount: integer('successful_count').notNull().default(0),
    threshold: integer('threshold').notNull().default(5),
    isAutonomous: boolean('is_autonomous').notNull().default(false),
    /** Fraction of an autonomous intent's replies still sent to a human. */
    samplingRate: doublePrecision('sampling_rate').notNull().default(0.1),
    /**
     * Rejections or edits in a row of the autonomous intent, counted only when
     * the namespace sets `config.trust.demoteAfter`; a plain approval resets it.
     */
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('intent_trust_namespace_id_intent_name_idx').on(t.namespaceId, t.intentName)],
);

/**
 * What moved an intent's trust, one row per decision or feedback (docs/approvals.md): `clean` (a
 * counted plain approval), `edit`, `reject`, `not_counted` (a plain approval of an ungrounded draft)
 * and `down` (an employee's "down" rating of an auto-sent reply). The evidence of `GET /intents/trust`
 * and the `confidence` mode's window are read from here. No foreign keys: the history outlives the
 * approvals and messages it names.
 */
export const trustEvents = pgTable(
  'trust_events',
  {
    id: id(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    intentName: text('intent_name').notNull(),
    kind: text('kind').notNull(),
    approvalId: uuid('approval_id'),
    /** The reply a `down` rating was given to. */
    messageId: uuid('message_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('trust_events_namespace_id_intent_name_created_at_idx').on(
      t.namespaceId,
      t.intentName,
      t.createdAt,
    ),
    // One `down` per reply, whoever gave it: a second employee's rating of the same reply is not a second rejection.
    uniqueIndex('trust_events_down_message_id_idx').on(t.messageId).where(sql`${t.kind} = 'down'`),
    check('trust_events_kind_check', sql`${t.kind} in ('clean', 'edit', 'reject', 'not_counted', 'down')`),
  ],
);

/** First time an employee hit an intent in a namespace (HITL trigger 3). */
export const intentInteractions = pgTable(
  'intent_interactions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    intentName: text('intent_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'intent_interactions_pk', columns: [t.userId, t.namespaceId, t.intentName] })],
);
