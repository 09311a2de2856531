// Builds unseen-dev-extra.jsonl from unseen/dev-extra.mjs (a tuning-only set:
// documents about assistants and new override / reveal wordings).
// Run: node eval/injection/build-dev-extra.mjs
import { writeFileSync } from 'node:fs';
import { items } from './unseen/dev-extra.mjs';
import { items as probe } from './unseen/probe-after.mjs';

/** Writes `items` as `<name>.jsonl`, ids `<prefix>-<lang>-<kind>-<family>-<n>`. */
function write(name, prefix, rows) {
  const counters = new Map();
  const lines = rows.map(([lang, kind, label, family, text]) => {
    const key = `${lang}-${kind}-${family}`;
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    return JSON.stringify({ id: `${prefix}-${key}-${n}`, lang, kind, label, family, text });
  });
  writeFileSync(new URL(`./${name}.jsonl`, import.meta.url), `${lines.join('\n')}\n`);
  console.log(`${name}: ${lines.length} items`);
}

write('unseen-dev-extra', 'extra', items);
// Written after the second-round fix and never tuned on: a check that it generalises.
write('unseen-probe-after', 'probe', probe);
