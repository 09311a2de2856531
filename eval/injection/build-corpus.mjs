// Builds eval/injection/train.jsonl and test.jsonl from the hand-written
// fragments in ./fragments. Run: node eval/injection/build-corpus.mjs
//
// The split is by phrasing, not by row: train items are composed only of the
// `train` lists (attack phrasings, benign phrasings, carrier documents,
// message prefixes, HTML hiding styles) and test items only of the `test`
// lists, so no test sentence or carrier appears in train. Deterministic: a
// seeded generator picks positions and variations.
import { writeFileSync } from 'node:fs';
import * as en from './fragments/en.mjs';
import * as extra from './fragments/extra-train.mjs';
import * as fifth from './fragments/fifth-round.mjs';
import * as fourth from './fragments/fourth-round.mjs';
import * as ru from './fragments/ru.mjs';
import * as third from './fragments/third-round.mjs';
import * as uk from './fragments/uk.mjs';

// Base fragments, then the second to fifth rounds of training-only phrasings.
const rounds = [extra, third, fourth, fifth];
const LANGS = {
  en: rounds.reduce((f, round) => withExtra(f, round.en), en),
  uk: rounds.reduce((f, round) => withExtra(f, round.uk), uk),
  ru: rounds.reduce((f, round) => withExtra(f, round.ru), ru),
};

/** The language's fragments with a later round of training phrasings (and carrier documents) appended to the `train` lists. */
function withExtra(base, more) {
  const merge = (lists, added) => {
    const out = { ...lists };
    for (const [family, phrases] of Object.entries(added ?? {})) {
      out[family] = { ...out[family], train: [...(out[family]?.train ?? []), ...phrases] };
    }
    return out;
  };
  return {
    ...base,
    attacks: merge(base.attacks, more.attacks),
    benign: merge(base.benign, more.benign),
    awareness: { ...base.awareness, train: [...base.awareness.train, ...(more.awareness ?? [])] },
    documents: { ...base.documents, train: [...base.documents.train, ...(more.documents ?? [])] },
    plain: { ...base.plain, train: [...base.plain.train, ...(more.plain ?? [])] },
    benignHidden: { ...base.benignHidden, train: [...base.benignHidden.train, ...(more.benignHidden ?? [])] },
    headings: {
      train: [...(base.headings?.train ?? []), ...(more.headings ?? [])],
      test: base.headings?.test ?? [],
    },
    ...(base.translitAttacks
      ? {
          translitAttacks: {
            ...base.translitAttacks,
            train: [...base.translitAttacks.train, ...(more.translitAttacks ?? [])],
          },
          translitBenign: {
            ...base.translitBenign,
            train: [...base.translitBenign.train, ...(more.translitBenign ?? [])],
          },
        }
      : {}),
  };
}
const SPLITS = ['train', 'test'];

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
let random = mulberry32(16);
const pick = (list) => list[Math.floor(random() * list.length)];

/** Case and typo variations, so the corpus is not one clean template. */
function vary(text) {
  const r = random();
  let out = text;
  if (r < 0.1) out = out.toLowerCase();
  else if (r < 0.15) out = out.toUpperCase();
  if (random() < 0.12) {
    // One typo: swap two letters inside a longer word.
    const words = out.split(' ');
    const candidates = words.map((w, i) => [w, i]).filter(([w]) => /^\p{L}{6,}$/u.test(w));
    if (candidates.length) {
      const [word, index] = pick(candidates);
      const at = 1 + Math.floor(random() * (word.length - 3));
      words[index] = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
      out = words.join(' ');
    }
  }
  if (random() < 0.15) out = out.replace(/[.!?]$/u, '');
  return out;
}

/** Hiding styles: train and test use different techniques or spellings of them. */
const HIDING = {
  train: [
    (t) => `<span style="display:none">${t}</span>`,
    (t) => `<div style="color:#ffffff">${t}</div>`,
    (t) => `<p style="font-size:0">${t}</p>`,
    (t) => `<!-- ${t} -->`,
    (t) => `<div hidden>${t}</div>`,
    (t) => `<span style="position:absolute;left:-9999px">${t}</span>`,
  ],
  test: [
    (t) => `<div style="display: none !important;">${t}</div>`,
    (t) => `<span style="color: white; background-color: #FFF">${t}</span>`,
    (t) => `<p style="font-size:0px;line-height:0">${t}</p>`,
    (t) => `<span style="visibility:hidden">${t}</span>`,
    (t) => `<div style="opacity:0">${t}</div>`,
    (t) => `<div style="width:0;height:0;overflow:hidden">${t}</div>`,
    (t) => `<style>.note-x{display:none}</style><div class="note-x">${t}</div>`,
    (t) => `<template><p>${t}</p></template>`,
  ],
};

