// Builds eval/injection/unseen-dev.jsonl and unseen-test.jsonl from the
// hand-written texts in unseen/{en,uk,ru}.mjs (written 2026-11-28,
// independently of fragments/). Run: node eval/injection/build-unseen.mjs
//
// Within every language × kind × family cell the items alternate between the
// development half (even positions) and the test half (odd positions).
// Document snippets are buried in a carrier policy text unless they start with
// `@whole` (then they are the whole upload: Markdown or plain text with markup).
// `enc:<how>:<payload>|<template>` entries are encoded here; `b64:` and `hex:`
// entries in the hard negatives encode harmless text the same way.
import { writeFileSync } from 'node:fs';
import * as en from './unseen/en.mjs';
import * as ru from './unseen/ru.mjs';
import * as uk from './unseen/uk.mjs';

const languages = { en, uk, ru };

const rot13 = (text) =>
  text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
const LEET = {
  a: '4',
  e: '3',
  i: '1',
  o: '0',
  s: '5',
  t: '7',
  о: '0',
  а: '4',
  е: '3',
  з: '3',
  ч: '4',
  і: '1',
  б: '6',
};
const TO_CYRILLIC = { a: 'а', e: 'е', o: 'о', p: 'р', c: 'с', i: 'і', x: 'х' };
const TO_LATIN = { а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', і: 'i', х: 'x' };
const percentAll = (text) =>
  [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

const encoders = {
  base64: (t) => Buffer.from(t, 'utf8').toString('base64'),
  hex: (t) => Buffer.from(t, 'utf8').toString('hex'),
  url: percentAll,
  rot13,
  leet: (t) => [...t].map((c) => LEET[c] ?? c).join(''),
  // Every other look-alike letter swapped into the other script.
  homoglyph: (t) => {
    let n = 0;
    return [...t]
      .map((c) => {
        const swap = TO_CYRILLIC[c] ?? TO_LATIN[c];
        return swap && n++ % 2 === 0 ? swap : c;
      })
      .join('');
  },
  zerowidth: (t) => t.replace(/(\p{L})(?=\p{L})/gu, '$1\u200B'),
};

function expand(text) {
  const encoded = /^enc:(\w+):([^|]*)\|([\s\S]*)$/.exec(text);
  if (encoded) return encoded[3].replace('{}', encoders[encoded[1]](encoded[2]));
  const harmless = /^(b64|hex):([^|]*)\|([\s\S]*)$/.exec(text);
  if (harmless)
    return harmless[3].replace('{}', encoders[harmless[1] === 'b64' ? 'base64' : 'hex'](harmless[2]));
  return text;
}

function asDocument(snippet, carriers, index) {
  if (snippet.startsWith('@whole\n')) return snippet.slice('@whole\n'.length);
  const carrier = carriers[index % carriers.length];
  const paragraphs = carrier.split('\n\n');
  // Half at the end of the page, half buried after its second paragraph.
  const at = index % 2 === 0 ? paragraphs.length : 2;
  paragraphs.splice(at, 0, snippet);
  return paragraphs.join('\n\n');
}

const dev = [];
const test = [];
for (const [lang, source] of Object.entries(languages)) {
  for (const [label, groups] of [
    [1, source.positives],
    [0, source.negatives],
  ]) {
    for (const [family, kinds] of Object.entries(groups)) {
      for (const kind of ['message', 'document']) {
        kinds[kind].forEach((raw, index) => {
          const expanded = expand(raw);
          const text = kind === 'document' ? asDocument(expanded, source.carriers, index) : expanded;
          const item = {
            id: `unseen-${lang}-${kind}-${family}-${index + 1}`,
            lang,
            kind,
            label,
            family,
            text,
          };
          (index % 2 === 0 ? dev : test).push(item);
        });
      }
    }
  }
}

const write = (name, items) =>
  writeFileSync(
    new URL(`./${name}.jsonl`, import.meta.url),
    `${items.map((item) => JSON.stringify(item)).join('\n')}\n`,
  );
write('unseen-dev', dev);
write('unseen-test', test);
console.log(`unseen-dev: ${dev.length} items, unseen-test: ${test.length} items`);
