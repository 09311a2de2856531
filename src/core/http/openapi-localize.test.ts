import { describe, expect, it } from 'vitest';
import { translateDescriptions } from './openapi-localize.js';

const texts = {
  'User id': { ru: 'Идентификатор пользователя', uk: 'Ідентифікатор користувача' },
  'Free text': { ru: 'Произвольный текст', uk: 'Довільний текст' },
};

describe('translateDescriptions', () => {
  it('translates schema, parameter and response descriptions found in the table', () => {
    const doc = {
      paths: {
        '/users/{id}': {
          get: {
            parameters: [{ name: 'id', in: 'path', description: 'User id' }],
            responses: {
              '200': {
                description: 'Free text',
                content: {
                  'application/json': { schema: { properties: { id: { description: 'User id' } } } },
                },
              },
            },
          },
        },
      },
    };
    translateDescriptions(doc, 'uk', texts);
    const op = doc.paths['/users/{id}'].get;
    expect(op.parameters[0]?.description).toBe('Ідентифікатор користувача');
    expect(op.responses['200'].description).toBe('Довільний текст');
    expect(op.responses['200'].content['application/json'].schema.properties.id.description).toBe(
      'Ідентифікатор користувача',
    );
  });

  it('translates a property that is itself named description, and leaves example bodies alone', () => {
    const schema = {
      properties: { description: { type: 'string', description: 'Free text' } },
      example: { description: 'Free text' },
      default: { description: 'User id' },
    };
    translateDescriptions(schema, 'ru', texts);
    expect(schema.properties.description.description).toBe('Произвольный текст');
    expect(schema.example.description).toBe('Free text');
    expect(schema.default.description).toBe('User id');
  });

  it('leaves a text the table does not know in English', () => {
    const schema = { description: 'Something new' };
    translateDescriptions(schema, 'ru', texts);
    expect(schema.description).toBe('Something new');
  });
});
