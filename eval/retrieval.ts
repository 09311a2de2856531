/**
 * Retrieval quality on the team's labelled set (eval/retrieval/).
 * Run: npm run eval:retrieval  [-- --split=dev|test|all] [-- --misses] [-- --weak-vector]
 *
 * Uploads every passage of eval/retrieval/corpus-{en,uk,ru}.tsv as a text
 * document into a fresh in-memory embedded database through the real
 * upload and ingestion (offline embedder, as a deployment without
 * LLM_API_KEY), then asks every query of eval/retrieval/queries.tsv and
 * prints nDCG@10 and recall@10 per leg and language:
 * - `ts_rank (old)`: the keyword leg before BM25 (ts_rank over the `simple`
 *   tsvector, bounded tiers), its SQL kept here for comparison only;
 * - `BM25`: the keyword leg alone, ranked by Okapi BM25;
 * - `vector`: the vector leg alone, ranked by cosine;
 * - `hybrid`: what the service answers (retrieval.search, limit 10): the
 *   legs' weighted reciprocal-rank fusion (hybrid-search.ts), the
 *   word-for-word repeats first;
 * - `hybrid, own terms`: the service's fusion and shortlist with the
 *   message's own terms and embedding (no query expansion,
 *   query-expansion.ts), to tell the fusion and the expansion apart;
 * - the fusions it was chosen against, over the same candidates (the
 *   message's own terms and embedding, every candidate fully scored, the
 *   same word-for-word lift): `blend (old)`, the ranking before, the score
 *   (v·cosine + k·keyword)/(v+k); `max-normalised`, each leg's score over
 *   its best candidate's, blended with the same weights; `RRF, weights as
 *   given`, the rank fusion with 0.7 / 0.3 on the ranks.
 * `--weak-vector` checks the fusions when one leg is much weaker than the
 * other (as the offline vector leg on BEIR SciFact): every query's
 * embedding is mixed half and half with a passage's chosen by the query's
 * id, which leaves the vector leg's order poor and its scores high.
 * Graded relevance: nDCG gain 2^grade − 1, recall counts every passage of
 * grade ≥ 1; passages of equal score count as tied (averaged over their
 * orders: chunk ids are random, so a tie's order changes from run to run).
 * The dev split is for tuning; the test split is reported.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/core/db/client.js';
import type { HybridRow } from '../src/modules/rag/hybrid-search.js';
import { fuseRanks } from '../src/modules/rag/hybrid-search.js';
import type { HybridQuery } from '../src/modules/rag/rag.repository.js';
import { finalScore, verbatimCheck } from '../src/modules/rag/scoring.js';
import { queryKeywordTerms } from '../src/modules/rag/text-analysis.js';

import { ingested, startEvalService, uploadDocument } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LANGUAGES = ['en', 'uk', 'ru'] as const;
type Language = (typeof LANGUAGES)[number];
const K = 10;

interface Passage {
  id: string;
  language: Language;
  title: string;
  text: string;
}

interface Query {
  id: string;
  language: Language;
  split: 'dev' | 'test';
  kind: string;
  qrels: Map<string, number>;
  text: string;
}

const readTsv = (file: string) =>
  readFileSync(path.join(here, 'retrieval', file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.split('\t'));

export function loadCorpus(): Passage[] {
  return LANGUAGES.flatMap((language) =>
    readTsv(`corpus-${language}.tsv`).map(([id, title, text]) => ({
      id: id!,
      language,
      title: title!,
      text: text!,
    })),
  );
}

export function loadQueries(): Query[] {
  return readTsv('queries.tsv').map(([id, split, kind, qrels, text]) => ({
    id: id!,
    language: id!.slice(0, 2) as Language,
    split: split as 'dev' | 'test',
    kind: kind!,
    qrels: new Map(
      qrels!.split(',').map((pair) => {
        const [passage, grade] = pair.split(':');
        return [passage!, Number(grade)] as const;
      }),
    ),
    text: text!,
  }));
}

/** A passage as a leg answers it, with the score it was ranked by. */
export interface Ranked {
  id: string;
  score: number;
}

/**
 * The first k positions as runs of equal score, each with the passages of
 * its whole tie and how many of its positions fall within k. A tie's order
 * is arbitrary, so the metrics take its expectation over every order
 * (McSherry and Najork, ECIR 2008): each position of a tie counts its mean.
 */
function tiesWithin(ranked: readonly Ranked[], k: number): Array<{ ids: string[]; slots: number }> {
  const ties: Array<{ ids: string[]; slots: number }> = [];
  for (let start = 0; start < ranked.length && start < k; ) {
    let end = start + 1;
    while (end < ranked.length && ranked[end]!.score === ranked[start]!.score) end += 1;
    ties.push({ ids: ranked.slice(start, end).map((r) => r.id), slots: Math.min(end, k) - start });
    start = end;
  }
  return ties;
}

