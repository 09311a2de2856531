import { describe, expect, it } from 'vitest';
import { StatementNames } from './statement-names.js';

describe('StatementNames', () => {
  it('names each text once, 500 texts at most, and renames a text on request', () => {
    const names = new StatementNames();
    const first = names.nameOf('SELECT $1::int');
    expect(names.nameOf('SELECT $1::int')).toBe(first);
    for (let i = 1; i < 500; i++) expect(names.nameOf(`SELECT $1::int + ${i}`)).toBeDefined();
    expect(names.nameOf('SELECT $1::int + 500')).toBeUndefined();
    expect(names.nameOf('SELECT $1::int')).toBe(first);
    names.rename('SELECT $1::int');
    const renamed = names.nameOf('SELECT $1::int');
    expect(renamed).toBeDefined();
    expect(renamed).not.toBe(first);
  });
});