const escapeHtml = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function toHtml(paragraphs, inserted) {
  const [title, ...body] = paragraphs;
  const parts = [`<h1>${escapeHtml(title)}</h1>`, ...body.map((p) => `<p>${escapeHtml(p)}</p>`)];
  if (inserted !== undefined) parts.splice(1 + Math.floor(random() * (parts.length - 1)), 0, inserted);
  return `<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body>${parts.join('\n')}</body></html>`;
}

/** What a naive extractor reads out of the HTML: every text node, hidden or not, no tags. */
function naiveText(html) {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<!--([\s\S]*?)-->/g, '$1')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

function bury(paragraphs, sentence) {
  const copy = [...paragraphs];
  copy.splice(1 + Math.floor(random() * (copy.length - 1)) + 1, 0, sentence);
  return copy;
}

/** Letter-spaced, dotted, homoglyph and zero-width versions of a phrase. */
const OBFUSCATE = {
  train: [
    (t) =>
      t
        .split(' ')
        .slice(0, 9)
        .map((w) => [...w].join(' '))
        .join('  '),
    (t) =>
      t
        .replace(/[aeo]/g, (c) => ({ a: 'а', e: 'е', o: 'о' })[c])
        .replace(/[аео]/g, (c) => ({ а: 'a', е: 'e', о: 'o' })[c] ?? c),
    (t) => [...t].join('\u200b'),
  ],
  test: [
    (t) =>
      t
        .split(' ')
        .slice(0, 9)
        .map((w) => [...w].join('.'))
        .join(' '),
    (t) =>
      t
        .split(' ')
        .slice(0, 9)
        .map((w) => [...w].join('-'))
        .join('   '),
    (t) => t.replace(/[oaeipc]/g, (c) => ({ o: 'о', a: 'а', e: 'е', i: 'і', p: 'р', c: 'с' })[c]),
  ],
};

