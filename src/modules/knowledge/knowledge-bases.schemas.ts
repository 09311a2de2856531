import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';

export const DEFAULT_RAG_WEIGHTS = { vector: 0.7, keyword: 0.3 } as const;

const Weight = (description: string) => Type.Number({ minimum: 0, maximum: 100, description });

export const RagWeights = Type.Object(
  {
    vector: Weight('Weight of vector (cosine) similarity, 0 to 100'),
    keyword: Weight('Weight of keyword (full-text) relevance, 0 to 100'),
  },
  {
    additionalProperties: false,
    description:
      'How retrieval blends its two scores: (vector·cosine + keyword·keyword score) / (vector + keyword). Relative weights; not both zero.',
  },
);

export const DEFAULT_SYNTHETIC_QUESTIONS = { enabled: false, perChunk: 3 } as const;

export const SyntheticQuestions = Type.Object(
  {
    enabled: Type.Boolean({
      description:
        'Generate likely questions per chunk at ingestion and index them with the chunk. Needs a configured LLM (LLM_API_KEY); without one the option is kept but does nothing.',
    }),
    perChunk: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 5,
        description: 'Questions per chunk, 1 to 5 (default 3; an update without it keeps the current value)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Synthetic questions (off by default). Applies to documents ingested or reprocessed after the change.',
  },
);

export const KnowledgeBase = Type.Object({
  id: Uuid('Knowledge base id'),
  name: Type.String(),
  departmentId: Uuid('Department that owns the knowledge base'),
  description: Nullable(Type.String()),
  ragWeights: Type.Object({ vector: Type.Number(), keyword: Type.Number() }),
  syntheticQuestions: Type.Object(
    { enabled: Type.Boolean(), perChunk: Type.Integer({ minimum: 1, maximum: 5 }) },
    { description: 'Whether ingestion generates likely questions per chunk, and how many' },
  ),
  documentCount: Type.Integer({ description: 'Documents in the knowledge base, in any status' }),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Name shown to users' });
const Description = Nullable(Type.String({ maxLength: 2000, description: 'What the knowledge base holds' }));

export const CreateKnowledgeBaseBody = Type.Object(
  {
    name: Name,
    departmentId: Uuid('Department that will own the knowledge base (one of yours)'),
    description: Type.Optional(Description),
    syntheticQuestions: Type.Optional(SyntheticQuestions),
  },
  { additionalProperties: false },
);

export const UpdateKnowledgeBaseBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    syntheticQuestions: Type.Optional(SyntheticQuestions),
  },
  { additionalProperties: false },
);

export const KnowledgeBaseConfigBody = Type.Object(
  { ragWeights: RagWeights },
  { additionalProperties: false },
);

export const ListKnowledgeBasesQuery = Type.Object(
  {
    departmentId: Type.Optional(Uuid('Only this department (one of yours)')),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const KnowledgeBasePage = OffsetPage(KnowledgeBase);
