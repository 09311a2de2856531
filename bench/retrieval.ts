/**
 * Retrieval benchmark: hybrid query latency and recall@10 at scale.
 *
 *   npm run bench:retrieval
 *
 * PostgreSQL (DATABASE_URL, a server with pgvector and pg_trgm): a scratch
 * database of its own is created, loaded with BENCH_PG_CHUNKS (default
 * 100 000) chunks and dropped at the end. PGlite: an in-memory database with
 * BENCH_PGLITE_CHUNKS (default 10 000). Without DATABASE_URL only PGlite runs.
 *
 * Data: synthetic clustered vectors of 1536 dimensions (the column's size):
 * 50 topics, 20 sub-topics each, every chunk its sub-topic's centre plus
 * noise, so nearest neighbours are meaningful and recall measures something.
 * Chunk text mixes topic words with general words of skewed frequency, so
 * the keyword leg has common and rare terms to rank. Queries are fresh points
 * of the same distribution with three topic words and two general words.
 *
 * Measured with the service's own code (rag.repository.ts): the hybrid query
 * with `hnsw.ef_search` at several values, against the exact reference in
 * the same run (the same query with index scans disabled, so the vector leg
 * is an exact scan). recall@10 = share of the exact top 10 that the indexed
 * query returns; "vector recall" is the same for the vector leg alone.
 * Then the same queries on the in-memory path (the process's own HNSW graph
 * per base, the scoring in the service) at the same ef values, against the
 * same reference.
 * Writes the table into docs/benchmarks.md between its markers.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, openPglite, openPostgres, rowsOf } from '../src/core/db/client.js';
import {
  applySearchSettings,
  createRagRepository,
  type HybridQuery,
  hybridSearchQuery,
  searchInDatabase,
  setLocal,
} from '../src/modules/rag/rag.repository.js';

/** The vectors' size: 1536 (the column as migrated) unless BENCH_DIMENSIONS says otherwise (the column is re-typed). */
const DIMENSIONS = Number(process.env.BENCH_DIMENSIONS ?? 1536);
const TOPICS = 50;
const SUBTOPICS_PER_TOPIC = 20;
/** Sub-topic centres: topic centre plus uniform noise of this amplitude (topic centres are uniform in [-1, 1]). */
const SUBTOPIC_SPREAD = 0.5;
/** Chunks and queries: sub-topic centre plus uniform noise of this amplitude (clusters that touch, as real ones do). */
const POINT_NOISE = 0.3;
const KNOWLEDGE_BASES = 4;
const CANDIDATES = 40;
const SHORTLIST = 10;
const WARMUP = 50;

const env = process.env;
const settings = {
  pgChunks: Number(env.BENCH_PG_CHUNKS ?? 100_000),
  pgliteChunks: Number(env.BENCH_PGLITE_CHUNKS ?? 10_000),
  queries: Number(env.BENCH_QUERIES ?? 100),
  efSearch: (env.BENCH_EF ?? '40,100,200').split(',').map(Number),
  write: env.BENCH_WRITE !== '0',
  /** BENCH_KEEP=1 leaves the PostgreSQL scratch database in place for a look at its plans. */
  keep: env.BENCH_KEEP === '1',
  /** BENCH_MEMORY=0 skips the in-memory path (at a million chunks its load alone takes minutes). */
  memory: env.BENCH_MEMORY !== '0',
};

interface Row {
  target: string;
  chunks: number;
  /** `exact`, an `hnsw.ef_search` of the database's query, or `in memory, <ef>` for the service's own indexes. */
  efSearch: number | string;
  p50: number;
  p95: number;
  recall: number | null;
  vectorRecall: number | null;
}

interface Target {
  name: string;
  handle: DatabaseHandle;
  /** Memory for the index build: enough to hold the HNSW graph, within what the database accepts. */
  maintenanceWorkMem: string;
  /** Runs statements on one session (settings such as maintenance_work_mem stick to it). */
  session(statements: string[]): Promise<void>;
}

const log = (message: string) => process.stdout.write(`${message}\n`);
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** SQL for a vector of uniform noise in [-amplitude, amplitude], drawn anew for each row of `rowVar`. */
const noise = (amplitude: number, rowVar: string) =>
  `(SELECT array_agg((${amplitude} * (random() * 2 - 1))::float4 ORDER BY i) FROM generate_series(1, ${DIMENSIONS}) i WHERE ${rowVar} >= 0)::vector`;

