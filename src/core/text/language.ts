/** The three languages the service answers in. */
export type Language = 'en' | 'ru' | 'uk';

/**
 * Words that only Ukrainian writes this way (function words, pronouns and
 * common verbs), whether or not a letter like і gives the language away:
 * people often type Ukrainian on a Russian keyboard layout or without
 * і/ї/є/ґ ("коли виплачують зарплату"), and a text of such words is still
 * Ukrainian.
 */
const UKRAINIAN_WORDS: ReadonlySet<string> = new Set(
  (
    'що як коли чи де мене мені мій моя моє мої які який яка яке буде будуть можна треба потрібно ' +
    'скільки чому хто куди звідки тобто також але або якщо щоб після перед через між біля ' +
    'та ще вже тут там зараз тепер завжди ніколи було були була дуже цей ця це ці цього цієї ' +
    'наш наша наше наші ваш ваша ваше ваші його її їх він вона воно вони ми ви ти ' +
    'мати маю має мають отримати отримую отримує зробити робити роботи працювати працівник ' +
    'працівники працівників співробітник днів дні тиждень місяць рік року році ' +
    'потрібен потрібна оформити подати заяву заява відпустка відпустки лікарняний ' +
    'зарплата зарплату зарплати виплачують виплата виплати компанія компанії офіс офісі'
  ).split(' '),
);

/** The same for Russian. */
const RUSSIAN_WORDS: ReadonlySet<string> = new Set(
  (
    'что как когда ли где меня мне мой моя мое моё мои какие какой какая какое будет будут можно нужно ' +
    'надо сколько почему кто куда откуда тоже но или если чтобы после перед через между около ' +
    'и еще ещё уже здесь там сейчас теперь всегда никогда было были была очень этот эта это эти этого этой ' +
    'наш наша наше наши ваш ваша ваше ваши его ее её их он она оно они мы вы ты ' +
    'иметь имею имеет имеют получить получаю получает сделать делать работы работать работник ' +
    'работники работников сотрудник сотрудники сотрудников дней дни неделя месяц год года году ' +
    'нужен нужна оформить подать заявление отпуск отпуска больничный ' +
    'зарплата зарплату зарплаты выплачивают выплата выплаты компания компании офис офисе'
  ).split(' '),
);

/** Word endings frequent in one language and rare in the other (scored once per word). */
const UKRAINIAN_ENDINGS = /(?:ння|ться|ати|ити|ують|юють|ає|ою|ий|ої|ого|ому|ах|ям)$/u;
const RUSSIAN_ENDINGS = /(?:ние|ться|ать|ить|уют|ают|ает|ой|ый|ого|ому|ях|ие)$/u;

/**
 * The language of a text: English unless it has Cyrillic letters; Cyrillic
 * is Ukrainian or Russian by word-level evidence. Letters only one language
 * writes (і ї є ґ; ы э ъ ё) weigh most, then whole words only one language
 * writes that way (що / что, коли / когда, мені / мне…), then word endings
 * as a tie-break. Without any evidence Cyrillic reads as Russian, as before.
 */
export function guessLanguage(text: string): Language {
  if (!/\p{Script=Cyrillic}/u.test(text)) return 'en';
  const words = text.toLowerCase().match(/[\p{L}'’ʼ-]+/gu) ?? [];
  let uk = 0;
  let ru = 0;
  let ukEndings = 0;
  let ruEndings = 0;
  for (const raw of words) {
    if (!/\p{Script=Cyrillic}/u.test(raw)) continue;
    const word = raw.replace(/['’ʼ]/gu, '');
    if (/[іїєґ]/u.test(word) || /[’'ʼ]/u.test(raw)) uk += 3;
    if (/[ыэъё]/u.test(word)) ru += 3;
    if (UKRAINIAN_WORDS.has(word)) uk += 2;
    if (RUSSIAN_WORDS.has(word)) ru += 2;
    const ukEnds = UKRAINIAN_ENDINGS.test(word);
    const ruEnds = RUSSIAN_ENDINGS.test(word);
    if (ukEnds && !ruEnds) ukEndings++;
    if (ruEnds && !ukEnds) ruEndings++;
  }
  if (uk !== ru) return uk > ru ? 'uk' : 'ru';
  return ukEndings > ruEndings ? 'uk' : 'ru';
}
