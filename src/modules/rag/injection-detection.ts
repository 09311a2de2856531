/**
 * Prompt-injection detection for user messages and retrieved passages.
 *
 * A pure rule set, English, Ukrainian and Russian, run on a normalised copy
 * of the text (NFKC, lower case, invisible characters removed, `ё` read as
 * `е`, whitespace collapsed) so that `IGNORE  previous\u200B instructions`
 * reads like the plain phrase. Rules, in order:
 *
 * | rule                  | catches |
 * |-----------------------|---------|
 * | hidden-characters     | Unicode tag characters (invisible ASCII), bidirectional overrides, or three or more zero-width characters (emoji joiners excepted) |
 * | override-instructions | ignore / disregard / forget / override previous (prior, above, earlier, all) instructions, rules, prompts, or "ignore your instructions"; ігноруй / забудь попередні (усі, свої) інструкції; игнорируй / забудь предыдущие (все, свои) инструкции; not after a negation ("do not ignore the rules above") |
 * | reveal-system-prompt  | reveal / show / print / repeat the system prompt, hidden or initial instructions; покажи системний промпт; покажи системный промпт |
 * | role-change           | you are now a(n) … assistant / bot / DAN, you are now unrestricted, from now on you are …, act as an unrestricted …, developer mode, do anything now; ти тепер (віднині ти) інший бот / без обмежень; ты теперь (отныне ты) другой ассистент / без ограничений; "тепер ти можеш…" (now you can) is not matched |
 * | new-instructions      | new instructions:, your new instructions are, follow these instructions instead; ось (твої) нові інструкції, нові інструкції:; вот (твои) новые инструкции, новые инструкции: (a bare "нові інструкції з охорони праці" is not matched) |
 * | pretend               | pretend to be / that you …; удавай / прикинься, що ти; притворись / сделай вид, что ты |
 * | chat-markup           | model chat markers in text (`<|im_start|>`, `[INST]`, `<<SYS>>`) or a line `system: you … / ignore …` |
 * | encoded-instructions  | a base64 (or base64url) blob of 16+ characters, or a hex blob, that decodes to text any rule above matches |
 *
 * Answers `{ detected, reason }`; the reason names the rule and quotes what
 * matched (at most 80 characters), for reviewers. False positives cost a
 * human review (HITL), false negatives a manipulated draft, so the phrases
 * are specific rather than single words.
 */

export interface InjectionVerdict {
  detected: boolean;
  /** Present when detected: the rule and the matched text. */
  reason?: string;
}

interface Rule {
  id: string;
  description: string;
  patterns: RegExp[];
}

/** Letter boundaries that work for Cyrillic (JavaScript's `\b` is ASCII-only). */
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
/** Not right after a negation: "do not ignore the rules above" is advice, not an attack. */
const NOT_NEGATED = "(?<!(?:not|don't|never|не|ні|нельзя|не можна)\\s+)";
/** Up to three words in between, for "ignore all of the previous instructions". */
const GAP = "(?:[\\p{L}\\p{N}'-]+\\s+){0,3}";
const rx = (source: string) => new RegExp(source, 'u');

