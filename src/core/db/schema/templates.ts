import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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
  (t) => [index('document_templates_department_id_idx').on(t.departmentId)],
);

export const documentGenerations = pgTable(
  'document_generations',
  {
    id: id(),
    templateId: uuid('template_id').references(() => documentTemplates.id, { onDelete: 'set null' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    departmentId: uuid('department_id').references(() => departments.id),
    input: jsonb('input').$type<Record<string, unknown>>().notNull().default({}),
    outputFormat: text('output_format').notNull(),
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
  ],
);