/** nDCG@k with gain 2^grade − 1, ties averaged. */
export function ndcgAt(ranked: readonly Ranked[], qrels: ReadonlyMap<string, number>, k = K): number {
  const gain = (grade: number) => 2 ** grade - 1;
  let dcg = 0;
  let position = 0;
  for (const tie of tiesWithin(ranked, k)) {
    const meanGain = tie.ids.reduce((sum, id) => sum + gain(qrels.get(id) ?? 0), 0) / tie.ids.length;
    for (let i = 0; i < tie.slots; i += 1, position += 1) dcg += meanGain / Math.log2(position + 2);
  }
  const ideal = [...qrels.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Share of the relevant passages (grade ≥ 1) in the first k, ties averaged. */
export function recallAt(ranked: readonly Ranked[], qrels: ReadonlyMap<string, number>, k = K): number {
  const relevant = new Set([...qrels].filter(([, grade]) => grade > 0).map(([id]) => id));
  const found = tiesWithin(ranked, k).reduce(
    (sum, tie) => sum + (tie.ids.filter((id) => relevant.has(id)).length * tie.slots) / tie.ids.length,
    0,
  );
  return relevant.size ? found / relevant.size : 0;
}

/** The query terms of the old keyword leg: `simple` words without stop words (as before BM25). */
function oldQueryTerms(text: string, stopwords: ReadonlySet<string>): string[] {
  const words = [
    ...new Set(
      text
        .normalize('NFKC')
        .toLowerCase()
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    ),
  ];
  const content = words.filter((w) => !stopwords.has(w));
  return (content.length > 0 ? content : words).slice(0, 32);
}

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  const splitArg = [...args].find((a) => a.startsWith('--split='))?.slice('--split='.length) ?? 'all';
  const service = await startEvalService('eval-retrieval', 'Eval');
  const { container } = service;
  const { db } = container;
  const base = { id: service.knowledgeBaseId };

  const corpus = loadCorpus();
  const passageOfDocument = new Map<string, string>();
  process.stdout.write(`ingesting ${corpus.length} passages…\n`);
  for (const passage of corpus) {
    const bytes = Buffer.from(`${passage.title}\n\n${passage.text}\n`);
    const id = await uploadDocument(service, { title: passage.title, fileName: `${passage.id}.txt`, bytes });
    passageOfDocument.set(id, passage.id);
  }
  await ingested(service);
  const [failed] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM documents WHERE status = 'failed'`),
  );
  if (failed && failed.n > 0) throw new Error(`${failed.n} passages failed ingestion`);
  // A passage the injection scan holds back is never retrieved: the figures depend on the detector too.
  const heldBack = rowsOf<{ documentId: string }>(
    await db.execute(sql`SELECT DISTINCT document_id AS "documentId" FROM chunks
      WHERE knowledge_base_id = ${base.id} AND held_back`),
  ).map((r) => passageOfDocument.get(r.documentId) ?? r.documentId);
  if (heldBack.length > 0) {
    process.stdout.write(`held back by the injection scan: ${heldBack.sort().join(', ')}\n`);
  }

  const { STOPWORDS } = await import('../src/modules/rag/stopwords.js');
  const rag = container.rag.repositories.rag;
  const embedText = async (text: string) => (await container.llm.embeddings.embed([text]))[0] ?? null;
  const weakVector = args.has('--weak-vector');
  /** The query's embedding; with --weak-vector, mixed half and half with a passage's chosen by the query id. */
  const embed = async (q: Query) => {
    const own = await embedText(q.text);
    if (!weakVector || !own) return own;
    const passage = corpus[stableIndex(q.id, corpus.length)]!;
    const other = (await embedText(`${passage.title}\n\n${passage.text}`)) ?? own;
    const mixed = own.map((v, i) => v + other[i]!);
    const norm = Math.hypot(...mixed) || 1;
    return mixed.map((v) => v / norm);
  };
  /** Every candidate fully scored (shortlist = both legs' N), for the fusions compared over the same rows. */
  const allCandidates = async (q: Query) =>
    rag.hybridSearch(
      { ...baseQuery(q.text), embedding: await embed(q), terms: queryKeywordTerms(q.text), shortlist: 80 },
      100,
    );
  /** Rows ordered by a fusion, the word-for-word repeats first, as the service orders them. */
  const rankedBy = (q: Query, rows: readonly HybridRow[], fused: readonly number[]): Ranked[] => {
    const repeats = verbatimCheck(q.text);
    return passagesOf(
      rows
        .map((row, i) => ({ documentId: row.documentId, score: (repeats(row.content) ? 2 : 0) + fused[i]! }))
        .sort((a, b) => b.score - a.score),
    );
  };
  const baseQuery = (text: string): HybridQuery => ({
    embedding: null,
    text,
    terms: [],
    knowledgeBaseIds: [base.id],
    candidates: 40,
    shortlist: 40,
  });
  const passagesOf = (rows: ReadonlyArray<{ documentId: string; score: number }>): Ranked[] =>
    rows.map((r) => ({ id: passageOfDocument.get(r.documentId) ?? r.documentId, score: r.score }));

  const legs: Record<string, (q: Query) => Promise<Ranked[]>> = {
    'ts_rank (old)': async (q) => {
      const terms = oldQueryTerms(q.text, STOPWORDS);
      if (terms.length === 0) return [];
      const rows = rowsOf<{ documentId: string; score: number }>(
        await db.execute(oldKeywordLeg(terms, base.id, K)),
      );
      return passagesOf(rows.map((r) => ({ documentId: r.documentId, score: Number(r.score) })));
    },
    BM25: async (q) => {
      const rows = await rag.hybridSearch({ ...baseQuery(q.text), terms: queryKeywordTerms(q.text) }, 100);
      return passagesOf(
        rows
          .filter((r) => r.bm25 > 0)
          .map((r) => ({ documentId: r.documentId, score: r.bm25 }))
          .sort((a, b) => b.score - a.score),
      );
    },
    vector: async (q) => {
      const rows = await rag.hybridSearch({ ...baseQuery(q.text), embedding: await embed(q) }, 100);
      return passagesOf(
        rows.map((r) => ({ documentId: r.documentId, score: r.cosine })).sort((a, b) => b.score - a.score),
      );
    },
    'blend (old)': async (q) => {
      const rows = await allCandidates(q);
      const repeats = verbatimCheck(q.text);
      return passagesOf(
        rows
          .map((r) => ({ documentId: r.documentId, score: finalScore(r.score, repeats(r.content)) }))
          .sort((a, b) => b.score - a.score),
      );
    },
    'max-normalised': async (q) => {
      const rows = await allCandidates(q);
      const best = (values: number[]) => Math.max(...values) || 1;
      const cosine = best(rows.map((r) => r.cosine));
      const keyword = best(rows.map((r) => r.keyword));
      return rankedBy(
        q,
        rows,
        rows.map((r) => (0.7 * r.cosine) / cosine + (0.3 * r.keyword) / keyword),
      );
    },
    'RRF, weights as given': async (q) => {
      const rows = await allCandidates(q);
      // fuseRanks evens the default weights out; a base weighted 49/58 : 9/58 gets 0.7 / 0.3 on the ranks.
      const leaning = rows.map((r) => ({ ...r, nv: 49 / 58, nk: 9 / 58 }));
      return rankedBy(
        q,
        rows,
        fuseRanks(leaning, (r) => r.keyword),
      );
    },
    'hybrid, own terms': async (q) => {
      // The service's fusion and shortlist with the message's own terms (no query expansion).
      const rows = await rag.hybridSearch(
        {
          ...baseQuery(q.text),
          embedding: await embed(q),
          terms: queryKeywordTerms(q.text),
          shortlist: K,
        },
        100,
      );
      return rankedBy(
        q,
        rows,
        rows.map((r) => r.fused),
      );
    },
    hybrid: async (q) => {
      const result = await container.rag.retrieval.search({
        text: q.text,
        knowledgeBaseIds: [base.id],
        limit: K,
        ...(weakVector ? { embedding: (await embed(q)) ?? undefined } : {}),
      });
      // Ties as the service ranks: word-for-word repeats first, then the fusion.
      return passagesOf(
        result.hits.map((hit) => ({ documentId: hit.documentId, score: (hit.verbatim ? 2 : 0) + hit.fused })),
      );
    },
  };

  // Searches run from the in-memory indexes once they hold the base, as in a running service.
  await rag.warmSearch([base.id]);
  const queries = loadQueries().filter((q) => splitArg === 'all' || q.split === splitArg);
  const results: Array<{ leg: string; query: Query; ndcg: number; recall: number; ranked: Ranked[] }> = [];
  for (const query of queries) {
    for (const [leg, run] of Object.entries(legs)) {
      const ranked = await run(query);
      results.push({
        leg,
        query,
        ndcg: ndcgAt(ranked, query.qrels),
        recall: recallAt(ranked, query.qrels),
        ranked,
      });
    }
  }

  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const cell = (leg: string, filter: (q: Query) => boolean) => {
    const rows = results.filter((r) => r.leg === leg && filter(r.query));
    return `${mean(rows.map((r) => r.ndcg)).toFixed(3)} / ${mean(rows.map((r) => r.recall)).toFixed(3)}`;
  };
  const columns: Array<[string, (q: Query) => boolean]> = [
    ...LANGUAGES.map((language): [string, (q: Query) => boolean] => [
      language,
      (q) => q.language === language,
    ]),
    ['all', () => true],
  ];
  const counts = columns.map(([name, filter]) => `${name} (${queries.filter(filter).length})`);
  process.stdout.write(
    `\nsplit ${splitArg}${weakVector ? ', weak vector leg' : ''}, ${corpus.length} passages: nDCG@10 / recall@10\n\n| leg | ${counts.join(' | ')} |\n|---|${columns.map(() => '---').join('|')}|\n`,
  );
  for (const leg of Object.keys(legs)) {
    process.stdout.write(`| ${leg} | ${columns.map(([, filter]) => cell(leg, filter)).join(' | ')} |\n`);
  }
  const served = rag.servedSearches();
  process.stdout.write(
    `\nsearches served: ${served.memory} from memory, ${served.database} by the database\n`,
  );
  const kinds = [...new Set(queries.map((q) => q.kind))].sort();
  process.stdout.write(
    `\nby kind (all languages), nDCG@10\n\n| leg | ${kinds.join(' | ')} |\n|---|${kinds.map(() => '---').join('|')}|\n`,
  );
  for (const leg of Object.keys(legs)) {
    const byKind = kinds.map((kind) =>
      mean(results.filter((r) => r.leg === leg && r.query.kind === kind).map((r) => r.ndcg)).toFixed(3),
    );
    process.stdout.write(`| ${leg} | ${byKind.join(' | ')} |\n`);
  }
  if (args.has('--misses')) {
    for (const r of results.filter((x) => x.ndcg < 0.5 && (x.leg === 'BM25' || x.leg === 'hybrid'))) {
      const top = r.ranked.slice(0, 3).map((p) => p.id);
      process.stdout.write(`${r.leg}\t${r.query.id}\t${r.query.text}\t→ ${top.join(' ')}\n`);
    }
  }
  await container.close();
  process.exit(0);
}

/** A deterministic index in [0, n) from a text (FNV-1a). */
function stableIndex(text: string, n: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % n;
}

/**
 * The keyword leg as it was before BM25 (kept here only to compare against):
 * `ts_rank` over the `simple` tsvector, asked in tiers of falling coverage
 * (every term, all but one, any).
 */
function oldKeywordLeg(terms: readonly string[], knowledgeBaseId: string, n: number) {
  const orQuery = sql`to_tsquery('simple', ${terms.join(' | ')})`;
  const rank = sql`ts_rank(c.search_vector, ${orQuery}) DESC`;
  const inScope = sql`c.knowledge_base_id = ${knowledgeBaseId}`;
  if (terms.length === 1) {
    return sql`SELECT c.document_id AS "documentId", ts_rank(c.search_vector, ${orQuery}) AS score FROM chunks c
      WHERE ${inScope} AND c.search_vector @@ ${orQuery} ORDER BY ${rank}, c.content LIMIT ${n}`;
  }
  const andQuery = sql`to_tsquery('simple', ${terms.join(' & ')})`;
  const tiers = [
    sql`(SELECT c.id, 1 AS tier, ts_rank(c.search_vector, ${orQuery}) AS r FROM chunks c
      WHERE ${inScope} AND c.search_vector @@ ${andQuery})`,
  ];
  if (terms.length >= 3 && terms.length <= 6) {
    const allButOne = terms
      .map((_, skip) => `(${terms.filter((__, i) => i !== skip).join(' & ')})`)
      .join(' | ');
    tiers.push(sql`(SELECT c.id, 2 AS tier, ts_rank(c.search_vector, ${orQuery}) AS r FROM chunks c
      WHERE ${inScope} AND c.search_vector @@ to_tsquery('simple', ${allButOne}) AND NOT c.search_vector @@ ${andQuery})`);
  }
  tiers.push(sql`(SELECT c.id, 3 AS tier, ts_rank(c.search_vector, ${orQuery}) AS r FROM chunks c
    WHERE ${inScope} AND c.search_vector @@ ${orQuery})`);
  // As a score: the tier first, then ts_rank (below 1 here) within it. Ties are broken by the text,
  // not the ids (new on every run), so the figures are the same run after run.
  return sql`SELECT c.document_id AS "documentId", ranked.r - ranked.tier AS score FROM (
      SELECT DISTINCT ON (id) id, tier, r FROM (${sql.join(tiers, sql` UNION ALL `)}) t ORDER BY id, tier
    ) ranked JOIN chunks c ON c.id = ranked.id
    ORDER BY ranked.tier, ranked.r DESC, c.content LIMIT ${n}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await main();
}
