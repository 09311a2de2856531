import { describe, expect, it } from 'vitest';
import { exampleFor } from './openapi-examples.js';

describe('exampleFor', () => {
  it('prefers the schema’s own example, const, default and first enum value', () => {
    expect(exampleFor({ type: 'string', example: 'given' }, {})).toBe('given');
    expect(exampleFor({ const: 'url' }, {})).toBe('url');
    expect(exampleFor({ type: 'integer', default: 20 }, {})).toBe(20);
    expect(exampleFor({ type: 'string', enum: ['pending', 'ready'] }, {})).toBe('pending');
  });

  it('writes formats in their shape: uuid, email, date-time and uri', () => {
    expect(exampleFor({ type: 'string', format: 'uuid' }, {}, 'departmentId')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(exampleFor({ type: 'string', format: 'email' }, {})).toMatch(/^[^@]+@example\.com$/);
    expect(exampleFor({ type: 'string', format: 'date-time' }, {})).toBe('2025-03-14T09:30:00.000Z');
    expect(exampleFor({ type: 'string', format: 'uri' }, {})).toMatch(/^https:\/\//);
  });

  it('gives the same id to the same name and different ids to different names', () => {
    const uuid = { type: 'string', format: 'uuid' };
    expect(exampleFor(uuid, {}, 'departmentId')).toBe(exampleFor(uuid, {}, 'departmentId'));
    expect(exampleFor(uuid, {}, 'departmentId')).not.toBe(exampleFor(uuid, {}, 'roleId'));
  });

  it('keeps to patterns and length limits', () => {
    const slug = exampleFor(
      { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 64 },
      {},
      'slug',
    );
    expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    const colour = exampleFor(
      { type: 'string', pattern: '^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$' },
      {},
      'tint',
    );
    expect(colour).toMatch(/^#[0-9a-fA-F]{6}$/);
    expect((exampleFor({ type: 'string', minLength: 30 }, {}) as string).length).toBeGreaterThanOrEqual(30);
    expect((exampleFor({ type: 'string', maxLength: 3 }, {}, 'title') as string).length).toBeLessThanOrEqual(
      3,
    );
  });

  it('stays within numeric bounds', () => {
    expect(exampleFor({ type: 'number', minimum: 0, maximum: 1 }, {}, 'formality')).toBe(0.5);
    expect(exampleFor({ type: 'integer', minimum: 5 }, {})).toBe(5);
    expect(exampleFor({ type: 'integer', minimum: 0, maximum: 100 }, {}, 'limit')).toBe(20);
  });

  it('builds objects and arrays, skips null variants and follows component references', () => {
    const components = {
      Item: {
        type: 'object',
        properties: {
          id: { type: 'string', format: 'uuid' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        },
      },
    };
    const example = exampleFor(
      {
        type: 'object',
        properties: {
          item: { $ref: '#/components/schemas/Item' },
          note: { anyOf: [{ type: 'null' }, { type: 'string' }] },
          nothing: { type: 'null' },
        },
      },
      components,
    ) as { item: { id: string; tags: string[] }; note: unknown; nothing: unknown };
    expect(typeof example.item.id).toBe('string');
    expect(example.item.tags).toHaveLength(2);
    expect(typeof example.note).toBe('string');
    expect(example.nothing).toBeNull();
  });

  it('names a person in an object that has an email, not in one that has none', () => {
    const person = exampleFor(
      { type: 'object', properties: { email: { type: 'string' }, name: { type: 'string' } } },
      {},
    ) as { name: string };
    const team = exampleFor({ type: 'object', properties: { name: { type: 'string' } } }, {}) as {
      name: string;
    };
    expect(person.name).not.toBe(team.name);
  });

  it('stops on a schema that refers to itself', () => {
    const components = {
      Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } },
    };
    expect(() => exampleFor({ $ref: '#/components/schemas/Node' }, components)).not.toThrow();
  });
});
