import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../core/http/schemas.js';

export const TraceParams = Type.Object({
  trace_id: Type.String({
    minLength: 1,
    maxLength: 128,
    pattern: '^[A-Za-z0-9._:-]+$',
    description: 'Trace id, as an agent task’s traceId gives it',
  }),
});

export const RetrievalHit = Type.Object({
  id: Uuid('Hit id'),
  chunkId: Nullable(Uuid('Retrieved chunk; null when the chunk was deleted since')),
  documentId: Nullable(Uuid('Document of the chunk; null when deleted since')),
  rank: Type.Integer({ description: 'Position in the results, from 1' }),
  score: Type.Number({ description: 'Blended score of vector and keyword similarity' }),
  vectorScore: Nullable(Type.Number({ description: 'Cosine similarity part of the score' })),
  keywordScore: Nullable(Type.Number({ description: 'Keyword part of the score, normalised to 0-1' })),
});

export const AgentRun = Type.Object({
  id: Uuid('Run id'),
  traceId: Type.String({ description: 'Trace id' }),
  taskId: Nullable(Uuid('Agent task the generation belongs to')),
  departmentId: Nullable(Uuid('Department of the task')),
  namespaceId: Nullable(Uuid('Namespace of the task')),
  provider: Type.String({ description: 'Provider that generated the reply' }),
  model: Type.String({ description: 'Model that generated the reply' }),
  inputTokens: Type.Integer({ description: 'Prompt tokens of the generation' }),
  outputTokens: Type.Integer({ description: 'Completion tokens of the generation' }),
  totalTokens: Type.Integer({ description: 'Prompt and completion tokens together' }),
  costUsd: Type.Number({ description: 'Estimated cost in US dollars' }),
  usageKnown: Type.Boolean({
    description:
      'False when the model server reported no token usage: the token counts and the cost are then 0 because they are unknown',
  }),
  latencyMs: Type.Integer({ description: 'How long the model call took, in milliseconds' }),
  createdAt: DateTime(),
  retrievalHits: Type.Array(RetrievalHit, { description: 'Chunks retrieved for the generation, best first' }),
});
