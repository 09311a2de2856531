import { describe, expect, it } from 'vitest';
import { nextFreeSlug, slugify } from './slug.js';

describe('nextFreeSlug', () => {
  it('answers the base when free, else the first free numbered one', () => {
    expect(nextFreeSlug('sales', [])).toBe('sales');
    expect(nextFreeSlug('sales', ['sales'])).toBe('sales-2');
    expect(nextFreeSlug('sales', ['sales', 'sales-2', 'sales-4'])).toBe('sales-3');
  });

  it('stays within 64 characters with a suffix', () => {
    const base = slugify('x'.repeat(100));
    expect(nextFreeSlug(base, [base]).length).toBeLessThanOrEqual(64);
  });
});
