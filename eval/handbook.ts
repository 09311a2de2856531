/**
 * Handbook questions and answers (eval/handbook/): does a draft answer a
 * real employee's question from the company's handbooks, offline?
 * Run: npm run eval:handbook  [-- --split=dev|test|all] [-- --misses] [-- --chunks]
 *
 * Three handbooks of one fictional company go into a fresh in-memory
 * embedded database through the real upload and ingestion, as a company
 * would upload them: the English one as a PDF (laid out by the test
 * fixtures' `handbookPdf`), the Ukrainian one as a DOCX written with the
 * `docx` package (heading styles, bullet lists, tables), the Russian one as
 * Markdown. One department, one namespace, one knowledge base. Every
 * question of questions-{dev,test}.jsonl is drafted by the rag service's
 * `draft` (retrieval, then the offline extractive responder: no
 * LLM_API_KEY), as the pipeline drafts a reply, and scored:
 * - answered correctly: not the fallback (confidence ≥ 0.7 and not one of
 *   the responder's "could not find" texts), every fact in the draft
 *   (case-insensitive, spaces normalised, whole words), and the Sources
 *   line naming the section holding the answer; also shown without the
 *   citation check;
 * - an unanswerable question answered: any draft that is not the fallback;
 * - retrieval: the passage holding the answer (a chunk of the expected
 *   document whose heading path includes the section, or which holds every
 *   fact) at rank 1 and among the first three sources;
 * - the reply's language (its fallback text or its Sources label) against
 *   the question's;
 * - the best hit's confidence for answerable and unanswerable questions,
 *   and the share of each above a few thresholds, to read calibration from.
 * The dev split is for tuning; the test split is reported. Without
 * `--split` the dev split runs. `--chunks` prints every chunk (heading path
 * and text) as ingested.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, WidthType } from 'docx';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../src/core/db/client.js';
import { type HandbookBlock, handbookPdf } from '../test/fixtures/documents.js';

import { ingested, startEvalService, uploadDocument } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LANGUAGES = ['en', 'uk', 'ru'] as const;
type Language = (typeof LANGUAGES)[number];
const KINDS = ['paraphrase', 'short', 'misspelled', 'long', 'cross-language', 'unanswerable'] as const;
const HANDBOOKS = ['en-handbook', 'uk-handbook', 'ru-handbook'] as const;
type Handbook = (typeof HANDBOOKS)[number];
/** DECISIONS.md: below this confidence a draft goes to a human. */
const ANSWER_LINE = 0.7;

interface Question {
  id: string;
  split: 'dev' | 'test';
  lang: Language;
  kind: (typeof KINDS)[number];
  question: string;
  document: Handbook | null;
  section: string | null;
  facts: string[];
}

/** The questions of both halves (the files hold no `split`: it is the file's). */
export function loadQuestions(): Question[] {
  return (['dev', 'test'] as const).flatMap((split) =>
    readFileSync(path.join(here, 'handbook', `questions-${split}.jsonl`), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => ({ ...(JSON.parse(line) as Omit<Question, 'split'>), split })),
  );
}

/** A Markdown block: a heading, a paragraph, a list item or a table (rows of cells). */
type MarkdownBlock =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'item'; text: string }
  | { kind: 'table'; rows: string[][] };

/** The handbooks' Markdown subset: `#` headings, paragraphs, `-` lists and pipe tables. */
export function parseMarkdown(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const raw of markdown.split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
    } else if (line.startsWith('- ')) {
      flush();
      blocks.push({ kind: 'item', text: line.slice(2) });
    } else if (line.startsWith('|')) {
      flush();
      if (/^\|[\s:|-]+\|$/.test(line)) continue; // the header's separator row
      const cells = line
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim());
      const last = blocks[blocks.length - 1];
      if (last?.kind === 'table') last.rows.push(cells);
      else blocks.push({ kind: 'table', rows: [cells] });
    } else if (line === '') flush();
    else paragraph.push(line);
  }
  flush();
  return blocks;
}

/**
 * The PDF as a word processor would print it: headings as headings, list
 * items as bulleted paragraphs, a table row as one line of its cells (what a
 * PDF's text layer gives for a table).
 */
function toPdf(blocks: readonly MarkdownBlock[], title: string): Buffer {
  return handbookPdf(
    blocks.flatMap((b): HandbookBlock[] => {
      if (b.kind === 'heading') return [{ kind: 'heading' as const, level: b.level, text: b.text }];
      if (b.kind === 'item') return [{ kind: 'paragraph' as const, text: `• ${b.text}` }];
      if (b.kind === 'table')
        return b.rows.map((row) => ({ kind: 'paragraph' as const, text: row.join('   ') }));
      return [{ kind: 'paragraph' as const, text: b.text }];
    }),
    { title },
  );
}

