import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';
import { DOCUMENT_TYPES } from './document-files.js';

export const DOCUMENT_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const TITLE_MAX = 300;
export const URL_MAX = 2048;
/** Caller metadata: at most this many keys and this many bytes of JSON. */
export const METADATA_MAX_KEYS = 50;
export const METADATA_MAX_BYTES = 16 * 1024;

const Status = Type.Union(
  DOCUMENT_STATUSES.map((s) => Type.Literal(s)),
  { description: 'pending → processing → ready, or failed (metadata.error says why)' },
);
const DocType = Type.Union(
  DOCUMENT_TYPES.map((t) => Type.Literal(t)),
  { description: 'pdf, docx, txt, md, png, jpg, or url for fetched pages' },
);

const Title = Type.String({ minLength: 1, maxLength: TITLE_MAX, description: 'Title shown to users' });
const HttpUrl = Type.String({
  format: 'uri',
  maxLength: URL_MAX,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
  description: 'An http or https address',
});
const OwnMetadata = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  maxProperties: METADATA_MAX_KEYS,
  description: `Your own keys (at most ${METADATA_MAX_KEYS}, ${METADATA_MAX_BYTES} bytes as JSON); error, ingestion and fileName are kept by the service`,
});

export const Document = Type.Object({
  id: Uuid('Document id'),
  knowledgeBaseId: Uuid('Knowledge base the document belongs to'),
  departmentId: Uuid("The knowledge base's department"),
  title: Type.String(),
  type: Type.String({ description: 'pdf, docx, txt, md, png, jpg or url' }),
  originalUrl: Nullable(Type.String({ description: 'Fetched address (url documents) or a source link' })),
  mimeType: Nullable(Type.String()),
  sizeBytes: Nullable(Type.Integer({ description: 'Size of the uploaded file' })),
  status: Type.String({ description: 'pending, processing, ready or failed' }),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'Your keys, plus error (why ingestion failed), ingestion (what the last run found) and fileName (of an upload)',
  }),
  uploadedById: Nullable(Uuid('Who added the document')),
  heldBackChunkCount: Type.Integer({
    minimum: 0,
    description: 'Chunks held back from retrieval because the ingestion-time scan found a prompt injection',
  }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const DocumentChunk = Type.Object({
  id: Uuid('Chunk id'),
  chunkIndex: Type.Integer({ description: 'Position in the document, from 0' }),
  content: Type.String(),
  tokenCount: Type.Integer({ description: 'Estimated tokens' }),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description: 'headingPath (headings above the chunk) and page (PDF) where known',
  }),
  heldBack: Type.Boolean({ description: 'Kept out of retrieval (see heldBackChunks for why)' }),
});

/** The most held-back chunks a detail lists; heldBackChunkCount gives the total. */
export const HELD_BACK_LIST_MAX = 100;

export const HeldBackChunk = Type.Object({
  chunkId: Uuid('Chunk kept out of retrieval'),
  chunkIndex: Type.Integer({ minimum: 0, description: 'Position in the document, from 0' }),
  family: Nullable(
    Type.String({
      maxLength: 100,
      description: 'Kind of injection found (for example override), when known',
    }),
  ),
  reason: Type.String({ maxLength: 1000, description: 'What the scan found, and where' }),
  score: Nullable(
    Type.Number({ minimum: 0, maximum: 1, description: 'Detector score from 0 to 1, when known' }),
  ),
  source: Type.Union([Type.Literal('text'), Type.Literal('hidden-html')], {
    description: "text: the chunk's own text; hidden-html: text the web page hides from its readers",
  }),
  excerpt: Type.String({
    maxLength: 200,
    description: 'Up to 200 characters of the chunk, around the match',
  }),
});

export const DocumentDetail = Type.Object({
  ...Document.properties,
  chunkCount: Type.Integer({ description: 'Chunks stored for the document, held-back ones included' }),
  heldBackChunks: Type.Optional(
    Type.Array(HeldBackChunk, {
      maxItems: HELD_BACK_LIST_MAX,
      description: `Chunks kept out of retrieval with the scan's reasons, in reading order (the first ${HELD_BACK_LIST_MAX}); present when you hold canViewKnowledge`,
    }),
  ),
  chunks: Type.Optional(
    Type.Array(DocumentChunk, { description: 'A page of chunks; present when you hold canViewKnowledge' }),
  ),
});

export const ListDocumentsQuery = Type.Object(
  {
    knowledgeBaseId: Type.Optional(Uuid('Only this knowledge base')),
    departmentId: Type.Optional(Uuid('Only this department (one of yours)')),
    status: Type.Optional(Status),
    type: Type.Optional(DocType),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const DocumentDetailQuery = Type.Object(
  {
    chunkLimit: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 500, default: 100, description: 'Chunks to include (0-500)' }),
    ),
    chunkOffset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Chunks to skip' }),
    ),
  },
  { additionalProperties: false },
);

export const CreateUrlDocumentBody = Type.Object(
  {
    knowledgeBaseId: Uuid('Knowledge base to add the page to'),
    title: Title,
    type: Type.Literal('url', { description: 'Always url: files go through /knowledge/upload' }),
    originalUrl: HttpUrl,
  },
  { additionalProperties: false },
);

export const UpdateDocumentBody = Type.Object(
  {
    title: Type.Optional(Title),
    originalUrl: Type.Optional(Nullable(HttpUrl)),
    metadata: Type.Optional(OwnMetadata),
  },
  { additionalProperties: false },
);

export const DocumentPage = OffsetPage(Document);
