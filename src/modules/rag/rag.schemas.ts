import { Type } from 'typebox';
import { Uuid } from '../../core/http/schemas.js';

export const DRAFT_TEXT_MAX_LENGTH = 4000;

export const DraftBody = Type.Object(
  {
    departmentId: Uuid('Department whose knowledge bases are searched; must be one of yours'),
    text: Type.String({
      minLength: 1,
      maxLength: DRAFT_TEXT_MAX_LENGTH,
      pattern: '\\S',
      description: 'The message to answer',
    }),
  },
  { additionalProperties: false },
);

const Score = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const DraftResponse = Type.Object({
  answer: Type.String({ maxLength: 20_000, description: 'The drafted reply' }),
  sources: Type.Array(
    Type.Object({
      chunkId: Uuid('Chunk used'),
      documentId: Uuid('Its document'),
      title: Type.String({ maxLength: 1000, description: 'Document title' }),
      score: Score('Blended retrieval score'),
    }),
    { maxItems: 20, description: 'Passages the answer was built from, best first' },
  ),
  confidence: Score('The best passage score (0 when nothing was found)'),
  injectionDetected: Type.Boolean({
    description: 'A prompt injection was found in the message or in a retrieved passage',
  }),
  injectionReason: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Which rule matched, and where' }),
  ),
});
