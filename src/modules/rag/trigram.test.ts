import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/app.js';
import { rowsOf } from '../../core/db/client.js';
import { trigramProfile, trigramsOf, wordSimilarity, wordSimilarityOver } from './trigram.js';

const ctx = useTestApp();

const evalFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../eval/retrieval');

/** Tab-separated rows of an eval file, comments left out. */
function tsv(name: string): string[][] {
  return readFileSync(path.join(evalFolder, name), 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split('\t'));
}

/** pg_trgm's own `word_similarity` of each pair, in one statement. */
async function inDatabase(pairs: ReadonlyArray<readonly [string, string]>): Promise<number[]> {
  const rows = rowsOf<{ s: number }>(
    await ctx.container.db.execute(sql`SELECT word_similarity(p ->> 0, p ->> 1) AS s
      FROM jsonb_array_elements(${JSON.stringify(pairs)}::jsonb) WITH ORDINALITY AS e(p, n) ORDER BY n`),
  );
  // A float4 arrives as its shortest decimal text: read back to the float4 it names.
  return rows.map((row) => Math.fround(Number(row.s)));
}

const inService = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.map(([query, text]) => wordSimilarity(new Set(trigramsOf(query)), trigramProfile(text)));

describe("word_similarity in the service, as pg_trgm's", () => {
  it('gives the same float4 for edge cases of words, case, letters and digits', async () => {
    const pairs: Array<[string, string]> = [
      ['laptop', 'Laptops are replaced every three years.'],
      ['keybord mouse', 'monitor keyboard mouse desk'],
      ['', 'anything'],
      ['word', ''],
      ['a', 'a b c'],
      ['Straße', 'STRASSE strasse Straße'],
      ['İstanbul', 'istanbul İSTANBUL'],
      ['ΣΟΦΊΑ σοφία', 'Σοφία ΟΔΟΣ'],
      ['привіт світ', 'Привіт, як справи? Світ великий'],
      ['отпуск 2024', 'Ежегодный оплачиваемый отпуск — 24 рабочих дня (2024 г.)'],
      ["don't e-mail", 'Do not send e-mail; dont email_me 😀 now'],
      ['x'.repeat(40), `${'x'.repeat(39)}y ${'x'.repeat(40)}`],
      ['ｆｕｌｌ width ①②', 'full width 12 ① ②'],
    ];
    expect(inService(pairs)).toEqual(await inDatabase(pairs));
  });

  it('gives the same float4 for every evaluation query against passages of its language', async () => {
    const queries = tsv('queries.tsv').map((row) => ({ language: row[0]!.slice(0, 2), text: row[4]! }));
    const corpus = new Map(
      ['en', 'ru', 'uk'].map((language) => [language, tsv(`corpus-${language}.tsv`).map((row) => row[2]!)]),
    );
    const pairs: Array<[string, string]> = [];
    for (const [i, query] of queries.entries()) {
      const passages = corpus.get(query.language) ?? [];
      // Ten passages per query, spread over the corpus: about 1,900 pairs.
      for (let k = 0; k < 10; k++) pairs.push([query.text, passages[(i * 7 + k * 9) % passages.length]!]);
    }
    expect(pairs.length).toBeGreaterThan(1500);
    const expected = await inDatabase(pairs);
    const actual = inService(pairs);
    const differing = pairs.filter((_, i) => actual[i] !== expected[i]);
    expect(differing).toEqual([]);
  });

  it('answers greatest(floor, word_similarity) to the bit, with or without the extent search', () => {
    const queries = tsv('queries.tsv').map((row) => row[4]!);
    const passages = tsv('corpus-en.tsv').map((row) => row[2]!);
    let floorsAtOrAbove = 0;
    let floorsBelow = 0;
    for (const [i, text] of queries.entries()) {
      const query = new Set(trigramsOf(text));
      for (let k = 0; k < 5; k++) {
        const profile = trigramProfile(passages[(i * 5 + k) % passages.length]!);
        const similarity = wordSimilarity(query, profile);
        // Floors below, at and above the similarity, and at the bound itself.
        for (const floor of [0, similarity / 2, similarity, Math.fround(similarity + 0.01), 0.5, 1]) {
          expect(wordSimilarityOver(query, profile, floor)).toBe(Math.max(floor, similarity));
          if (floor >= similarity) floorsAtOrAbove++;
          else floorsBelow++;
        }
      }
    }
    expect(floorsAtOrAbove).toBeGreaterThan(0);
    expect(floorsBelow).toBeGreaterThan(0);
    expect(wordSimilarityOver(new Set(), trigramProfile('anything'), 0.25)).toBe(0.25);
  });
});
