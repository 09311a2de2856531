import { Type } from 'typebox';
import { Uuid } from '../../core/http/schemas.js';

export const DRAFT_TEXT_MAX_LENGTH = 4000;

/** Passages a draft answers by default, and at most. */
export const DRAFT_DEFAULT_LIMIT = 5;
export const DRAFT_MAX_LIMIT = 50;

export const DraftBody = Type.Object(
  {
    departmentId: Uuid('Department whose knowledge bases are searched; must be one of yours'),
    text: Type.String({
      minLength: 1,
      maxLength: DRAFT_TEXT_MAX_LENGTH,
      pattern: '\\S',
      description: 'The message to answer',
    }),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: DRAFT_MAX_LIMIT,
        default: DRAFT_DEFAULT_LIMIT,
        description: `Passages to retrieve and answer as sources, best first (1-${DRAFT_MAX_LIMIT}, default ${DRAFT_DEFAULT_LIMIT})`,
      }),
    ),
  },
  { additionalProperties: false },
);

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const FlaggedSource = Type.Object({
  chunkId: Uuid('Chunk left out'),
  documentId: Uuid('Its document'),
  documentTitle: Type.String({ maxLength: 1000, description: 'Title of that document' }),
  knowledgeBaseId: Uuid('Knowledge base of that document'),
  reason: Type.String({
    maxLength: 1000,
    description: 'What the injection check found: the rule and the matched text',
  }),
  family: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Kind of injection (for example override), when the detector names one',
    }),
  ),
  score: Type.Optional(Score('Detector score, when the detector gives one')),
});

export const DraftResponse = Type.Object({
  answer: Type.String({ maxLength: 20_000, description: 'The drafted reply' }),
  sources: Type.Array(
    Type.Object({
      chunkId: Uuid('Chunk used'),
      documentId: Uuid('Its document'),
      title: Type.String({ maxLength: 1000, description: 'Document title' }),
      score: Score('Blended retrieval score, by which sources are ranked'),
      confidence: Score(
        'How well the passage matches the message: the blended vector and keyword score with the knowledge base weights, at least 0.9 when the message repeats one of its sentences word for word',
      ),
    }),
    {
      maxItems: DRAFT_MAX_LIMIT,
      description: 'Passages the answer was built from, best first (at most limit)',
    },
  ),
  confidence: Score(
    'The best source confidence (0 when nothing was found); below 0.7 the answer is not trusted without a human',
  ),
  injectionDetected: Type.Boolean({
    description: 'A prompt injection was found in the message or in a retrieved passage',
  }),
  injectionReason: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Which rule matched, and where' }),
  ),
  flaggedSources: Type.Array(FlaggedSource, {
    maxItems: DRAFT_MAX_LIMIT,
    description: 'Retrieved passages left out because they carry a prompt injection, best ranked first',
  }),
});