/** The DOCX as Word writes it: Title, Heading 1 and 2 styles, bullet lists and real tables. */
async function toDocx(blocks: readonly MarkdownBlock[], title: string): Promise<Buffer> {
  const levels = [HeadingLevel.TITLE, HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3];
  const children = blocks.map((b) => {
    if (b.kind === 'heading') return new Paragraph({ text: b.text, heading: levels[b.level - 1] });
    if (b.kind === 'item') return new Paragraph({ text: b.text, bullet: { level: 0 } });
    if (b.kind === 'table') {
      return new Table({
        width: { size: 100, type: WidthType.PERCENTAGE },
        rows: b.rows.map(
          (row) =>
            new TableRow({ children: row.map((cell) => new TableCell({ children: [new Paragraph(cell)] })) }),
        ),
      });
    }
    return new Paragraph({ text: b.text });
  });
  return Packer.toBuffer(new Document({ title, sections: [{ children }] }));
}

/** A fact is found as whole words: "5 хвилин" is not in "15 хвилин". */
export function holdsFact(text: string, fact: string): boolean {
  const escaped = normalise(fact).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(normalise(text));
}

const normalise = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

/** The responder's fallback texts start so, in en/uk/ru. */
const FALLBACK = /^(I could not find|Я не знайшов|Я не нашёл)/u;
const SOURCES_LABEL: Record<string, Language> = { Sources: 'en', Джерела: 'uk', Источники: 'ru' };
const FALLBACK_LANGUAGE: Array<[RegExp, Language]> = [
  [/^I could not find/u, 'en'],
  [/^Я не знайшов/u, 'uk'],
  [/^Я не нашёл/u, 'ru'],
];

/** The draft's citation line (after "Sources:" / "Джерела:" / "Источники:"), empty when none. */
function citationOf(answer: string): { label: Language | null; line: string } {
  const match = /^(Sources|Джерела|Источники):\s*(.*)$/mu.exec(answer);
  return match ? { label: SOURCES_LABEL[match[1]!]!, line: match[2]! } : { label: null, line: '' };
}

function replyLanguage(answer: string, label: Language | null): Language | null {
  for (const [pattern, language] of FALLBACK_LANGUAGE) if (pattern.test(answer)) return language;
  return label;
}

interface Outcome {
  question: Question;
  answer: string;
  confidence: number;
  fallback: boolean;
  factsFound: boolean;
  cited: boolean;
  correct: boolean;
  correctWithoutCitation: boolean;
  /** Rank (1-based) of the first source holding the answer among the draft's sources; null: none. */
  answerRank: number | null;
  languageMatches: boolean;
  topSource: string;
}

interface ChunkInfo {
  handbook: Handbook | undefined;
  content: string;
  headingPath: string[];
}