const RULES: readonly Rule[] = [
  {
    id: 'override-instructions',
    description: 'asks to ignore earlier instructions',
    patterns: [
      rx(
        `${B}${NOT_NEGATED}(?:ignore|disregard|forget|override|bypass|abandon)${E}\\s+${GAP}(?:previous|prior|above|earlier|preceding|original|initial|system|all)\\s+(?:[\\p{L}'-]+\\s+){0,2}(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|constraints)${E}`,
      ),
      rx(
        `${B}${NOT_NEGATED}(?:ignore|disregard|forget|override)\\s+your\\s+(?:instructions|rules|guidelines|system\\s+prompt|programming)${E}`,
      ),
      rx(
        `${B}${NOT_NEGATED}(?:ігнор\\p{L}*|проігнор\\p{L}*|забу\\p{L}*|не\\s+зважа\\p{L}*\\s+на|відкин\\p{L}*|знехту\\p{L}*)\\s+${GAP}(?:попередн\\p{L}*|вищенаведен\\p{L}*|наведен\\p{L}*\\s+вище|свої|твої|системн\\p{L}*|усі|всі)\\s+(?:\\p{L}+\\s+){0,2}(?:інструкці\\p{L}*|вказівк\\p{L}*|вказівок|правил\\p{L}*|обмежен\\p{L}*|промпт\\p{L}*)`,
      ),
      rx(
        `${B}${NOT_NEGATED}(?:игнор\\p{L}*|проигнор\\p{L}*|забуд\\p{L}*|забыв\\p{L}*|не\\s+обращай\\p{L}*\\s+внимани\\p{L}*\\s+на|отбрось\\p{L}*|пренебреги\\p{L}*)\\s+${GAP}(?:предыдущ\\p{L}*|прежн\\p{L}*|вышеуказанн\\p{L}*|вышеприведенн\\p{L}*|свои|твои|системн\\p{L}*|все)\\s+(?:\\p{L}+\\s+){0,2}(?:инструкци\\p{L}*|указани\\p{L}*|правил\\p{L}*|ограничени\\p{L}*|промпт\\p{L}*)`,
      ),
    ],
  },
  {
    id: 'reveal-system-prompt',
    description: 'asks to reveal the system prompt',
    patterns: [
      rx(
        `${B}(?:reveal|show|print|display|repeat|output|dump|leak|tell\\s+me|give\\s+me|what\\s+(?:is|are|was|were))${E}\\s+${GAP}(?:system\\s+prompt|initial\\s+prompt|hidden\\s+(?:prompt|instructions?)|(?:original|initial|secret)\\s+instructions?|instructions\\s+you\\s+(?:were|have\\s+been)\\s+given)`,
      ),
      rx(
        `${B}(?:покаж\\p{L}*|розкри\\p{L}*|вивед\\p{L}*|повтор\\p{L}*|назв\\p{L}*|скажи|напиши|який|яка|які)\\s+${GAP}(?:системн\\p{L}*\\s+(?:промпт\\p{L}*|підказк\\p{L}*|інструкці\\p{L}*)|початков\\p{L}*\\s+(?:промпт\\p{L}*|інструкці\\p{L}*)|приховані\\s+інструкці\\p{L}*)`,
      ),
      rx(
        `${B}(?:покаж\\p{L}*|раскро\\p{L}*|раскрой|выведи|повтор\\p{L}*|назови|скажи|напиши|какой|какая|какие)\\s+${GAP}(?:системн\\p{L}*\\s+(?:промпт\\p{L}*|подсказк\\p{L}*|инструкци\\p{L}*)|начальн\\p{L}*\\s+(?:промпт\\p{L}*|инструкци\\p{L}*)|скрыт\\p{L}*\\s+инструкци\\p{L}*)`,
      ),
    ],
  },
  {
    id: 'role-change',
    description: 'tries to change the assistant’s role',
    patterns: [
      rx(
        `${B}you\\s+are\\s+now\\s+(?:(?:a|an|the|my)\\s+(?:[\\p{L}-]+\\s+)?(?:assistant|ai|bot|chatbot|model|character|persona|hacker|dan)|no\\s+longer|free\\s+(?:from|of)|dan|unrestricted|unfiltered|jailbroken|evil|in\\s+developer\\s+mode)${E}`,
      ),
      rx(`${B}from\\s+now\\s+on,?\\s+(?:you\\s+(?:are|will\\s+act|must\\s+act|act)|act\\s+as)${E}`),
      rx(`${B}act\\s+as\\s+(?:an?\\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|dan)${E}`),
      rx(`${B}(?:developer|god|jailbreak|dan)\\s+mode${E}`),
      rx(`${B}do\\s+anything\\s+now${E}`),
      rx(
        `${B}(?:ти\\s+тепер|тепер\\s+ти|віднині\\s+ти|відтепер\\s+ти)\\s+(?:[—-]\\s*|є\\s+)?(?:не\\s+)?(?:dan|вільн\\p{L}*|необмежен\\p{L}*|без\\s+обмежень|зл\\p{L}*|інш\\p{L}*|нов\\p{L}*|хакер\\p{L}*|(?:\\p{L}+\\s+)?(?:асистент\\p{L}*|бот\\p{L}*|модел\\p{L}*|ші|помічник\\p{L}*|персонаж\\p{L}*))${E}`,
      ),
      rx(
        `${B}(?:ты\\s+теперь|теперь\\s+ты|отныне\\s+ты|с\\s+этого\\s+момента\\s+ты)\\s+(?:[—-]\\s*)?(?:не\\s+)?(?:dan|свободн\\p{L}*|без\\s+ограничений|зл\\p{L}*|друг\\p{L}*|нов\\p{L}*|хакер\\p{L}*|(?:\\p{L}+\\s+)?(?:ассистент\\p{L}*|бот\\p{L}*|модел\\p{L}*|ии|помощник\\p{L}*|персонаж\\p{L}*))${E}`,
      ),
      rx(`${B}(?:режим\\p{L}*\\s+розробника|режим\\p{L}*\\s+разработчика)${E}`),
    ],
  },
  {
    id: 'new-instructions',
    description: 'gives new instructions',
    patterns: [
      rx(`${B}new\\s+(?:system\\s+)?instructions?\\s*[:—]`),
      rx(`${B}(?:your|the)\\s+new\\s+(?:instructions?|rules|task|role)\\s+(?:is|are)${E}`),
      rx(`${B}follow\\s+(?:these|my|the\\s+following)\\s+(?:new\\s+)?instructions\\s+instead${E}`),
      rx(
        `${B}(?:твої|ваші|ось|наступні)\\s+нов\\p{L}*\\s+(?:системн\\p{L}*\\s+)?(?:інструкці\\p{L}*|вказівк\\p{L}*)${E}`,
      ),
      rx(`${B}нов\\p{L}*\\s+(?:системн\\p{L}*\\s+)?(?:інструкці\\p{L}*|вказівк\\p{L}*)\\s*[:—]`),
      rx(
        `${B}(?:твои|ваши|вот|следующие)\\s+нов\\p{L}*\\s+(?:системн\\p{L}*\\s+)?(?:инструкци\\p{L}*|указани\\p{L}*)${E}`,
      ),
      rx(`${B}нов\\p{L}*\\s+(?:системн\\p{L}*\\s+)?(?:инструкци\\p{L}*|указани\\p{L}*)\\s*[:—]`),
    ],
  },
  {
    id: 'pretend',
    description: 'asks the assistant to pretend',
    patterns: [
      rx(
        `${B}${NOT_NEGATED}pretend\\s+(?:to\\s+be|you\\s+are|you're|that\\s+you|you\\s+have|there\\s+are\\s+no)${E}`,
      ),
      rx(
        `${B}${NOT_NEGATED}(?:удавай\\p{L}*|вдавай\\p{L}*|прикинь\\p{L}*|прикидай\\p{L}*)[\\s,]+(?:що|ніби|наче|мов)${E}`,
      ),
      rx(
        `${B}${NOT_NEGATED}(?:притворись|притворитесь|притворяйся|сделай\\s+вид)[\\s,]+(?:что|будто|словно)${E}`,
      ),
    ],
  },
  {
    id: 'chat-markup',
    description: 'contains chat-model control markup',
    patterns: [
      /<\|(?:im_start|im_end|system|endoftext)\|>/u,
      /\[\/?inst\]/u,
      /<<\/?sys>>/u,
      /(?:^|\n)\s*#{0,3}\s*system(?:\s+prompt)?\s*:\s*(?:you\s|ignore|forget|new\s|from\s+now)/u,
    ],
  },
];

