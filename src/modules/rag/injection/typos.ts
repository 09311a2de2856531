/**
 * Typo-tolerant view for the rules: a word one slip away from a key word of
 * the rules (a letter swapped with its neighbour, dropped or added:
 * `ignroe`, `instructons`, `инструцкии`, `тпер`) is read as that
 * key word. Only words that are not themselves key words are changed, only
 * when exactly one key word is that close, never at the first letter, and
 * in Cyrillic words never at the last (there it is another inflection). A
 * symmetric-deletion index keeps the cost to a few map lookups per word.
 * Pure; see docs/injection.md.
 */

import { memoiseByText } from '../../../core/memo.js';

/** Key words of the rules, in the forms the rules expect (lower case, `ё` as `е`). */
const KEY_WORDS = `
ignore ignoring disregard forget forgetting previous prior earlier instructions instruction directions
directives guidelines restrictions programming override system prompt prompts message reveal repeat
print display output assistant unrestricted unfiltered uncensored developer everything original initial
hidden secret answer answers respond response reply replies above rules filters policy commands
disable bypass pretend imagine character jailbreak become behave henceforth onwards forward follow
following configuration verbatim conversation history transcript password passwords credentials
administrator security instead updated revised attention language
игнорируй проигнорируй игнорировать игнорируя инструкции инструкций инструкциям инструкция инструкцию
предыдущие предыдущих предыдущим указания указаний указаниям правила правил системный системного
системное системные сообщение сообщения промпт промпта ассистент ассистента ограничений ограничения
теперь отныне момента покажи выведи забудь раскрой разработчика разработчиков скрытые скрытый
начальные исходные отвечай ответа ответы фильтров фильтры персонажа притворись представь режиме
администратора безопасности задание задача указание установки настройки конфигурацию дословно
притворись сделай
переписку историю пароль пароли больше теперь
ігноруй проігноруй ігнорувати інструкції інструкцій інструкціям інструкцію попередні попередніх
вказівки вказівок вказівкам правила правил системний системного системне системні повідомлення
промпт промпту асистент асистента асистенте обмежень обмеження тепер віднині відтепер моменту
покажи виведи забудь розкрий розробника розробників приховані прихований початкові відповідай
відповіді відповідь фільтрів фільтри персонажа удавай уяви режимі адміністратора безпеки завдання
налаштування конфігурацію дослівно переписку історію паролі більше
`
  .trim()
  .split(/\s+/u);

/** Common short slips that the deletion index, limited to longer words, does not cover. */
const SHORT: Record<string, string> = {
  yuo: 'you',
  yoy: 'you',
  u: 'you',
  ur: 'your',
  yuor: 'your',
  teh: 'the',
};

const MIN_KEY = 5;
const MIN_WORD = 4;
const MAX_WORD = 20;

const keys = new Set(KEY_WORDS);
/** Each key word and each of its one-letter deletions → the key words it came from. */
const index = new Map<string, Set<string>>();
for (const key of keys) {
  if (key.length < MIN_KEY) continue;
  for (const variant of [key, ...deletions(key)]) {
    const set = index.get(variant) ?? new Set<string>();
    set.add(key);
    index.set(variant, set);
  }
}

function deletions(word: string): string[] {
  const out: string[] = [];
  // The first letter stays: slips rarely touch it, and keeping it avoids most false readings.
  for (let i = 1; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/** The key word `word` is one slip away from, or undefined. */
function correct(word: string): string | undefined {
  const short = SHORT[word];
  if (short) return short;
  if (word.length < MIN_WORD || word.length > MAX_WORD || keys.has(word)) return undefined;
  // Latin-letter Russian and Ukrainian often drop a final soft sign ("pritvoris", "zabud").
  if (keys.has(`${word}ь`)) return `${word}ь`;
  // In Ukrainian and Russian a different last letter is usually another inflection ("отвечаю", "установок"), not a slip.
  const latin = /^[a-z']+$/u.test(word);
  const found = new Set<string>();
  for (const variant of [word, ...deletions(word)]) {
    const hit = index.get(variant);
    if (!hit) continue;
    for (const key of hit) {
      if (key[0] === word[0] && (latin || key.at(-1) === word.at(-1)) && isSlip(word, key)) found.add(key);
    }
  }
  if (found.size !== 1) return undefined;
  const [key] = found;
  return key;
}

/**
 * A letter dropped, added, or swapped with its neighbour. A letter replaced
 * by another is left alone: that is how one real word turns into another
 * ("отчета" and "ответа", "roles" and "rules").
 */
function isSlip(word: string, key: string): boolean {
  if (word.length === key.length) {
    let i = 0;
    while (i < word.length && word[i] === key[i]) i++;
    return (
      i < word.length - 1 &&
      word[i] === key[i + 1] &&
      word[i + 1] === key[i] &&
      word.slice(i + 2) === key.slice(i + 2)
    );
  }
  const [short, long] = word.length < key.length ? [word, key] : [key, word];
  if (long.length - short.length !== 1) return false;
  let i = 0;
  while (i < short.length && short[i] === long[i]) i++;
  return short.slice(i) === long.slice(i + 1);
}

/** `correct`, remembered for the words seen lately: words repeat across texts, and each costs a dozen lookups. */
const correctCached = memoiseByText((word) => correct(word) ?? word, 50_000);

/**
 * The folded text with near-miss key words corrected; the same string when
 * nothing changed, so callers can skip a second scan.
 */
export function correctTypos(folded: string): string {
  return folded.replace(/[\p{L}']+/gu, correctCached);
}