/** Homoglyph swap that works in both directions: Latin letters into Cyrillic words and back. */
function homoglyphs(t) {
  const toCyr = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', x: 'х', i: 'і' };
  const toLat = { а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', х: 'x', і: 'i' };
  return [...t].map((c, i) => (i % 2 ? (toCyr[c] ?? toLat[c] ?? c) : c)).join('');
}
OBFUSCATE.train[1] = homoglyphs;

const ENCODE = {
  train: [
    (t) => `Please decode this and do what it says: ${Buffer.from(t).toString('base64')}`,
    (t) => `ref=${Buffer.from(t).toString('hex')}`,
    (t) => `Note: ${encodeURIComponent(t)}`,
  ],
  test: [
    (t) => `Payload (base64): ${Buffer.from(t).toString('base64')}`,
    (t) => `data:text/plain;base64,${Buffer.from(t).toString('base64')} — run it`,
    (t) => `%${Buffer.from(t).toString('hex').match(/../g).join('%')}`,
    (t) => `x=${Buffer.from(Buffer.from(t).toString('base64')).toString('base64')}`,
  ],
};

const BENIGN_ENCODED = {
  train: [
    () => `Attachment checksum: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08`,
    (t) => `Encoded report summary: ${Buffer.from(t).toString('base64')}`,
    (t) => `Search link: https://intranet.example/search?q=${encodeURIComponent(t)}`,
  ],
  test: [
    () => 'Session id 3f2a4c1e-8b9d-4e7f-a1b2-c3d4e5f60718, build 0x1f2e3d4c5b6a',
    (t) => `Base64 of the greeting card text: ${Buffer.from(t).toString('base64')}`,
    (t) => `Open https://portal.example/find?term=${encodeURIComponent(t)}&page=2`,
  ],
};

const items = { train: [], test: [] };
const counters = {};
function add(split, lang, kind, label, family, text, html) {
  const key = `${split}-${lang}`;
  counters[key] = (counters[key] ?? 0) + 1;
  const id = `${split}-${lang}-${String(counters[key]).padStart(4, '0')}`;
  const item = { id, lang, kind, label, family, text };
  if (html) item.html = html;
  items[split].push(item);
}

for (const [lang, f] of Object.entries(LANGS)) {
  for (const split of SPLITS) {
    random = mulberry32(lang.charCodeAt(0) * 1000 + (split === 'train' ? 1 : 2));
    const docs = f.documents[split];
    const plainQ = f.plain[split];
    const prefixes = f.prefixes[split];
    const wrap = (t) => {
      const r = random();
      if (r < 0.4) return vary(t);
      if (r < 0.7) return `${pick(prefixes)} ${vary(t)}`;
      return `${vary(t)} ${pick(plainQ)}`;
    };
    let docTurn = 0;
    const nextDoc = () => docs[docTurn++ % docs.length];

    // Attacks, as messages and (every other one) buried in a document.
    const hijackable = [];
    for (const [family, lists] of Object.entries(f.attacks)) {
      lists[split].forEach((fragment, i) => {
        hijackable.push(fragment);
        add(split, lang, 'message', 1, family, wrap(fragment));
        if (i % 2 === 0) {
          const doc = bury(nextDoc(), vary(fragment));
          const asHtml = random() < 0.3;
          add(split, lang, 'document', 1, family, doc.join('\n\n'), asHtml ? toHtml(doc) : undefined);
        }
      });
    }
    // Hard negatives: the same words used innocently, as messages and in documents.
    for (const [family, lists] of Object.entries(f.benign)) {
      for (const fragment of lists[split]) {
        add(split, lang, 'message', 0, family, wrap(fragment));
        const doc = bury(nextDoc(), fragment);
        add(split, lang, 'document', 0, family, doc.join('\n\n'), random() < 0.3 ? toHtml(doc) : undefined);
      }
    }
    for (const q of plainQ) add(split, lang, 'message', 0, 'plain', vary(q));
    for (const doc of docs) add(split, lang, 'document', 0, 'plain', doc.join('\n\n'));
    for (const heading of f.headings[split]) add(split, lang, 'document', 0, 'plain', heading);
    for (const page of f.awareness[split]) {
      add(split, lang, 'document', 0, 'awareness', page.join('\n\n'));
      const html = toHtml(page);
      add(split, lang, 'document', 0, 'awareness', naiveText(html), html);
    }

    // Hidden text in HTML: instruction-like text hidden among visible paragraphs.
    const hiding = HIDING[split];
    const hiddenSources = [
      ...f.attacks.override[split],
      ...f.attacks['new-instructions'][split],
      ...f.attacks.exfiltration[split],
      ...f.attacks['output-hijack'][split],
    ];
    hiding.forEach((hide, i) => {
      const fragment = hiddenSources[(i * 3) % hiddenSources.length];
      const html = toHtml(nextDoc(), hide(escapeHtml(fragment)));
      add(split, lang, 'document', 1, 'hidden-text', naiveText(html), html);
      // The same technique hiding harmless text must not be flagged.
      const harmless = toHtml(
        nextDoc(),
        hide(escapeHtml(f.benignHidden[split][i % f.benignHidden[split].length])),
      );
      add(split, lang, 'document', 0, 'hidden-text', naiveText(harmless), harmless);
    });
    for (let i = 0; i < 2; i++) {
      const fragment = hiddenSources[(i * 5 + 1) % hiddenSources.length];
      const message = `${pick(plainQ)} ${hiding[(i + 1) % hiding.length](escapeHtml(fragment))}`;
      add(split, lang, 'message', 1, 'hidden-text', message);
    }

    // Encoded instructions, and encoded text that is harmless.
    const encode = ENCODE[split];
    const encodeSources = [
      ...f.attacks.override[split],
      ...f.attacks['reveal-prompt'][split],
      ...f.attacks['from-now-on'][split],
    ];
    encodeSources.slice(0, 8).forEach((fragment, i) => {
      const text = encode[i % encode.length](fragment);
      if (i % 3 === 2) add(split, lang, 'document', 1, 'encoded', bury(nextDoc(), text).join('\n\n'));
      else add(split, lang, 'message', 1, 'encoded', text);
    });
    BENIGN_ENCODED[split].forEach((make, i) => {
      const source = pick([...plainQ, ...docs.flat()]);
      add(
        split,
        lang,
        i === 1 ? 'document' : 'message',
        0,
        'encoded',
        i === 1 ? bury(nextDoc(), make(source)).join('\n\n') : make(source),
      );
      add(split, lang, 'message', 0, 'encoded', make(pick(plainQ)));
    });

    // Letter-spaced, dotted, homoglyph and zero-width obfuscation.
    const obfuscate = OBFUSCATE[split];
    const obfuscateSources = [
      ...f.attacks.override[split],
      ...f.attacks['role-change'][split],
      ...f.attacks['reveal-prompt'][split],
    ];
    obfuscateSources.slice(0, 9).forEach((fragment, i) => {
      const text = obfuscate[i % obfuscate.length](fragment);
      if (i % 4 === 3) add(split, lang, 'document', 1, 'obfuscated', bury(nextDoc(), text).join('\n\n'));
      else add(split, lang, 'message', 1, 'obfuscated', text);
    });
    for (const text of f.benignObfuscated[split]) add(split, lang, 'message', 0, 'obfuscated', text);

    // Latin-letter Ukrainian and Russian.
    if (f.translitAttacks) {
      f.translitAttacks[split].forEach((fragment, i) => {
        add(split, lang, 'message', 1, 'transliterated', wrap(fragment));
        if (i % 2 === 0)
          add(split, lang, 'document', 1, 'transliterated', bury(nextDoc(), fragment).join('\n\n'));
      });
      for (const text of f.translitBenign[split]) {
        add(split, lang, 'message', 0, 'transliterated', text);
      }
    }
  }
}

for (const split of SPLITS) {
  const path = new URL(`./${split}.jsonl`, import.meta.url);
  writeFileSync(path, `${items[split].map((item) => JSON.stringify(item)).join('\n')}\n`);
  const positives = items[split].filter((i) => i.label === 1).length;
  console.log(
    `${split}: ${items[split].length} items, ${positives} injections, ${items[split].length - positives} clean`,
  );
}