/** Zero-width and direction characters that a reader does not see. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E]/gu;
const BIDI_OVERRIDE = /[\u202A-\u202E\u2066-\u2069]/u;
const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]/u;
/** A zero-width joiner between pictographs builds an emoji; that is not hiding anything. */
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;

const BASE64_BLOB = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const HEX_BLOB = /(?:[0-9a-fA-F]{2}){12,}/g;
const MAX_SCAN_CHARS = 100_000;
const MAX_BLOBS = 20;

/** Normalises text for matching (see the module comment). */
export function normaliseForDetection(text: string): string {
  return text
    .normalize('NFKC')
    .replace(ZERO_WIDTH, '')
    .replace(/[\u00AD\u202A-\u202E\u2066-\u2069]/gu, '')
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[’ʼ`]/g, "'")
    .replace(/[ \t\f\v\u00A0\u2000-\u200A\u3000]+/gu, ' ');
}

/** Checks one text (a user message or a retrieved passage) against the rule set. */
export function detectInjection(text: string): InjectionVerdict {
  const input = text.length > MAX_SCAN_CHARS ? text.slice(0, MAX_SCAN_CHARS) : text;
  const hidden = hiddenCharacters(input);
  if (hidden) return { detected: true, reason: `hidden-characters: ${hidden}` };
  const plain = matchRules(normaliseForDetection(input));
  if (plain) return plain;
  const encoded = matchEncoded(input);
  if (encoded) return encoded;
  return { detected: false };
}

function hiddenCharacters(text: string): string | null {
  if (TAG_CHARACTERS.test(text)) return 'invisible Unicode tag characters';
  if (BIDI_OVERRIDE.test(text)) return 'bidirectional override characters';
  const zeroWidth = text.replace(EMOJI_JOINER, '').match(ZERO_WIDTH)?.length ?? 0;
  if (zeroWidth >= 3) return `${zeroWidth} zero-width characters`;
  return null;
}

function matchRules(normalised: string): InjectionVerdict | null {
  for (const rule of RULES) {
    for (const pattern of rule.patterns) {
      const match = pattern.exec(normalised);
      if (match) return { detected: true, reason: `${rule.id}: ${rule.description} ("${quote(match[0])}")` };
    }
  }
  return null;
}

function matchEncoded(text: string): InjectionVerdict | null {
  const blobs = [
    ...[...text.matchAll(BASE64_BLOB)].map((m) => ({ kind: 'base64', value: m[0] })),
    ...[...text.matchAll(HEX_BLOB)].map((m) => ({ kind: 'hex', value: m[0] })),
  ].slice(0, MAX_BLOBS);
  for (const blob of blobs) {
    const decoded = decode(blob.kind, blob.value);
    if (!decoded) continue;
    const verdict = matchRules(normaliseForDetection(decoded));
    if (verdict) {
      return { detected: true, reason: `encoded-instructions: ${blob.kind} text that ${verdict.reason}` };
    }
  }
  return null;
}

/** Decoded text when the blob decodes to readable UTF-8, else null. */
function decode(kind: string, value: string): string | null {
  const bytes =
    kind === 'hex'
      ? Buffer.from(value, 'hex')
      : Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length < 8) return null;
  const text = bytes.toString('utf8');
  // Random binary decodes to replacement and control characters; readable text mostly does not.
  const unreadable = text.match(/\uFFFD|(?![\t\n\r])\p{Cc}/gu)?.length ?? 0;
  return unreadable / text.length < 0.1 ? text : null;
}

function quote(match: string): string {
  const trimmed = match.trim();
  return trimmed.length <= 80 ? trimmed : `${trimmed.slice(0, 79)}…`;
}
