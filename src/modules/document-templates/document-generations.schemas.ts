import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';
import { OutputFormatSchema } from './document-templates.schemas.js';

export const GenerateBody = Type.Object(
  {
    input: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
        maxProperties: 100,
        description: 'Values of the template variables by name; checked against their declared types',
      }),
    ),
    preview: Type.Optional(
      Type.Boolean({ description: 'true renders only: no history row, nothing saved to a knowledge base' }),
    ),
    outputFormat: Type.Optional(OutputFormatSchema),
    saveToKnowledgeBaseId: Type.Optional(
      Nullable(
        Uuid(
          'Knowledge base (one of yours) that receives the result as a document; needs canUploadDocuments',
        ),
      ),
    ),
  },
  { additionalProperties: false },
);

/** A file answered as bytes: documented as a string, sent as a Buffer (never serialised). */
const fileBytes = (description: string, format?: 'binary') =>
  Type.Unsafe<Buffer>({ type: 'string', ...(format ? { format } : {}), description });

/** The generated document: Markdown or HTML text, or a DOCX file, by the chosen format. */
export const GeneratedDocument = {
  description:
    'The generated document. Headers: X-Generation-Id (history row; absent for a preview), X-Document-Id (knowledge document when saved)',
  content: {
    'text/markdown': { schema: fileBytes('The document as Markdown (UTF-8)') },
    'text/html': { schema: fileBytes('The document as a sanitised HTML page (UTF-8)') },
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
      schema: fileBytes('The document as a DOCX file', 'binary'),
    },
  },
};

export const DocumentGeneration = Type.Object({
  id: Uuid('Generation id'),
  templateId: Nullable(Uuid('Template used; null once the template is deleted')),
  templateName: Type.String({ description: 'Name of the template when the document was generated' }),
  userId: Uuid('User who generated the document'),
  departmentId: Nullable(Uuid('Department the generation counts for')),
  input: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The values rendered, defaults included',
  }),
  outputFormat: Type.String({ description: 'md, html or docx' }),
  sizeBytes: Type.Integer({ description: 'Size of the generated file in bytes' }),
  savedToKnowledgeBaseId: Nullable(Uuid('Knowledge base the result was saved to')),
  savedDocumentId: Nullable(Uuid('Knowledge document made from the result')),
  createdAt: DateTime(),
});

export const DocumentGenerationDetail = Type.Object({
  ...DocumentGeneration.properties,
  content: Nullable(Type.String({ description: 'The rendered Markdown every format is built from' })),
});

export const ListGenerationsQuery = Type.Object(
  {
    userId: Type.Optional(Uuid('Only generations of this user')),
    templateId: Type.Optional(Uuid('Only generations of this template')),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const DocumentGenerationPage = OffsetPage(DocumentGeneration);