async function load(target: Target, chunkCount: number) {
  const { db } = target.handle;
  const started = process.hrtime.bigint();
  await target.handle.migrate();
  // As the service does at start while the column holds no vectors (EMBEDDING_DIMENSIONS).
  if (DIMENSIONS !== 1536)
    await db.execute(sql.raw(`ALTER TABLE chunks ALTER COLUMN embedding TYPE vector(${DIMENSIONS})`));
  const [department] = rowsOf<{ id: string }>(
    await db.execute(
      sql`INSERT INTO departments (name, slug) VALUES ('Bench', ${`bench-${randomBytes(3).toString('hex')}`}) RETURNING id`,
    ),
  );
  const kbIds: string[] = [];
  const docIds: string[] = [];
  for (let i = 0; i < KNOWLEDGE_BASES; i++) {
    const [kb] = rowsOf<{ id: string }>(
      await db.execute(
        sql`INSERT INTO knowledge_bases (name, department_id) VALUES (${`KB ${i}`}, ${department!.id}) RETURNING id`,
      ),
    );
    const [doc] = rowsOf<{ id: string }>(
      await db.execute(sql`INSERT INTO documents (knowledge_base_id, department_id, title, type, status)
        VALUES (${kb!.id}, ${department!.id}, ${`Document ${i}`}, 'txt', 'ready') RETURNING id`),
    );
    kbIds.push(kb!.id);
    docIds.push(doc!.id);
  }
  // Indexes are built after the load, as a bulk import would do; same definitions as the migration.
  await db.execute(sql`DROP INDEX chunks_embedding_idx`);
  await db.execute(sql`DROP INDEX chunks_search_vector_idx`);
  await db.execute(sql`DROP INDEX chunks_terms_idx`);
  await db.execute(sql`DROP INDEX chunks_content_trgm_idx`);

  // Centres are vectors, so adding noise is one pgvector `+` per row (array subscripts would detoast per element).
  await db.execute(
    sql.raw(`CREATE UNLOGGED TABLE bench_topics AS
    SELECT t, (SELECT array_agg((random() * 2 - 1)::float4 ORDER BY i) FROM generate_series(1, ${DIMENSIONS}) i WHERE t >= 0)::vector AS center
    FROM generate_series(0, ${TOPICS - 1}) t`),
  );
  await db.execute(
    sql.raw(`CREATE UNLOGGED TABLE bench_subs AS
    SELECT s, s % ${TOPICS} AS t, tp.center + ${noise(SUBTOPIC_SPREAD, 's')} AS center
    FROM generate_series(0, ${TOPICS * SUBTOPICS_PER_TOPIC - 1}) s JOIN bench_topics tp ON tp.t = s % ${TOPICS}`),
  );

  const batch = 5000;
  for (let from = 0; from < chunkCount; from += batch) {
    const to = Math.min(chunkCount, from + batch) - 1;
    const kbArray = `ARRAY[${kbIds.map((id) => `'${id}'::uuid`).join(',')}]`;
    const docArray = `ARRAY[${docIds.map((id) => `'${id}'::uuid`).join(',')}]`;
    await db.execute(
      sql.raw(`INSERT INTO chunks (document_id, knowledge_base_id, chunk_index, content, token_count, embedding)
      SELECT (${docArray})[g % ${KNOWLEDGE_BASES} + 1], (${kbArray})[g % ${KNOWLEDGE_BASES} + 1], g,
        (SELECT string_agg(CASE WHEN random() < 0.4 THEN 't' || sb.t || 'w' || floor(random() * 200)::int
                                ELSE 'g' || floor(10000 * power(random(), 2))::int END, ' ' ORDER BY w)
         FROM generate_series(1, 60) w WHERE g >= 0),
        60,
        sb.center + ${noise(POINT_NOISE, 'g')}
      FROM generate_series(${from}, ${to}) g
      JOIN bench_subs sb ON sb.s = (g::bigint * 7919) % ${TOPICS * SUBTOPICS_PER_TOPIC}`),
    );
    process.stdout.write(`\r  ${target.name}: loaded ${to + 1} / ${chunkCount} chunks`);
  }
  process.stdout.write('\n');
  // The keyword terms: the synthetic words are their own stems, so the `simple` tsvector is exactly what the
  // service's analysis would store (one statement: the update trigger fills the BM25 statistics once).
  await db.execute(sql`UPDATE chunks SET terms = to_tsvector('simple', content), term_count = 60`);
  const loadedMs = ms(started);

  const indexStarted = process.hrtime.bigint();
  await target.session([
    `SET maintenance_work_mem = '${target.maintenanceWorkMem}'`,
    'CREATE INDEX chunks_embedding_idx ON chunks USING hnsw (embedding vector_cosine_ops)',
  ]);
  const hnswMs = ms(indexStarted);
  await db.execute(sql`CREATE INDEX chunks_search_vector_idx ON chunks USING gin (search_vector)`);
  await db.execute(sql`CREATE INDEX chunks_terms_idx ON chunks USING gin (terms) WITH (fastupdate = off)`);
  await db.execute(sql`CREATE INDEX chunks_content_trgm_idx ON chunks USING gin (content gin_trgm_ops)`);
  await db.execute(sql`ANALYZE chunks`);
  log(`  ${target.name}: load ${(loadedMs / 1000).toFixed(1)} s, HNSW build ${(hnswMs / 1000).toFixed(1)} s`);
  return { kbIds, departmentId: department!.id };
}

