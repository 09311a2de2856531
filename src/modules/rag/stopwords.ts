/**
 * Function words of English, Ukrainian and Russian that appear in nearly
 * every passage. PostgreSQL's `simple` configuration keeps them, so a
 * question like "what is the leave policy" would match almost every chunk
 * through "what", "is" and "the": the keyword leg would rank the whole table
 * and term coverage would reward grammar instead of content. The query side
 * drops them (the stored tsvectors keep them, so phrases still index).
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  [
    // English
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its',
    'me my no not of on or our so that the their them then there these they this those to was we were what',
    'when where which who whom why will with would you your yours he she his her him us am any all some',
    // Ukrainian
    'а але б би бо в від до є же з за і із й к ли мене мені ми мій моя моє мої на над не ні но о об от по під',
    'при про та так також те то тут у хто це цей ця ці чи що як який яка яке які ти ви він вона воно вони',
    'його її їх їм нам вам був була було були буде бути можна треба мати маю має де коли чому скільки',
    // Russian
    'без бы был была было были быть вас вам во вот все всё вы где да для до его ее её если есть еще ещё же за',
    'и из или им их к как какая какие какой когда кто ли либо меня мне мой моя мы на над не нет ни но ну о об',
    'он она они оно от по под при про с со так также там то тоже ты у уже чем что чтобы эта эти это этот я',
    'сколько почему можно нужно надо',
  ]
    .join(' ')
    .split(' '),
);
