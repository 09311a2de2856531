import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.js';
import { documents, knowledgeBases, namespaces } from './knowledge.js';
import { departments, users } from './organisation.js';

export const documentTemplates = pgTable(
  'document_templates',
  {
    id: id(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id, { onDelete: 'cascade' }),
    departmentId: uuid('department_id').references(() => departments.id),
    name: text('name').notNull(),
    description: text('description'),
    /** contract, proposal, letter, invoice or custom. */
    category: text('category').notNull().default('custom'),
    templateBody: text('template_body').notNull(),
    variables: jsonb('variables').$type<unknown[]>().notNull().default([]),
    /** md, html, docx or pdf. */
    outputFormat: text('output_format').notNull().default('md'),
    createdById: uuid('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('document_templates_department_id_idx').on(t.departmentId),
    index('document_templates_namespace_id_idx').on(t.namespaceId),
  ],
);

export const documentGenerations = pgTable(
  'document_generations',
  {
    id: id(),
    templateId: uuid('template_id').references(() => documentTemplates.id, { onDelete: 'set null' }),
    /** The template's name when the document was generated; kept after the template is deleted. */
    templateName: text('template_name').notNull().default(''),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    departmentId: uuid('department_id').references(() => departments.id),
    input: jsonb('input').$type<Record<string, unknown>>().notNull().default({}),
    outputFormat: text('output_format').notNull(),
    /** Size in bytes of the generated file (md, html or docx) as it was answered. */
    sizeBytes: integer('size_bytes').notNull().default(0),
    /** The rendered Markdown every format is built from; files themselves are not kept. */
    content: text('content'),
    storedFile: text('stored_file'),
    preview: boolean('preview').notNull().default(false),
    savedToKnowledgeBaseId: uuid('saved_to_knowledge_base_id').references(() => knowledgeBases.id, {
      onDelete: 'set null',
    }),
    savedDocumentId: uuid('saved_document_id').references(() => documents.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('document_generations_user_id_idx').on(t.userId),
    index('document_generations_template_id_idx').on(t.templateId),
    index('document_generations_department_id_idx').on(t.departmentId),
  ],
);