async function makeQueries(target: Target, count: number, kbIds: string[], departmentId: string) {
  const rows = rowsOf<{ v: string; text: string }>(
    await target.handle.db.execute(
      sql.raw(`SELECT
        (sb.center + ${noise(POINT_NOISE, 'q')})::text AS v,
        (SELECT string_agg(CASE WHEN w <= 3 THEN 't' || sb.t || 'w' || floor(random() * 200)::int
                                ELSE 'g' || floor(10000 * power(random(), 2))::int END, ' ' ORDER BY w)
         FROM generate_series(1, 5) w WHERE q >= 0) AS text
      FROM generate_series(0, ${count - 1}) q
      JOIN bench_subs sb ON sb.s = (q * 104729 + 13) % ${TOPICS * SUBTOPICS_PER_TOPIC}`),
    ),
  );
  return rows.map(
    (r): HybridQuery => ({
      embedding: JSON.parse(r.v) as number[],
      text: r.text,
      terms: r.text.split(' '),
      knowledgeBaseIds: kbIds,
      departmentIds: [departmentId],
      candidates: CANDIDATES,
      shortlist: SHORTLIST,
      // The database's hybrid query: the path of a search until the process's in-memory indexes
      // of the bases are current. The in-memory path is measured after it, below.
      vectorLeg: 'database',
    }),
  );
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const recallAt10 = (found: string[][], exact: string[][]) =>
  found.reduce((sum, ids, i) => {
    const truth = new Set(exact[i]);
    return sum + ids.filter((id) => truth.has(id)).length / Math.max(1, truth.size);
  }, 0) / found.length;

async function vectorTop10(target: Target, query: HybridQuery, efSearch: number | null): Promise<string[]> {
  return target.handle.db.transaction(async (tx) => {
    if (efSearch === null) await setLocal(tx, 'enable_indexscan', 'off');
    else await applySearchSettings(tx, { efSearch, candidates: 10, iterativeScan: true });
    const rows = rowsOf<{ id: string }>(
      await tx.execute(sql`SELECT id FROM chunks WHERE knowledge_base_id = ANY(${`{${query.knowledgeBaseIds.join(',')}}`}::uuid[])
        ORDER BY embedding <=> ${JSON.stringify(query.embedding)}::vector LIMIT 10`),
    );
    return rows.map((r) => r.id);
  });
}

async function measure(target: Target, chunkCount: number): Promise<Row[]> {
  const { kbIds, departmentId } = await load(target, chunkCount);
  const queries = await makeQueries(target, settings.queries + WARMUP, kbIds, departmentId);
  const warmup = queries.slice(0, WARMUP);
  const measured = queries.slice(WARMUP);
  const repository = createRagRepository(target.handle.db);
  const { db } = target.handle;

  const plan = await db.transaction(async (tx) => {
    await applySearchSettings(tx, { efSearch: 100, candidates: CANDIDATES, iterativeScan: true });
    const lines = rowsOf<Record<string, string>>(
      await tx.execute(sql`EXPLAIN ${hybridSearchQuery(measured[0]!)}`),
    );
    return lines.map((l) => Object.values(l)[0]).join('\n');
  });
  const usesHnsw = plan.includes('chunks_embedding_idx');
  log(`  ${target.name}: the hybrid query plan ${usesHnsw ? 'uses' : 'does NOT use'} chunks_embedding_idx`);

  // The service's first search reads the knowledge bases' terms into its in-memory keyword index.
  const coldStarted = process.hrtime.bigint();
  await repository.hybridSearch(warmup[0]!, 100);
  const coldMs = ms(coldStarted);
  log(
    `  ${target.name}: first search, loading the keyword index of ${chunkCount} chunks: ${coldMs.toFixed(0)} ms`,
  );

  // Exact reference: the same hybrid query with index scans off, so the vector leg is an exact scan,
  // and the keyword leg computed in SQL (exhaustive, as the service's in-memory leg is).
  const exactTimes: number[] = [];
  const exactTop: string[][] = [];
  const exactVector: string[][] = [];
  for (const query of measured) {
    const started = process.hrtime.bigint();
    const rows = await db.transaction(async (tx) => {
      await setLocal(tx, 'enable_indexscan', 'off');
      return searchInDatabase(tx, { ...query, keywordLeg: 'exhaustive' });
    });
    exactTimes.push(ms(started));
    exactTop.push(rows.slice(0, 10).map((r) => r.chunkId));
    exactVector.push(await vectorTop10(target, query, null));
  }
  const results: Row[] = [
    {
      target: target.name,
      chunks: chunkCount,
      efSearch: 'exact',
      p50: percentile(exactTimes, 50),
      p95: percentile(exactTimes, 95),
      recall: 1,
      vectorRecall: 1,
    },
  ];
  log(`  ${target.name}: exact reference p50 ${results[0]!.p50.toFixed(1)} ms`);

  for (const efSearch of settings.efSearch) {
    for (const query of warmup) await repository.hybridSearch(query, efSearch);
    const times: number[] = [];
    const top: string[][] = [];
    const vectorTop: string[][] = [];
    for (const query of measured) {
      const started = process.hrtime.bigint();
      const rows = await repository.hybridSearch(query, efSearch);
      times.push(ms(started));
      top.push(rows.slice(0, 10).map((r) => r.chunkId));
    }
    for (const query of measured) vectorTop.push(await vectorTop10(target, query, efSearch));
    const row: Row = {
      target: target.name,
      chunks: chunkCount,
      efSearch,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      recall: recallAt10(top, exactTop),
      vectorRecall: recallAt10(vectorTop, exactVector),
    };
    results.push(row);
    log(
      `  ${target.name}: ef_search ${efSearch}: p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms, recall@10 ${row.recall!.toFixed(3)}`,
    );
  }

  // The in-memory path (vector-index.ts, memory-search.ts), as a running service searches once its
  // indexes of the bases are loaded: its own HNSW graph per base at the same ef values.
  for (const efSearch of settings.memory ? settings.efSearch : []) {
    const memory = createRagRepository(db, { efSearch });
    const loadStarted = process.hrtime.bigint();
    await memory.warmSearch(kbIds);
    const loadMs = ms(loadStarted);
    const inMemory = (query: HybridQuery): HybridQuery => ({ ...query, vectorLeg: undefined });
    for (const query of warmup) await memory.hybridSearch(inMemory(query), efSearch);
    const served = memory.servedSearches();
    const times: number[] = [];
    const top: string[][] = [];
    for (const query of measured) {
      const started = process.hrtime.bigint();
      const rows = await memory.hybridSearch(inMemory(query), efSearch);
      times.push(ms(started));
      top.push(rows.slice(0, 10).map((r) => r.chunkId));
    }
    const fromMemory = memory.servedSearches().memory - served.memory;
    const row: Row = {
      target: target.name,
      chunks: chunkCount,
      efSearch: `in memory, ${efSearch}`,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      recall: recallAt10(top, exactTop),
      vectorRecall: null,
    };
    results.push(row);
    log(
      `  ${target.name}: in memory, ef ${efSearch} (indexes loaded in ${(loadMs / 1000).toFixed(1)} s, ${fromMemory} of ${measured.length} searches from memory): p50 ${row.p50.toFixed(1)} ms, p95 ${row.p95.toFixed(1)} ms, recall@10 ${row.recall!.toFixed(3)}`,
    );
  }
  return results;
}

function table(rows: Row[]): string {
  const header =
    '| database | chunks | ef_search | hybrid p50 (ms) | hybrid p95 (ms) | recall@10 (hybrid) | recall@10 (vector leg) |\n' +
    '|---|---:|---:|---:|---:|---:|---:|';
  const lines = rows.map(
    (r) =>
      `| ${r.target} | ${r.chunks.toLocaleString('en-US')} | ${r.efSearch === 'exact' ? 'exact scan (reference)' : r.efSearch} | ` +
      `${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.recall?.toFixed(3) ?? '-'} | ${r.vectorRecall?.toFixed(3) ?? '-'} |`,
  );
  return [header, ...lines].join('\n');
}

const START = '<!-- bench:retrieval:start -->';
const END = '<!-- bench:retrieval:end -->';

function writeDocs(rows: Row[], context: string[]): void {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'benchmarks.md');
  const section = [
    START,
    `Last run: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:retrieval\`.`,
    '',
    ...context.map((c) => `- ${c}`),
    '',
    table(rows),
    END,
  ].join('\n');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n## Retrieval\n\n';
  const next =
    current.includes(START) && current.includes(END)
      ? current.slice(0, current.indexOf(START)) + section + current.slice(current.indexOf(END) + END.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
  log(`wrote ${path.relative(process.cwd(), file)}`);
}

async function adminQuery(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as Array<Record<string, string>>;
  } finally {
    await client.end();
  }
}

