import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
  vector,
} from 'drizzle-orm/pg-core';
import { createdAt, id, MIGRATED_EMBEDDING_DIMENSIONS, tsvector, updatedAt } from './columns.js';
import { departments, users } from './organisation.js';

export interface Persona {
  language?: string;
  style?: { formality?: number; [key: string]: unknown };
  boundaries?: string[];
  escalateToRole?: string;
  [key: string]: unknown;
}

/** Why a chunk was held back at ingestion: the injection detector's verdict. */
export interface ChunkInjection {
  reason: string;
  family?: string;
  /** Detector score in [0, 1], when the detector gives one. */
  score?: number;
  /** The matched text, when the detector gives it. */
  span?: string;
  /** `text` (the chunk's own text) or `hidden-html` (text the page hides from its readers). */
  source: 'text' | 'hidden-html';
}

export interface RagWeights {
  vector: number;
  keyword: number;
}

/** The knowledge base's synthetic-questions option: questions generated per chunk at ingestion. */
export interface SyntheticQuestionsSettings {
  enabled: boolean;
  /** Questions asked of the LLM per chunk, 1 to 5. */
  perChunk: number;
}

export const namespaces = pgTable(
  'namespaces',
  {
    id: id(),
    name: text('name').notNull(),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    systemPrompt: text('system_prompt'),
    persona: jsonb('persona').$type<Persona>().notNull().default({}),
    /** `agentRunner.activeAdapter`, `knowledgeBaseIds`, plugin settings. */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('namespaces_department_id_idx').on(t.departmentId)],
);

export const namespacePlugins = pgTable(
  'namespace_plugins',
  {
    id: id(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    pluginId: text('plugin_id').notNull(),
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('namespace_plugins_namespace_id_plugin_id_idx').on(t.namespaceId, t.pluginId)],
);

export const knowledgeBases = pgTable(
  'knowledge_bases',
  {
    id: id(),
    name: text('name').notNull(),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    description: text('description'),
    ragWeights: jsonb('rag_weights').$type<RagWeights>().notNull().default({ vector: 0.7, keyword: 0.3 }),
    /** Off by default: with an LLM configured, ingestion asks it for likely questions per chunk. */
    syntheticQuestions: jsonb('synthetic_questions')
      .$type<SyntheticQuestionsSettings>()
      .notNull()
      .default({ enabled: false, perChunk: 3 }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('knowledge_bases_department_id_idx').on(t.departmentId)],
);

export const documents = pgTable(
  'documents',
  {
    id: id(),
    knowledgeBaseId: uuid('knowledge_base_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    /** Copied from the knowledge base so scoped lists need no join. */
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    title: text('title').notNull(),
    /** pdf, docx, txt, md, png, jpg or url. */
    type: text('type').notNull(),
    originalUrl: text('original_url'),
    /** File name under DATA_DIR/documents for uploads. */
    storedFile: text('stored_file'),
    mimeType: text('mime_type'),
    sizeBytes: integer('size_bytes'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /** pending, processing, ready or failed (metadata.error says why). */
    status: text('status').notNull().default('pending'),
    uploadedById: uuid('uploaded_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('documents_knowledge_base_id_idx').on(t.knowledgeBaseId),
    index('documents_department_id_status_idx').on(t.departmentId, t.status),
  ],
);

export const chunks = pgTable(
  'chunks',
  {
    id: id(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    knowledgeBaseId: uuid('knowledge_base_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    chunkIndex: integer('chunk_index').notNull(),
    content: text('content').notNull(),
    tokenCount: integer('token_count').notNull().default(0),
    embedding: vector('embedding', { dimensions: MIGRATED_EMBEDDING_DIMENSIONS }),
    /** The embedder that made `embedding` (EmbeddingProvider.version); null: made before versions were kept. */
    embedder: text('embedder'),
    /** `simple` configuration: no stemming, so Ukrainian, Russian and English behave alike. */
    searchVector: tsvector('search_vector').generatedAlwaysAs(sql`to_tsvector('simple', content)`),
    /**
     * The keyword leg's terms: stems with their positions (tf = number of
     * positions), written by the application (modules/rag/text-analysis.ts);
     * null until indexed. Triggers keep kb_term_stats and kb_stats current.
     */
    terms: tsvector('terms'),
    /** Indexed words of the chunk (BM25's document length). */
    termCount: integer('term_count').notNull().default(0),
    /** headingPath, page and the like. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    /**
     * Questions the LLM expects the chunk to answer (the knowledge base's
     * syntheticQuestions option); indexed with the content, never shown as a
     * source. Null when none were generated.
     */
    syntheticQuestions: jsonb('synthetic_questions').$type<string[]>(),
    /** Kept out of retrieval: the ingestion-time prompt-injection scan flagged the chunk. */
    heldBack: boolean('held_back').notNull().default(false),
    /** The scan's verdict on a held-back chunk (reason, family, score, span); null when served. */
    injection: jsonb('injection').$type<ChunkInjection>(),
    /**
     * The fingerprint of the detector whose ingestion scan read this chunk's
     * content (modules/rag/injection/fingerprint.ts). Retrieval does not scan
     * the content of a served chunk again when it is the running detector's;
     * null (stored before, or by another path): scanned at query time.
     */
    scannedBy: text('scanned_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('chunks_document_id_idx').on(t.documentId),
    index('chunks_knowledge_base_id_idx').on(t.knowledgeBaseId),
    index('chunks_embedding_idx').using('hnsw', t.embedding.op('vector_cosine_ops')),
    index('chunks_search_vector_idx').using('gin', t.searchVector),
    index('chunks_content_trgm_idx').using('gin', t.content.op('gin_trgm_ops')),
    // fastupdate off: PGlite never vacuums, and a growing pending list would be scanned by every query.
    index('chunks_terms_idx').using('gin', t.terms).with({ fastupdate: false }),
  ],
);

/** Per knowledge base and term: how many chunks hold the term (BM25's document frequency). */
export const kbTermStats = pgTable(
  'kb_term_stats',
  {
    knowledgeBaseId: uuid('knowledge_base_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    term: text('term').notNull(),
    df: integer('df').notNull(),
  },
  (t) => [primaryKey({ columns: [t.knowledgeBaseId, t.term] })],
);

/** Per knowledge base: indexed chunks and their words in all (BM25's N and average length), and the chunks' version. */
export const kbStats = pgTable('kb_stats', {
  knowledgeBaseId: uuid('knowledge_base_id')
    .primaryKey()
    .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
  chunkCount: integer('chunk_count').notNull().default(0),
  totalTerms: bigint('total_terms', { mode: 'number' }).notNull().default(0),
  /**
   * Changes (to the next value of the sequence `kb_keyword_version`) with
   * every write of the base's chunks: insert, delete, terms, held_back or
   * embedding changed. A process's in-memory keyword and vector indexes of
   * the base are current while this is the version they loaded
   * (modules/rag/keyword-index.ts, vector-index.ts).
   */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