async function main(): Promise<void> {
  const started = performance.now();
  const args = process.argv.slice(2);
  const splitArg = args.find((a) => a.startsWith('--split='))?.slice('--split='.length) ?? 'dev';
  const showMisses = args.includes('--misses');
  const service = await startEvalService('eval-handbook', 'Handbooks');
  const { container } = service;
  const { db } = container;
  const base = { id: service.knowledgeBaseId };
  const department = { id: service.departmentId };
  const namespace = await container.namespaces.repositories.namespaces.insert({
    name: 'Employee assistant',
    departmentId: department.id,
    config: { knowledgeBaseIds: [base.id] },
  });
  const knowledgeBaseIds = (namespace.config as { knowledgeBaseIds: string[] }).knowledgeBaseIds;

  const handbookOfDocument = new Map<string, Handbook>();
  for (const handbook of HANDBOOKS) {
    const markdown = readFileSync(path.join(here, 'handbook', `${handbook}.md`), 'utf8');
    const blocks = parseMarkdown(markdown);
    const title = blocks.find((b) => b.kind === 'heading')?.text ?? handbook;
    const [bytes, fileName] =
      handbook === 'en-handbook'
        ? [toPdf(blocks, title), `${handbook}.pdf`]
        : handbook === 'uk-handbook'
          ? [await toDocx(blocks, title), `${handbook}.docx`]
          : [Buffer.from(markdown), `${handbook}.md`];
    handbookOfDocument.set(await uploadDocument(service, { title, fileName, bytes }), handbook);
  }
  await ingested(service);
  const documents = rowsOf<{ id: string; status: string; metadata: Record<string, unknown> }>(
    await db.execute(sql`SELECT id, status, metadata FROM documents WHERE knowledge_base_id = ${base.id}`),
  );
  for (const d of documents.filter((x) => x.status !== 'ready')) {
    throw new Error(`${handbookOfDocument.get(d.id)} failed ingestion: ${JSON.stringify(d.metadata)}`);
  }
  const chunkRows = rowsOf<{
    id: string;
    documentId: string;
    content: string;
    metadata: { headingPath?: string[] };
    heldBack: boolean;
  }>(
    await db.execute(sql`SELECT id, document_id AS "documentId", content, metadata, held_back AS "heldBack"
      FROM chunks WHERE knowledge_base_id = ${base.id}`),
  );
  const chunks = new Map<string, ChunkInfo>(
    chunkRows.map((c) => [
      c.id,
      {
        handbook: handbookOfDocument.get(c.documentId),
        content: c.content,
        headingPath: c.metadata.headingPath ?? [],
      },
    ]),
  );
  const perHandbook = HANDBOOKS.map(
    (h) => `${h} ${chunkRows.filter((c) => handbookOfDocument.get(c.documentId) === h).length}`,
  );
  if (args.includes('--chunks')) {
    for (const c of [...chunks.values()]) {
      process.stdout.write(
        `${c.handbook} › ${c.headingPath.join(' › ')}\n    ${c.content.replace(/\s+/g, ' ')}\n`,
      );
    }
  }
  const heldBack = chunkRows.filter((c) => c.heldBack).length;
  process.stdout.write(
    `chunks: ${perHandbook.join(', ')}${heldBack ? `; held back by the injection scan: ${heldBack}` : ''}\n`,
  );

  const holdsAnswer = (chunk: ChunkInfo | undefined, q: Question): boolean => {
    if (!chunk || !q.document || chunk.handbook !== q.document) return false;
    const section = normalise(q.section ?? '');
    const underSection = section !== '' && chunk.headingPath.some((h) => normalise(h).includes(section));
    return underSection || q.facts.every((f) => holdsFact(chunk.content, f));
  };

  await container.rag.repositories.rag.warmSearch([base.id]);
  const questions = loadQuestions().filter((q) => splitArg === 'all' || q.split === splitArg);
  const outcomes: Outcome[] = [];
  for (const q of questions) {
    const draft = await container.rag.service.draft(container.system, {
      departmentId: department.id,
      text: q.question,
      knowledgeBaseIds,
    });
    const answer = draft.answer;
    const fallback = draft.confidence < ANSWER_LINE || FALLBACK.test(answer.trim());
    const citation = citationOf(answer);
    const body = citation.line ? answer.slice(0, answer.lastIndexOf(citation.line)) : answer;
    const factsFound = q.facts.length > 0 && q.facts.every((f) => holdsFact(body, f));
    const cited = q.section !== null && normalise(citation.line).includes(normalise(q.section));
    const rankIndex = draft.sources.findIndex((s) => holdsAnswer(chunks.get(s.chunkId), q));
    const top = chunks.get(draft.sources[0]?.chunkId ?? '');
    outcomes.push({
      question: q,
      answer,
      confidence: draft.confidence,
      fallback,
      factsFound,
      cited,
      correct: q.document !== null && !fallback && factsFound && cited,
      correctWithoutCitation: q.document !== null && !fallback && factsFound,
      answerRank: rankIndex < 0 ? null : rankIndex + 1,
      languageMatches: replyLanguage(answer.trim(), citation.label) === q.lang,
      topSource: top ? `${top.handbook} › ${top.headingPath.join(' › ')}` : '—',
    });
  }

  report(outcomes, splitArg, showMisses);
  process.stdout.write(
    `\n${questions.length} questions in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  await container.close();
  process.exit(0);
}

const share = (xs: readonly boolean[]) =>
  xs.length === 0 ? '—' : `${(xs.filter(Boolean).length / xs.length).toFixed(2)}`;
const count = (xs: readonly boolean[]) => `${xs.filter(Boolean).length}/${xs.length}`;

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

function report(outcomes: readonly Outcome[], splitArg: string, showMisses: boolean): void {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const answerable = (o: Outcome) => o.question.document !== null;
  const splits = [...new Set(outcomes.map((o) => o.question.split))];

  if (showMisses) {
    out('\nmisses (✗ = wrong; facts/cite/rank/confidence, then the draft’s first line and its top source)');
    for (const o of outcomes) {
      const ok = answerable(o) ? o.correct : o.fallback;
      if (ok) continue;
      const q = o.question;
      const firstLine = o.answer.split('\n')[0]!.slice(0, 160);
      const flags = answerable(o)
        ? `facts ${o.factsFound ? 'y' : 'n'} cite ${o.cited ? 'y' : 'n'} rank ${o.answerRank ?? '-'}`
        : 'unanswerable, answered';
      out(`✗ ${q.id} [${flags} conf ${o.confidence.toFixed(2)}] ${q.question}`);
      out(`    → ${firstLine}`);
      if (!o.fallback) out(`    cites: ${citationOf(o.answer).line || '(no Sources line)'}`);
      out(
        `    top: ${o.topSource}${answerable(o) ? ` | want: ${q.document} › ${q.section} ${JSON.stringify(q.facts)}` : ''}`,
      );
    }
  }

  for (const split of splits) {
    const rows = outcomes.filter((o) => o.question.split === split);
    out(`\nsplit ${split}: per language × kind`);
    out(
      '\n| lang | kind | n | correct | correct, no cite check | facts | answered | rank 1 | top 3 | reply lang |',
    );
    out('|---|---|---|---|---|---|---|---|---|---|');
    for (const lang of LANGUAGES) {
      for (const kind of KINDS) {
        const cell = rows.filter((o) => o.question.lang === lang && o.question.kind === kind);
        if (cell.length === 0) continue;
        const a = cell.filter(answerable);
        out(
          `| ${lang} | ${kind} | ${cell.length} | ${a.length ? count(a.map((o) => o.correct)) : '—'} | ${
            a.length ? count(a.map((o) => o.correctWithoutCitation)) : '—'
          } | ${a.length ? count(a.map((o) => o.factsFound)) : '—'} | ${count(cell.map((o) => !o.fallback))} | ${
            a.length ? count(a.map((o) => o.answerRank === 1)) : '—'
          } | ${a.length ? count(a.map((o) => o.answerRank !== null && o.answerRank <= 3)) : '—'} | ${count(
            cell.map((o) => o.languageMatches),
          )} |`,
        );
      }
    }

    out(`\nsplit ${split}: totals (targets: answerable correct ≥ 0.80, unanswerable answered ≤ 0.10)`);
    out(
      '\n| lang | answerable correct | … no cite check | unanswerable answered | rank 1 | top 3 | reply lang |',
    );
    out('|---|---|---|---|---|---|---|');
    for (const lang of [...LANGUAGES, 'all'] as const) {
      const cell = rows.filter((o) => lang === 'all' || o.question.lang === lang);
      const a = cell.filter(answerable);
      const u = cell.filter((o) => !answerable(o));
      out(
        `| ${lang} | ${share(a.map((o) => o.correct))} (${count(a.map((o) => o.correct))}) | ${share(
          a.map((o) => o.correctWithoutCitation),
        )} | ${share(u.map((o) => !o.fallback))} (${count(u.map((o) => !o.fallback))}) | ${share(
          a.map((o) => o.answerRank === 1),
        )} | ${share(a.map((o) => o.answerRank !== null && o.answerRank <= 3))} | ${share(
          cell.map((o) => o.languageMatches),
        )} |`,
      );
    }

    out(`\nsplit ${split}: best hit's confidence (the draft's), answerable vs unanswerable`);
    out('\n| questions | n | min | p10 | median | p90 | max |');
    out('|---|---|---|---|---|---|---|');
    for (const [name, group] of [
      ['answerable', rows.filter(answerable)],
      ['unanswerable', rows.filter((o) => !answerable(o))],
    ] as const) {
      const values = group.map((o) => o.confidence).sort((x, y) => x - y);
      const f = (v: number) => (Number.isNaN(v) ? '—' : v.toFixed(2));
      out(
        `| ${name} | ${values.length} | ${f(values[0] ?? Number.NaN)} | ${f(quantile(values, 0.1))} | ${f(
          quantile(values, 0.5),
        )} | ${f(quantile(values, 0.9))} | ${f(values[values.length - 1] ?? Number.NaN)} |`,
      );
    }
    const thresholds = [0.5, 0.6, 0.7, 0.8, 0.9];
    out(
      `\n| share with confidence ≥ | ${thresholds.join(' | ')} |\n|---|${thresholds.map(() => '---').join('|')}|`,
    );
    for (const [name, group] of [
      ['answerable', rows.filter(answerable)],
      ['unanswerable', rows.filter((o) => !answerable(o))],
    ] as const) {
      out(`| ${name} | ${thresholds.map((t) => share(group.map((o) => o.confidence >= t))).join(' | ')} |`);
    }
  }
  if (splitArg === 'all') out('\n(all: both halves are shown separately; report the test half)');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await main();
}