async function main() {
  const loadAtStart = os.loadavg()[0]?.toFixed(1);
  const rows: Row[] = [];
  const context = [
    `Machine: ${os.cpus().length} CPU cores (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}.`,
    `Data: ${DIMENSIONS}-dimensional synthetic clustered vectors (${TOPICS} topics × ${SUBTOPICS_PER_TOPIC} sub-topics), ${KNOWLEDGE_BASES} knowledge bases of one department, all searched; HNSW with pgvector defaults (m 16, ef_construction 64), built after the load.`,
    `Query: the service's hybrid query (rag.repository.ts), top ${CANDIDATES} per leg, ${SHORTLIST} fully scored, ${settings.queries} queries per row after ${WARMUP} warm-up queries, one at a time; latency includes the transaction that sets ef_search. Recall is against the exact scan of the same run.`,
  ];
  // BENCH_DATABASE_URLS (comma-separated) compares several servers in one run; default DATABASE_URL.
  const databaseUrls = (env.BENCH_DATABASE_URLS ?? env.DATABASE_URL ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  if (databaseUrls.length === 0 || settings.pgChunks <= 0)
    log('DATABASE_URL is not set: skipping PostgreSQL');
  for (const databaseUrl of settings.pgChunks > 0 ? databaseUrls : []) {
    const name = `aos_bench_${Date.now().toString(36)}`;
    await adminQuery(databaseUrl, `CREATE DATABASE "${name}"`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const handle = openPostgres(url.toString(), 4);
    try {
      const [info] = rowsOf<{ version: string; vector: string; shared_buffers: string }>(
        await handle.db.execute(sql`SELECT current_setting('server_version') AS version,
          (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS vector,
          current_setting('shared_buffers') AS shared_buffers`),
      );
      const label = `PostgreSQL, shared_buffers ${info?.shared_buffers}`;
      context.push(
        `${label}: PostgreSQL ${info?.version}, pgvector ${info?.vector}, other settings at their defaults, on the same machine.`,
      );
      log(`${label}: ${settings.pgChunks} chunks in scratch database ${name}`);
      rows.push(
        ...(await measure(
          {
            name: label,
            handle,
            maintenanceWorkMem: '2GB',
            async session(statements) {
              const client = await handle.pool.connect();
              try {
                for (const statement of statements) await client.query(statement);
              } finally {
                client.release();
              }
            },
          },
          settings.pgChunks,
        )),
      );
    } finally {
      await handle.close();
      if (settings.keep) log(`kept scratch database ${name}`);
      else await adminQuery(databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  }
  if (settings.pgliteChunks > 0) {
    const handle = await openPglite({});
    try {
      context.push(
        'PGlite 0.5 (PostgreSQL 18 in WebAssembly, single-threaded, in memory) in this Node process.',
      );
      log(`PGlite: ${settings.pgliteChunks} chunks in memory`);
      rows.push(
        ...(await measure(
          {
            name: 'PGlite',
            handle,
            maintenanceWorkMem: '256MB',
            async session(statements) {
              for (const statement of statements) await handle.client.exec(statement);
            },
          },
          settings.pgliteChunks,
        )),
      );
    } finally {
      await handle.close();
    }
  }
  context.push(
    `Load average (1 min) of the machine at the start and end of the run: ${loadAtStart} and ${os.loadavg()[0]?.toFixed(1)}; other work on the machine shows in the tail latencies.`,
  );
  log(`\n${table(rows)}\n`);
  if (settings.write && rows.length > 0) writeDocs(rows, context);
}

await main();
