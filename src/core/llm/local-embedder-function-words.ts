/**
 * Function words of English, Ukrainian and Russian (pronouns, prepositions,
 * conjunctions, auxiliaries, question words): words that say how a sentence
 * is built, not what it is about. The local embedder weighs them down so two
 * messages are not close merely because both start with "how do I" or
 * "як мені". Lower case, `ё` written `е`, apostrophes removed (as
 * `lexicalWords` reads words).
 */
const FUNCTION_WORDS = new Set(
  [
    // English
    'a an the and or but if of to in on at by for from with about into over after before as',
    'i me my mine we us our you your he him his she her it its they them their this that these those',
    'is am are was were be been being do does did done have has had can could will would shall should may might must',
    'what which who whom whose when where why how there here not no yes so than then too very just also',
    'please pls hi hello hey thanks thank any some get got need want',
    // Ukrainian
    'і й та а але або чи що як де коли чому хто який яка яке які цей ця це ці той та те ті',
    'я мене мені мій моя моє мої ми нас нам наш наша ти тебе тобі твій ви вас вам ваш ваша він його йому вона її їй воно вони їх їм',
    'в у на з із зі до від для по про за під над при через без після перед біля між',
    'є був була було були буде бути не ні так треба потрібно можна можу може хочу мати маю',
    'будь ласка привіт дякую також ще вже тут там',
    // Russian
    'и а но или ли что как где когда почему кто какой какая какое какие этот эта это эти тот та то те',
    'я меня мне мой моя мое мои мы нас нам наш наша ты тебя тебе твой вы вас вам ваш ваша он его ему она ее ей оно они их им',
    'в во на с со к ко от для по про за под над при через без после перед около между у из о об',
    'есть был была было были будет быть не нет да надо нужно можно могу может хочу иметь',
    'пожалуйста привет спасибо тоже еще уже тут там',
  ]
    .join(' ')
    .split(' '),
);

/** Whether `word` (normalised, lower case) is a function word of en, uk or ru. */
export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word);
}
