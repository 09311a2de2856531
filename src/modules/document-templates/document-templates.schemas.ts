import { Type } from 'typebox';
import { DateTime, Nullable, OffsetPage, PaginationQuery, Uuid } from '../../core/http/schemas.js';
import { STRING_VALUE_MAX, VARIABLE_TYPES } from './template-variables.js';

export const TEMPLATE_CATEGORIES = ['contract', 'proposal', 'letter', 'invoice', 'custom'] as const;
export const OUTPUT_FORMATS = ['md', 'html', 'docx', 'pdf'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const TEMPLATE_BODY_MAX = 100_000;
export const VARIABLES_MAX = 100;

const Category = Type.Union(
  TEMPLATE_CATEGORIES.map((c) => Type.Literal(c)),
  { description: 'Kind of document: contract, proposal, letter, invoice or custom' },
);

export const OutputFormatSchema = Type.Union(
  OUTPUT_FORMATS.map((f) => Type.Literal(f)),
  { description: 'md, html or docx; pdf is reserved and answers 501' },
);

const DefaultValue = () =>
  Nullable(
    Type.Union([Type.String({ maxLength: STRING_VALUE_MAX }), Type.Number(), Type.Boolean()], {
      description: 'Value used when the input leaves the variable out',
    }),
  );

export const VariableInput = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[A-Za-z][A-Za-z0-9_]*$',
      description: 'Name used in the body as {{name}}: a letter, then letters, digits and underscores',
    }),
    label: Type.Optional(
      Type.String({ maxLength: 200, description: 'What a form shows for the variable; the name when empty' }),
    ),
    type: Type.Union(
      VARIABLE_TYPES.map((t) => Type.Literal(t)),
      { description: 'string, number, date (YYYY-MM-DD) or boolean' },
    ),
    required: Type.Optional(
      Type.Boolean({ description: 'Generation without a value (and without a default) answers 422' }),
    ),
    default: Type.Optional(DefaultValue()),
  },
  { additionalProperties: false },
);

export const Variable = Type.Object({
  name: Type.String({ description: 'Name used in the body as {{name}}' }),
  label: Type.String({ description: 'What a form shows for the variable' }),
  type: Type.String({ description: 'string, number, date (YYYY-MM-DD) or boolean' }),
  required: Type.Boolean({ description: 'Whether generation needs a value' }),
  default: DefaultValue(),
});

const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Name of the template' });
const Description = Nullable(Type.String({ maxLength: 2000, description: 'What the template is for' }));
const TemplateBody = Type.String({
  minLength: 1,
  maxLength: TEMPLATE_BODY_MAX,
  description: 'Markdown with Mustache tags: {{name}}, {{#flag}}…{{/flag}}, {{^flag}}…{{/flag}}',
});
const Variables = Type.Array(VariableInput, {
  maxItems: VARIABLES_MAX,
  description: 'The variables the body may use',
});
const DepartmentId = Nullable(
  Uuid('The namespace’s department (the default), or null to share the template with every department'),
);

export const DocumentTemplate = Type.Object({
  id: Uuid('Template id'),
  namespaceId: Uuid('Namespace the template belongs to'),
  departmentId: Nullable(Uuid('Department that uses the template; null when shared with every department')),
  name: Type.String(),
  description: Nullable(Type.String()),
  category: Type.String({ description: 'Kind of document: contract, proposal, letter, invoice or custom' }),
  templateBody: Type.String({ description: 'Markdown with Mustache tags' }),
  variables: Type.Array(Variable),
  outputFormat: Type.String({ description: 'Default output format: md, html, docx or pdf' }),
  createdById: Nullable(Uuid('User who created the template')),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});

export const CreateTemplateBody = Type.Object(
  {
    namespaceId: Uuid('Namespace the template belongs to (one of your departments)'),
    departmentId: Type.Optional(DepartmentId),
    name: Name,
    description: Type.Optional(Description),
    category: Type.Optional(Category),
    templateBody: TemplateBody,
    variables: Type.Optional(Variables),
    outputFormat: Type.Optional(OutputFormatSchema),
  },
  { additionalProperties: false },
);

export const UpdateTemplateBody = Type.Object(
  {
    departmentId: Type.Optional(DepartmentId),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    category: Type.Optional(Category),
    templateBody: Type.Optional(TemplateBody),
    variables: Type.Optional(Variables),
    outputFormat: Type.Optional(OutputFormatSchema),
  },
  { additionalProperties: false },
);

export const ListTemplatesQuery = Type.Object(
  {
    category: Type.Optional(Category),
    departmentId: Type.Optional(Uuid('Only templates of this department (one of yours)')),
    ...PaginationQuery,
  },
  { additionalProperties: false },
);

export const DocumentTemplatePage = OffsetPage(DocumentTemplate);
