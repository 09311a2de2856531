import { isUuid } from '../../core/ids.js';
import type { IntentExamplesRepository, NamespaceRef } from './intent-examples.repository.js';
import { checkIntentName, checkPhrase } from './intent-input.js';
import type { IntentsService, NewExample } from './intents.service.js';

/** Phrases per intent below which the seeding summary warns. */
export const ADVISED_PHRASES_PER_INTENT = 20;

/** One block of a seed file: a namespace (id or name) and its intents' phrases. */
export interface SeedBlock {
  namespace: string;
  intents: Array<{ intentName: string; phrases: string[] }>;
}

/** A seed file that does not follow the format; `problems` lists every one, with its place. */
export class SeedFileError extends Error {
  constructor(readonly problems: string[]) {
    super(`The seed file is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'SeedFileError';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the parsed JSON of a seed file:
 * `{ "namespace": "<id or name>", "intents": { "<intentName>": ["phrase", …] } }`
 * or a list of such blocks. Names and phrases are trimmed; a phrase repeated
 * within an intent counts once.
 * @throws SeedFileError listing every problem (a phrase under two intents of one block is one).
 */
export function parseSeedFile(json: unknown): SeedBlock[] {
  const problems: string[] = [];
  const list = Array.isArray(json) ? json : [json];
  const blocks: SeedBlock[] = [];
  if (list.length === 0) problems.push('the list of blocks is empty');
  list.forEach((raw, b) => {
    const at = Array.isArray(json) ? `[${b}]` : '';
    if (!isRecord(raw)) {
      problems.push(`${at || 'the file'}: must be an object with "namespace" and "intents"`);
      return;
    }
    const namespace = typeof raw.namespace === 'string' ? raw.namespace.trim() : '';
    if (!namespace) problems.push(`${at}.namespace: must be a namespace id or name`);
    if (!isRecord(raw.intents) || Object.keys(raw.intents).length === 0) {
      problems.push(`${at}.intents: must be an object of intent names to lists of phrases`);
      return;
    }
    const owner = new Map<string, string>();
    const intents: SeedBlock['intents'] = [];
    for (const [rawName, rawPhrases] of Object.entries(raw.intents)) {
      const where = `${at}.intents["${rawName}"]`;
      const name = checkIntentName(rawName);
      if (!name.ok) problems.push(`${where}: the intent name ${name.problem}`);
      if (!Array.isArray(rawPhrases)) {
        problems.push(`${where}: must be a list of phrases`);
        continue;
      }
      const phrases = new Set<string>();
      rawPhrases.forEach((rawPhrase, p) => {
        const phrase = typeof rawPhrase === 'string' ? checkPhrase(rawPhrase) : null;
        if (!phrase?.ok) {
          problems.push(`${where}[${p}]: ${phrase ? phrase.problem : 'must be a string'}`);
          return;
        }
        const other = owner.get(phrase.value);
        if (other !== undefined && other !== rawName) {
          problems.push(`${where}[${p}]: "${phrase.value}" is also a phrase of intent "${other}"`);
        }
        owner.set(phrase.value, rawName);
        phrases.add(phrase.value);
      });
      if (name.ok) intents.push({ intentName: name.value, phrases: [...phrases] });
    }
    blocks.push({ namespace, intents });
  });
  if (problems.length > 0) throw new SeedFileError(problems);
  return blocks;
}

export interface SeedSummary {
  namespaces: number;
  intents: number;
  /** Phrases stored by this run. */
  added: number;
  /** Phrases the namespace already had for the same intent. */
  skipped: number;
  /** Phrases the namespace already had for another intent: left as they are. */
  conflicts: Array<{ namespaceId: string; intentName: string; phrase: string; storedAs: string }>;
  /** Intents of the file with fewer than {@link ADVISED_PHRASES_PER_INTENT} stored phrases after the run. */
  underAdvised: Array<{ namespaceId: string; intentName: string; phrases: number }>;
}

/**
 * Loads seed blocks into their namespaces through the same path as
 * `POST /intents/examples` (embedded 32 phrases per provider call, trust
 * records created with the defaults), skipping phrases already stored.
 */
export function createIntentSeeder(deps: { examples: IntentExamplesRepository; service: IntentsService }) {
  const { examples, service } = deps;

  async function resolve(ref: string): Promise<NamespaceRef> {
    if (isUuid(ref)) {
      const found = await examples.namespace(ref);
      if (found) return found;
    }
    const named = await examples.namespacesNamed(ref);
    if (named.length === 1) return named[0]!;
    if (named.length === 0) throw new Error(`No namespace has the id or name "${ref}"`);
    throw new Error(
      `${named.length} namespaces are named "${ref}" (${named.map((n) => n.id).join(', ')}); use the id`,
    );
  }

  return {
    /**
     * Seeds every block in order, reporting progress through `log`.
     * @throws Error for a namespace that is missing or ambiguous (checked for every block before anything is stored).
     * @throws LlmProviderError when the embedding provider fails (batches already stored stay).
     */
    async seed(blocks: readonly SeedBlock[], log: (line: string) => void = () => {}): Promise<SeedSummary> {
      const namespaces = await Promise.all(blocks.map((block) => resolve(block.namespace)));
      const summary: SeedSummary = {
        namespaces: new Set(namespaces.map((n) => n.id)).size,
        intents: 0,
        added: 0,
        skipped: 0,
        conflicts: [],
        underAdvised: [],
      };
      for (const [b, block] of blocks.entries()) {
        const namespace = namespaces[b]!;
        const wanted = block.intents.flatMap(({ intentName, phrases }) =>
          phrases.map((exampleText) => ({ intentName, exampleText })),
        );
        const stored = new Map(
          (await examples.findTexts(namespace.id, [...new Set(wanted.map((w) => w.exampleText))])).map(
            (r) => [r.exampleText, r.intentName],
          ),
        );
        const fresh: NewExample[] = [];
        for (const item of wanted) {
          const storedAs = stored.get(item.exampleText);
          if (storedAs === undefined) fresh.push(item);
          else if (storedAs === item.intentName) summary.skipped++;
          else {
            summary.conflicts.push({
              namespaceId: namespace.id,
              intentName: item.intentName,
              phrase: item.exampleText,
              storedAs,
            });
          }
        }
        log(
          `namespace "${namespace.name}" (${namespace.id}): ${block.intents.length} intents, ` +
            `${wanted.length} phrases, ${fresh.length} new`,
        );
        const inserted = await service.storeExamples(namespace.id, fresh, (done, total) =>
          log(`  embedded and stored ${done}/${total}`),
        );
        summary.added += inserted.length;
        // Anything not inserted was stored concurrently by someone else.
        summary.skipped += fresh.length - inserted.length;

        const counts = await exampleCounts(namespace.id);
        for (const { intentName } of block.intents) {
          summary.intents++;
          const phrases = counts.get(intentName) ?? 0;
          if (phrases < ADVISED_PHRASES_PER_INTENT) {
            summary.underAdvised.push({ namespaceId: namespace.id, intentName, phrases });
          }
        }
      }
      return summary;
    },
  };

  async function exampleCounts(namespaceId: string): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (let offset = 0; ; offset += 100) {
      const { rows, total } = await examples.intents(namespaceId, { limit: 100, offset });
      for (const row of rows) counts.set(row.intentName, Number(row.exampleCount));
      if (offset + 100 >= total) return counts;
    }
  }
}

export type IntentSeeder = ReturnType<typeof createIntentSeeder>;

/** The closing lines of a seeding run, for people. */
export function describeSummary(summary: SeedSummary): string[] {
  const lines = [
    `done: ${summary.added} phrases added, ${summary.skipped} already stored, ` +
      `${summary.intents} intents in ${summary.namespaces} namespace(s)`,
  ];
  for (const c of summary.conflicts) {
    lines.push(`  kept: "${c.phrase}" is already an example of "${c.storedAs}", not "${c.intentName}"`);
  }
  lines.push(
    `${summary.underAdvised.length} intent(s) have fewer than the ${ADVISED_PHRASES_PER_INTENT} phrases advised`,
  );
  for (const u of summary.underAdvised) lines.push(`  ${u.intentName}: ${u.phrases}`);
  return lines;
}
