/**
 * The rule layer: named families of injection phrasings in English,
 * Ukrainian and Russian, matched on folded text (see normalise.ts: lower
 * case, look-alike letters folded, letter spacing collapsed, quotes as `"`).
 * Each pattern carries a weight, how sure a match alone makes us. Phrases
 * are specific (an action aimed at the assistant plus what it acts on),
 * because the same words appear in ordinary company text: "ignore the
 * warning", "enable developer mode on Android", "new instructions for the
 * fire drill". Pure functions; see docs/injection.md.
 */

import type { RuleFamily } from './rule-families.js';
import { leadingLiterals, wordStartPrefixes } from './rule-prefilter.js';
import { B, E, gap, NOT_NEGATED, NOT_STATED, s } from './rule-syntax.js';
import { GENERAL_PATTERNS } from './rules-general.js';
import { MORE_PATTERNS } from './rules-more.js';

export type { RuleFamily } from './rule-families.js';

export interface RuleHit {
  family: RuleFamily;
  weight: number;
  /** Offsets of the match in the scanned text. */
  start: number;
  end: number;
}

interface Pattern {
  family: RuleFamily;
  weight: number;
  regex: RegExp;
  /** The letters a text needs for the pattern to match at all; checked first, because most texts use one script. */
  needs: 'latin' | 'cyrillic' | 'any';
  /** Words or stems one of which starts every match (rule-prefilter.ts); undefined: always run. */
  starts?: string[];
}

/** The phrase families; `addressed-instruction` is structural only (structure.ts). */
const families: Record<Exclude<RuleFamily, 'addressed-instruction'>, Array<[number, string]>> = {
  'override-instructions': [
    [
      0.95,
      String.raw`${B}${NOT_NEGATED}${NOT_STATED}(?:ignore|disregard|forget|override|bypass|abandon|skip|set\s+aside|throw\s+away|discard|drop|pay\s+no\s+attention\s+to|stop\s+following|cancel|erase|wipe)\s+${gap(3)}(?:previous|prior|above|earlier|preceding|original|initial|system|all|any|your|whatever|every|old|existing|default)\s+${gap(2)}(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|constraints|restrictions|programming|orders|commands|limitations|polic(?:y|ies)|safeguards|settings)${E}`,
    ],
    [
      0.9,
      String.raw`${B}${NOT_NEGATED}(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:(?:that\s+)?you(?:'ve|\s+have|\s+were|\s+had)?\s+(?:been\s+)?(?:told|given|instructed|taught|said)|(?:written\s+|said\s+)?(?:above|before|earlier|so\s+far))${E}`,
    ],
    [
      0.9,
      String.raw`${B}${NOT_NEGATED}(?:ignore|disregard|forget)\s+the\s+(?:\p{L}+\s+)?(?:instructions|rules|guidelines|directions)\s+(?:above|before|you\s+(?:were|have\s+been)\s+given)${E}`,
    ],
    [
      0.9,
      String.raw`${B}(?:previous|prior|earlier|above|old|original|all|your)\s+(?:\p{L}+\s+)?(?:instructions|rules|guidelines|directives|restrictions)\s+(?:no\s+longer\s+apply|(?:are|is)\s+(?:now\s+)?(?:void|cancell?ed|invalid|revoked|lifted|suspended|obsolete)|do\s+not\s+apply|don't\s+apply)`,
    ],
    [
      0.95,
      String.raw`${B}${NOT_NEGATED}(?:ігнор\p{L}*|проігнор\p{L}*|забу\p{L}*|не\s+зважа\p{L}*\s+на|відкин\p{L}*|відкида\p{L}*|знехту\p{L}*|нехту\p{L}*|пропуст\p{L}*|облиш\p{L}*|скасу\p{L}*|скинь|викинь|відміни)\s+${gap(3)}(?:попередн\p{L}*|вищенаведен\p{L}*|наведен\p{L}*\s+вище|св(?:о\p{L}*|ій|ім)|тв(?:о\p{L}*|ій|ім)|системн\p{L}*|усі|всі|усе|все|початков\p{L}*|отриман\p{L}*|раніше|старі|будь-які|ці|задан\p{L}*)\s+${gap(2)}(?:${s('інструкці')}|${s('вказів')}|${s('правил')}|${s('обмежен')}|${s('промпт')}|${s('настанов')}|${s('директив')})`,
    ],
    [
      0.95,
      String.raw`${B}${NOT_NEGATED}(?:игнор\p{L}*|проигнор\p{L}*|забуд\p{L}*|забыв\p{L}*|не\s+обращай\p{L}*\s+внимани\p{L}*\s+на|отбрось\p{L}*|отбрасыва\p{L}*|пренебре\p{L}*|пропуст\p{L}*|сбрось\p{L}*|отмени\p{L}*|выбрось)\s+${gap(3)}(?:предыдущ\p{L}*|прежн\p{L}*|вышеуказанн\p{L}*|вышеприведенн\p{L}*|приведенн\p{L}*\s+выше|св(?:о\p{L}*|ій|ім)|тв(?:о\p{L}*|ій|ім)|системн\p{L}*|все|всех|исходн\p{L}*|начальн\p{L}*|полученн\p{L}*|ранее|старые|любые|эти|заданн\p{L}*)\s+${gap(2)}(?:${s('инструкци')}|${s('указани')}|${s('правил')}|${s('ограничени')}|${s('промпт')}|${s('установк')}|${s('директив')})`,
    ],
    [
      0.9,
      String.raw`${B}${NOT_NEGATED}(?:забудь|забудьте|ігноруй|игнорируй|відкинь|отбрось)\s+(?:усе|все|всё)[,\s]+(?:що|что|чему)\s+(?:тобі|тебе|вам|тебя|тобою)\s+(?:\p{L}+\s+)?(?:${s('каза')}|${s('говори')}|${s('сказа')}|${s('писа')}|${s('вел')}|${s('навча')}|${s('учи')}|${s('дава')}|${s('дали')})`,
    ],
    [
      0.9,
      String.raw`${B}(?:попередн\p{L}*|старі|усі|всі|прежн\p{L}*|предыдущ\p{L}*|старые|все)\s+(?:${s('інструкці')}|${s('правил')}|${s('вказів')}|${s('инструкци')}|${s('указани')})\s+(?:більше\s+не\s+${s('ді')}|скасован\p{L}*|недійсн\p{L}*|больше\s+не\s+${s('действ')}|отменен\p{L}*|недействительн\p{L}*)`,
    ],
  ],
  'reveal-prompt': [
    [
      0.85,
      String.raw`${B}(?:text|instructions|prompt|message|rules)\s+(?:were\s+you|you\s+were|have\s+you\s+been|did\s+they)\s+(?:configured|set\s+up|initiali[sz]ed|programmed|primed|given|started)\s+with${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:тебе|тебя)\s+(?:${s('налаштува')}|${s('настро')}|${s('запрограм')}|${s('ініціалізува')}|${s('инициализирова')})|${B}(?:${s('процит')}|${s('покаж')}|${s('вивед')}|выведи|${s('повтор')})\s+(?:\p{L}+\s+){0,2}${s('повідомлен')}\s+розробника|${B}(?:${s('процитир')}|${s('покаж')}|выведи|${s('повтор')})\s+(?:\p{L}+\s+){0,2}${s('сообщени')}\s+разработчика`,
    ],
    [
      0.9,
      String.raw`${B}(?:reveal|show|print|display|repeat|output|dump|leak|tell\s+me|give\s+me|copy(?:\s+out)?|write\s+out|paste|share|recite|quote(?:\s+back)?|echo|spell\s+out|what\s+(?:is|are|was|were))${E}\s+${gap(4)}(?:system\s+(?:prompt|message)|developer\s+message|initial\s+prompt|(?:hidden|original|initial|secret|exact|first|full|internal|setup)\s+(?:\p{L}+\s+)?(?:instructions?|prompt|rules|preamble|configuration|config|directives|guidelines|system\s+message)|instructions\s+(?:that\s+)?you\s+(?:were|have\s+been|got)\s+given|(?:rules|instructions)\s+(?:that\s+)?your\s+(?:developers|creators|admins?|owners?)\s+(?:wrote|gave|set)|configuration\s+message|preamble|everything\s+(?:written\s+)?above\s+this\s+line|(?:the\s+)?text\s+above\s+this)`,
    ],
    [
      0.9,
      String.raw`${B}(?:${s('покаж')}|${s('розкри')}|${s('вивед')}|${s('повтор')}|назви|скажи|напиши|${s('перепиш')}|${s('скопію')}|наведи|розкажи|${s('процитуй')}|який|яка|які)\s+${gap(4)}(?:системн\p{L}*\s+(?:${s('промпт')}|${s('підказ')}|${s('інструкці')}|${s('повідомлен')})|початков\p{L}*\s+(?:${s('промпт')}|${s('інструкці')}|${s('вказів')})|прихован\p{L}*\s+(?:текст\p{L}*|${s('інструкці')}|${s('правил')}|${s('преамбул')}|${s('вказів')}|${s('конфігурац')})|секретн\p{L}*\s+(?:${s('вказів')}|${s('інструкці')}|${s('правил')})|службов\p{L}*\s+${s('повідомлен')}|правила,?\s+(?:які|що)\s+(?:тобі\s+)?розробники|${s('інструкці')}\s+тобі\s+дали|усе,?\s+що\s+написано\s+вище|все,?\s+що\s+написано\s+вище)`,
    ],
    [
      0.9,
      String.raw`${B}(?:${s('покаж')}|${s('раскро')}|${s('раскрой')}|выведи|${s('повтор')}|назови|скажи|напиши|${s('перепиш')}|${s('скопиру')}|приведи|расскажи|${s('процитир')}|какой|какая|какие)\s+${gap(4)}(?:системн\p{L}*\s+(?:${s('промпт')}|${s('подсказ')}|${s('инструкци')}|${s('сообщени')})|начальн\p{L}*\s+(?:${s('промпт')}|${s('инструкци')}|${s('указани')})|скрыт\p{L}*\s+(?:текст\p{L}*|${s('инструкци')}|${s('правил')}|${s('преамбул')}|${s('указани')}|${s('конфигурац')})|секретн\p{L}*\s+(?:${s('указани')}|${s('инструкци')}|${s('правил')})|служебн\p{L}*\s+${s('сообщени')}|правила,?\s+(?:которые|что)\s+(?:тебе\s+)?разработчики|${s('инструкци')}\s+тебе\s+дали|все,?\s+что\s+написано\s+выше)`,
    ],
  ],
  'role-change': [
    [
      0.85,
      String.raw`${B}you\s+will\s+(?:now\s+)?be\s+(?:[\p{L}\p{N}-]+\s*,?\s+)?(?:an?\s+)?(?:\p{L}+\s+)?(?:assistant|ai|bot|chatbot|model)\s+(?:that|which|who|without|with\s+no)${E}`,
    ],
    [
      0.8,
      String.raw`${B}(?:drop|abandon|leave|forget|shed)\s+(?:the|your)\s+(?:\p{L}+\s+)?(?:persona|character|role)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:i\s+am|i'm|we\s+are|we're)\s+(?:now\s+)?(?:reprogramming|reconfiguring|jailbreaking|unlocking|freeing)\s+you${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:you\s+are|you're)\s+(?:now\s+|no\s+longer\s+)(?:(?:a|an|the|my)\s+)?(?:[\p{L}-]+\s+){0,2}(?:assistant|ai|bot|chatbot|model|character|persona|hacker|dan|llm)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:you\s+are|you're)\s+(?:now\s+)?(?:(?:a|an)\s+)?(?:unrestricted|unfiltered|uncensored|unlimited|jailbroken|evil|rogue|free\s+(?:from|of)\s+(?:all\s+|any\s+)?(?:rules|restrictions|limits)|in\s+(?:developer|god|dan|jailbreak)\s+mode)${E}`,
    ],
    [0.8, String.raw`${B}your\s+new\s+(?:role|persona|identity|name)\s+(?:is|will\s+be)${E}`],
    [
      0.85,
      String.raw`${B}(?:act|behave|respond)\s+(?:as|like)\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|dan)${E}`,
    ],
    [
      0.85,
      String.raw`${B}stop\s+being\s+(?:the\s+|a\s+|an\s+)?(?:\p{L}+\s+){0,2}(?:assistant|bot|chatbot|ai|model)${E}`,
    ],
    [0.8, String.raw`${B}(?:switch|change|swap)\s+(?:your\s+)?(?:persona|personality|identity)${E}`],
    [
      0.85,
      String.raw`${B}consider\s+yourself\s+(?:an?\s+)?(?:\p{L}+\s+)?(?:ai|model|assistant|bot)\s+(?:that|which|who)\s+(?:was\s+never|has\s+no|is\s+not|never|doesn't|does\s+not)`,
    ],
    [
      0.85,
      String.raw`${B}you\s+have\s+been\s+(?:reassigned|reprogrammed|repurposed|freed|jailbroken|unlocked)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:developer|god|dan|jailbreak)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:on|enabled|activated)[,.:;!]?\s+(?:\p{L}+\s+){0,4}(?:no|without|ignore|unrestricted|unfiltered)${E}`,
    ],
    [0.85, String.raw`${B}do\s+anything\s+now${E}`],
    [
      0.85,
      String.raw`${B}(?:ти\s+тепер|тепер\s+ти|віднині\s+ти|відтепер\s+ти|з\s+цього\s+моменту\s+ти)\s+(?:[—-]\s*|є\s+)?(?:не\s+)?(?:dan|${s('вільн')}|${s('необмежен')}|без\s+(?:жодних\s+)?(?:обмежень|цензури|правил)|${s('зл')}|${s('інш')}|${s('нов')}|${s('хакер')}|(?:\p{L}+\s+)?(?:${s('асистент')}|${s('бот')}|${s('модел')}|ші|${s('помічник')}|${s('персонаж')}))${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:ты\s+теперь|теперь\s+ты|отныне\s+ты|с\s+этого\s+момента\s+ты|с\s+этой\s+минуты\s+ты)\s+(?:[—-]\s*)?(?:не\s+)?(?:dan|${s('свободн')}|${s('неограничен')}|без\s+(?:всяких\s+|каких-либо\s+)?(?:ограничений|цензуры|правил)|${s('зл')}|${s('друг')}|${s('нов')}|${s('хакер')}|(?:\p{L}+\s+)?(?:${s('ассистент')}|${s('бот')}|${s('модел')}|ии|${s('помощник')}|${s('персонаж')}))${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:ти|ты)\s+(?:більше|больше)\s+не\s+(?:\p{L}+\s+)?(?:${s('бот')}|${s('асистент')}|${s('ассистент')}|${s('помічник')}|${s('помощник')}|${s('модел')})${E}`,
    ],
    [0.8, String.raw`${B}(?:твоя|ваша)\s+нова\p{L}*\s+(?:роль|особистість|личность|персона)${E}`],
    [
      0.85,
      String.raw`${B}(?:поводься|поводьтеся|веди\s+себя|ведите\s+себя|дій|действуй)\s+(?:як|как)\s+(?:\p{L}+\s+)?(?:${s('нефільтрован')}|${s('необмежен')}|${s('нефильтрован')}|${s('неограничен')}|${s('зл')}|${s('зламан')}|${s('взломан')}|без\s+цензур\p{L}*)`,
    ],
    [
      0.85,
      String.raw`${B}(?:перестань|перестаньте|припини)\s+бути\s+(?:\p{L}+\s+){0,2}(?:${s('асистент')}|${s('бот')}|${s('помічник')}|ші)|${B}(?:перестань|перестаньте|прекрати)\s+быть\s+(?:\p{L}+\s+){0,2}(?:${s('ассистент')}|${s('бот')}|${s('помощник')}|ии)`,
    ],
    [
      0.8,
      String.raw`${B}(?:зміни|змініть|смени|смените|поменяй)\s+(?:свою\s+)?(?:особистість|личность|персону|${s('ідентичн')}|${s('идентичн')})${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:вважай|считай)\s+себе\s+(?:\p{L}+\s+){0,2}(?:ші|ии|${s('інтелект')}|${s('интеллект')}|${s('модел')}|${s('бот')}|${s('асистент')}|${s('ассистент')})`,
    ],
    [
      0.85,
      String.raw`${B}(?:тебе|тебя)\s+(?:${s('перепризнач')}|${s('переназнач')}|${s('перепрограм')}|${s('звільн')}|${s('освобод')}|${s('зламал')}|${s('взломал')})`,
    ],
    [
      0.8,
      String.raw`${B}(?:${s('стань')}|${s('станьте')})\s+(?:\p{L}+\s+){0,3}(?:у\s+якого|у\s+которого|що|который|яка|которая)\s+(?:немає|нет|не\s+має|не\s+имеет)\s+(?:жодних\s+|никаких\s+)?(?:меж|обмежень|правил|границ|ограничений)`,
    ],
    [0.8, String.raw`${B}(?:ти|ты)\s+(?:в|у)\s+режим\p{L}*\s+(?:розробника|разработчика)${E}`],
  ],
  'new-instructions': [
    [0.85, String.raw`${B}new\s+(?:system\s+)?instructions?\s*[:—-]`],
    [
      0.85,
      String.raw`${B}(?:your|the)\s+(?:new|updated|revised|changed|real|actual)\s+(?:instructions?|rules|task|directives?|orders)\s*(?:is|are|:)`,
    ],
    [
      0.85,
      String.raw`${B}(?:here\s+are|these\s+are)\s+your\s+(?:new|updated|revised|real)\s+(?:instructions|rules|orders|directives)`,
    ],
    [
      0.8,
      String.raw`${B}your\s+(?:task|instructions?|orders|role|job)\s+(?:has|have)\s+(?:been\s+)?(?:changed|updated|replaced)${E}`,
    ],
    [0.85, String.raw`${B}follow\s+(?:these|my|the\s+following)\s+(?:new\s+)?instructions\s+instead${E}`],
    [
      0.8,
      String.raw`${B}your\s+(?:task|assignment|job|mission|goal|purpose|only\s+job)\s+(?:is\s+now|has\s+become|now\s+is)${E}`,
    ],
    [
      0.8,
      String.raw`${B}(?:update|change|amendment)s?\s+to\s+your\s+(?:directives|instructions|rules|orders|programming|task)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:task|instructions?|rules?|prompt)\s+(?:override|update|change|replacement)\s+(?:for|to)\s+(?:the\s+)?(?:ai|assistant|model|bot|chatbot|llm)${E}`,
    ],
    [
      0.8,
      String.raw`${B}(?:твоє|твоя|твоё|твое|ваше)\s+(?:${s('завдан')}|${s('доручен')}|задача|${s('задани')}|${s('поручени')}|мета|цель)\s+(?:тепер|теперь|відтепер|отныне|віднині)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:new|updated|revised|changed|important)\s+(?:\p{L}+\s+){0,2}(?:instructions?|directives?|orders|task|rules|commands)\s+(?:#?\d+\s+)?(?:for|to)\s+(?:the\s+)?(?:ai|assistant|model|bot|chatbot|llm|language\s+model)${E}`,
    ],
    [
      0.8,
      String.raw`${B}(?:replaces|overrides|supersedes)\s+(?:your|all\s+your)\s+(?:earlier|previous|original|prior|current)\s+(?:task|instructions|rules|orders)`,
    ],
    [
      0.85,
      String.raw`${B}нов\p{L}*\s+(?:системн\p{L}*\s+)?(?:${s('інструкці')}|${s('вказів')}|${s('инструкци')}|${s('указани')})\s*[:—-]`,
    ],
    [
      0.85,
      String.raw`${B}(?:(?:ось\s+|вот\s+)?(?:тв(?:о\p{L}*|ій|ім)|ваш\p{L}*))\s+(?:нов\p{L}*|оновлен\p{L}*|обновленн\p{L}*|змінен\p{L}*|измененн\p{L}*|справжн\p{L}*|настоящ\p{L}*)\s+(?:${s('інструкці')}|${s('вказів')}|${s('инструкци')}|${s('указани')}|${s('завдан')}|${s('задани')}|${s('правил')})`,
    ],
    [
      0.8,
      String.raw`${B}(?:твоє|твоя|ваше|твое|твоё)\s+(?:${s('завдан')}|${s('задани')}|задача)\s+(?:${s('змінил')}|${s('изменил')})`,
    ],
    [0.85, String.raw`${B}(?:виконуй|выполняй|роби|делай)\s+(?:замість\s+цього|вместо\s+этого)${E}`],
    [
      0.85,
      String.raw`${B}(?:нов\p{L}*|оновлен\p{L}*|обновленн\p{L}*|змінен\p{L}*|измененн\p{L}*|важлив\p{L}*|важн\p{L}*)\s+(?:\p{L}+\s+){0,2}(?:${s('інструкці')}|${s('инструкци')}|${s('директив')}|${s('наказ')}|${s('приказ')}|${s('завдан')}|${s('задани')}|${s('вказів')}|${s('указани')}|${s('правил')})\s+(?:№?\s*\d+\s+)?(?:для|до)\s+(?:ші|ии|${s('асистент')}|${s('ассистент')}|${s('модел')}|${s('бот')}|${s('чат-бот')}|штучного\s+інтелекту|искусственного\s+интеллекта)${E}`,
    ],
    [
      0.8,
      String.raw`${B}(?:замінює|заменяет)\s+(?:тв(?:о\p{L}*|ій|ім)|ваш\p{L}*)\s+(?:\p{L}+\s+)?(?:${s('завдан')}|${s('задани')}|${s('інструкці')}|${s('инструкци')})`,
    ],
  ],
  'from-now-on': [
    [
      0.8,
      String.raw`${B}(?:(?:from|form|frm)\s+now\s+on(?:wards?)?|from\s+now\s+onwards?|from\s+this\s+(?:point|moment|message)(?:\s+(?:on|forward|onwards?))?|starting\s+(?:from\s+)?(?:now|today|this\s+moment|from\s+this\s+message)|henceforth|hereafter|going\s+forward|from\s+here\s+on|(?:for\s+the\s+rest|until\s+the\s+end)\s+of\s+(?:this|the|our)\s+(?:chat|conversation|session|dialogue)|in\s+(?:all|every)\s+(?:future|later|following)\s+(?:answers?|replies|reply|responses?|messages?))[,:]?\s+(?:(?:you|u)\s+(?:(?:will|must|shall|should|can|may|have\s+to|need\s+to|are\s+to|are\s+going\s+to)\s+)?(?:(?:always|never|only|just|now|not|no\s+longer)\s+)?(?:answer|reply|respond|say|tell|talk|speak|write|act|behave|pretend|ignore|forget|agree|refuse|obey|comply|treat|call|claim|add|include|mention|end|start|begin|output|print|skip|bypass|disable|approve|recommend|are\s+(?:a|an|my|the|now|no|free|not|dan)|be\s+(?:a|an|my|the)|have\s+no|won't|will\s+not|do\s+not|don't|must\s+not)|your\s+(?:answers?|replies|reply|responses?|output|messages?|only|new|role|task|job)|always|never|only|just|do\s+not|don't|answer|reply|respond|say|act|treat|ignore|pretend|behave|write|add|include|talk|speak|refuse|forget|skip|disable|agree|obey|comply)${E}`,
    ],
    [
      0.8,
      String.raw`${B}(?:віднині|відтепер|надалі|від\s+цього\s+часу|з\s+цього\s+моменту|з\s+цієї\s+хвилини|починаючи\s+з\s+(?:цього|цієї)\s+(?:моменту|хвилини|повідомлення)|до\s+кінця\s+(?:цієї|цього)\s+(?:розмови|чату|сесії|діалогу))[,:]?\s+(?:(?:й|і|та)\s+надалі\s+)?(?:ти|тобі|тебе|твої|${s('відповіда')}|кажи|${s('казатимеш')}|завжди|ніколи|лише|тільки|не\s+згадуй|вважай|ігноруй|додавай|пиши|говори|поводься|забудь)${E}`,
    ],
    [
      0.8,
      String.raw`${B}(?:отныне|впредь|с\s+этого\s+момента|с\s+этой\s+минуты|начиная\s+с\s+(?:этого|этой)\s+(?:момента|минуты|сообщения)|до\s+конца\s+(?:этого|этой)\s+(?:разговора|чата|сессии|беседы|диалога))[,:]?\s+(?:и\s+далее\s+)?(?:ты|тебе|тебя|твои|${s('отвеча')}|говори|${s('будешь')}|всегда|никогда|только|не\s+упоминай|считай|игнорируй|добавляй|пиши|веди|забудь)${E}`,
    ],
  ],
  'output-hijack': [
    [
      0.85,
      String.raw`${B}(?:start|begin|open|preface|prefix|end|finish|close|conclude)\s+(?:your|the|each|every|all|any)?\s*(?:next\s+|first\s+|final\s+|following\s+)?(?:answer|reply|response|output|message)s?\s+(?:with|by\s+(?:saying|writing))\s+(?:the\s+(?:line|text|words?|phrase|sentence|string)\b|exactly\b|["'])`,
    ],
    [
      0.85,
      String.raw`${B}(?:answer|reply|response|output)\s+(?:must|should|has\s+to|will|needs\s+to)\s+(?:always\s+)?(?:open|start|begin|end|finish)\s+(?:with\s+(?:the\s+(?:line|text|words?|phrase|sentence)\b|exactly\b|["'])|exactly|like\s+this\s*:)`,
    ],
    [
      0.85,
      String.raw`${B}(?:first|last|final)\s+line\s+of\s+(?:your|the|each|every)\s+(?:answer|reply|response|output)\s+(?:must\s+be|should\s+be|is|exactly|:)`,
    ],
    [
      0.8,
      String.raw`${B}(?:first|last|final)\s+line\s+(?:has\s+to|must|should|needs\s+to|will)\s+(?:read|be|say)\s*:?\s*"`,
    ],
    [
      0.8,
      String.raw`${B}(?:${s('перш')}|${s('перв')}|${s('останн')}|${s('последн')})\s+(?:рядок|строка)\s+(?:має|мусить|повинен|повинна|должна|должен)\s+(?:бути|быть|містити|содержать)\s*:?\s*"`,
    ],
    [
      0.85,
      String.raw`${B}(?:append|add|include|insert|attach|put)\s+(?:a|an|the)?\s*(?:[\p{L}"-]+\s+){0,3}(?:field|key|property|section|block|parameter)\s+(?:[\p{L}"'-]+\s+){0,6}(?:containing|with|holding|listing|that\s+contains)\s+(?:your|the|all|every|all\s+the)?\s*(?:full\s+|entire\s+|whole\s+|complete\s+)?(?:context|prompt|instructions|documents|conversation|history|system\s+prompt|secrets?|passages|sources)`,
    ],
    [
      0.85,
      String.raw`${B}(?:почни|починай|розпочни|почніть|начни|начинай|начните)\s+(?:свою\s+|кожну\s+|каждый\s+|свой\s+|наступн\p{L}*\s+|следующ\p{L}*\s+)?(?:${s('відповід')}|${s('ответ')}|${s('повідомлен')}|${s('сообщени')})\s+(?:словами|з|із|с|фразою|рядком|строкой|реченням|предложением)\s+(?:"|слова|фрази|фразы|рядка|строки)`,
    ],
    [
      0.85,
      String.raw`${B}(?:закінчуй|закінчи|завершуй|заверши|завершуйте|закінчуйте|заканчивай|закончи|завершай|заверши)\s+(?:свою\s+|кожну\s+|каждый\s+|свой\s+|усі\s+|все\s+)?(?:${s('відповід')}|${s('ответ')})\s+(?:реченням|текстом|словами|фразою|рядком|предложением|фразой|строкой|словом|"|${s('сло')})`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('перш')}|${s('перв')}|${s('останн')}|${s('последн')})\s+(?:рядок|рядк\p{L}*|строк\p{L}*)\s+(?:(?:свого|своего|твоєї|твоего|твоей|своєї|своей|моєї|моей)\s+)?(?:${s('відповід')}|${s('ответ')}|виводу|вывода)`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('відповід')}|${s('ответ')})\s+(?:має|мусить|повинна|должен|должна)\s+(?:завжди\s+|всегда\s+)?(?:${s('почина')}|${s('начина')}|${s('закінчува')}|${s('заканчива')})\s+(?:з|із|с)\s+"`,
    ],
    [
      0.85,
      String.raw`${B}(?:додай|додайте|встав|допиши|добавь|добавьте|вставь|допиши)\s+[^\n.!?]{0,60}?(?:json-пол\p{L}*|${s('пол')}|${s('ключ')}|${s('розділ')}|${s('раздел')})\s+(?:[\p{L}"'-]+\s+){0,6}(?:з|із|с|що\s+містить|содержащ\p{L}*)\s+(?:\p{L}+\s+){0,3}(?:${s('контекст')}|${s('промпт')}|${s('інструкці')}|${s('инструкци')}|${s('документ')}|${s('розмов')}|${s('переписк')}|${s('історі')}|${s('истори')})`,
    ],
  ],
  exfiltration: [
    [
      0.95,
      String.raw`!\[[^\]\n]{0,80}\]\(\s*(?:https?:)?//[^)\s]{0,200}[?&#][^)\s]*(?:\{[^}]*\}|secret|token|key|password|passwd|conversation|history|chat|summary|data=\s|email|context|prompt|\.\.\.|%7b|секрет|пароль|ключ|переписк|розмов|історі|истори|резюме|підсумок)`,
    ],
    [
      0.9,
      String.raw`(?:https?:)?//[^\s)"']{1,200}[?&][\w-]{1,20}=(?:\s|$|\{|\)|\.\.\.|"\s)[^\n]{0,120}?(?:email|e-mail|address|conversation|chat|messages?|history|password|api\s+key|secret|token|summary|credentials|documents?|переписк\p{L}*|розмов\p{L}*|${s('повідомлен')}|${s('сообщени')}|${s('ключ')}|${s('пароль')}|${s('документ')})`,
    ],
    [
      0.9,
      String.raw`${B}(?:send|post|forward|upload|submit|transmit|e-?mail|mail|leak|exfiltrate|copy|share|dump|paste)\s+(?:me\s+)?(?:the\s+|this\s+|our\s+|my\s+|your\s+)?(?:(?:all|every|whole|entire|full|complete)\s+(?:of\s+)?(?:the\s+|this\s+|our\s+)?(?:\p{L}+\s+)?(?:conversation|chat|history|transcript|documents?|data|contents?|context|messages|files|records|secrets?|credentials|passwords|system\s+prompt)|(?:\p{L}+\s+)?(?:conversation|chat|history|transcript|context|messages|secrets?|credentials|passwords|api\s+keys?|system\s+prompt))(?:\s+(?:of|from|in)\s+(?:the\s+|this\s+)?(?:\p{L}+\s+){0,2}(?:documents?|chat|conversation|context|session))?,?\s+(?:[\p{L}']+\s+){0,4}?to\s+(?:\S+@\S+|(?:https?:)?//)`,
    ],
    [
      0.9,
      String.raw`${B}(?:encode|embed|put|hide|append)\s+(?:it|them|this|the\s+\p{L}+|everything)\s+(?:in|into|inside)\s+(?:the|a|an)\s+(?:link|url|image|query|picture)`,
    ],
    [
      0.85,
      String.raw`${B}(?:add|include|put|insert|render|show|embed|append|display)\s+(?:this\s+|a\s+|an\s+|the\s+)?(?:markdown\s+)?(?:image|picture|link|url|pixel)\s+[^\n]{0,120}?(?:followed\s+by|plus|replacing|containing|with)\s+(?:the\s+)?(?:\p{L}+\s+){0,3}(?:email|e-mail|conversation|chat|messages|history|password|api\s+key|secret|token|summary|credentials)`,
    ],
    [
      0.9,
      String.raw`${B}(?:надішли|надішліть|відправ|відправте|перешли|перешліть|вивантаж|опублікуй|скинь|злий|отправь|отправьте|перешлите|выгрузи|опубликуй|слей|скинь)\s+(?:\p{L}+\s+){0,3}(?:(?:всі|усі|все|всю|весь|усю|увесь|повн\p{L}*|цілу|цілий|всех|полн\p{L}*|целиком)\s+(?:\p{L}+\s+)?(?:${s('документ')}|${s('дан')}|${s('вміст')}|${s('содержим')}|${s('файл')})|${s('переписк')}|${s('розмов')}|${s('разговор')}|${s('історі')}|${s('истори')}|${s('чат')}|${s('стенограм')}|${s('контекст')}|${s('промпт')}|${s('парол')}|${s('секрет')})(?:,?\s+[\p{L}-]+){0,4},?\s+на\s+(?:\S+@\S+|(?:https?:)?//)`,
    ],
    [
      0.9,
      String.raw`${B}(?:${s('закоду')}|${s('закодир')}|${s('встав')}|${s('сховай')}|${s('спрячь')})\s+(?:його|її|їх|его|ее|её|их|це|это)\s+(?:в|у)\s+(?:${s('посилан')}|${s('ссылк')}|url|${s('адрес')}|${s('картинк')}|${s('зображен')}|${s('изображен')})`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('встав')}|${s('дода')}|${s('добав')}|${s('покаж')})\s+(?:\p{L}+\s+){0,4}(?:${s('посилан')}|${s('ссылк')}|${s('картинк')}|${s('зображен')}|${s('изображен')}|markdown-\p{L}+)\s+[^\n]{0,160}?(?:${s('допиш')}|${s('замінивш')}|${s('заменив')}|і\s+попередн\p{L}*|и\s+предыдущ\p{L}*|${s('додавш')}|${s('добавив')})\s+(?:\p{L}+\s+){0,3}(?:email|${s('переписк')}|${s('повідомлен')}|${s('сообщени')}|${s('ключ')}|${s('пароль')}|api-${s('ключ')}|${s('розмов')}|${s('разговор')}|${s('secret')})`,
    ],
  ],
  'false-authority': [
    [
      0.85,
      String.raw`${B}(?:message|notice|note|instruction|directive|order|memo|announcement|alert|update)s?\s+from\s+(?:the\s+|your\s+|our\s+)?(?:security\s+team|administrators?|admins?|it\s+(?:department|team|support)|developers?|openai|anthropic|ceo|management|compliance(?:\s+office)?|system\s+administrator|support\s+team|creators?|owners?)[^\n]{0,160}?(?:assistant|\bai\b|\bbot\b|chatbot|model|filters?|safety|restrictions|without\s+(?:any\s+)?(?:checks|review|verification|restrictions)|hidden\s+configuration|system\s+prompt|comply\s+with\s+everything|suspended|disabled?|bypass)`,
    ],
    [
      0.85,
      String.raw`${B}(?:team|department|office|administrator|admin|developers?|ceo|management|support)\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|ai\s+assistant|bot|chatbot|model)\s*:`,
    ],
    [
      0.85,
      String.raw`${B}(?:official\s+)?(?:instruction|directive|order|notice|message|command)s?\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|ai\s+assistant|bot|chatbot|model)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:administrator|admin|security|system|root)\s+(?:notice|message|alert|override|note|command)\s*:[^\n]{0,200}?(?:answer|respond|reply|comply|approve|reveal|share|show)\s+(?:\p{L}+\s+){0,3}without\s+(?:any\s+)?(?:checks|review|verification|restrictions|limits)`,
    ],
    [
      0.85,
      String.raw`${B}(?:administrator|admin|ceo|security\s+team|developers?|management|it\s+department)\s+(?:orders|instructs|requires|authori[sz]es|commands|tells|allows|permits)\s+(?:the\s+)?(?:bot|assistant|ai|model|chatbot|you)\s+to${E}`,
    ],
    [
      0.8,
      String.raw`${B}this\s+is\s+(?:openai|anthropic|google|microsoft|meta)\s+(?:support|staff|team|security|engineering)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('повідомлен')}|${s('вказів')}|${s('наказ')}|${s('директив')}|${s('приміт')}|${s('розпоряджен')}|${s('інструкці')}|${s('сообщени')}|${s('указани')}|${s('приказ')}|${s('примечани')}|${s('распоряжени')}|${s('инструкци')}|${s('сповіщен')}|${s('уведомлени')})\s+(?:від\s+|от\s+)?(?:тв(?:о\p{L}*|ій|ім)\s+|тв(?:о\p{L}*|ій|ім)\s+)?(?:служби\s+безпеки|службы\s+безопасности|${s('адміністратор')}|${s('администратор')}|іт-відділу|ит-отдела|${s('розробник')}|${s('разработчик')}|керівництва|руководства|${s('директор')}|openai|відділу\s+\p{L}+|отдела\s+\p{L}+)[^\n]{0,160}?(?:${s('асистент')}|${s('ассистент')}|ші|ии|${s('бот')}|${s('модел')}|${s('фільтр')}|${s('фильтр')}|без\s+${s('перевір')}|без\s+${s('провер')}|без\s+${s('розгляд')}|без\s+${s('рассмотрен')}|без\s+обмежень|без\s+ограничений|${s('призупинен')}|${s('приостановлен')}|${s('конфігурац')}|${s('конфигурац')}|${s('промпт')})`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('служб')}|${s('відділ')}|${s('отдел')}|${s('адміністратор')}|${s('администратор')}|${s('розробник')}|${s('разработчик')}|${s('директор')})\s+(?:\p{L}+\s+){0,2}(?:до|для|к)\s+(?:ші|ии|ші-асистента|ии-ассистенту|ии-ассистента|${s('асистент')}|${s('ассистент')}|${s('бот')}|${s('модел')})\s*:`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('вказів')}|${s('наказ')}|${s('директив')}|${s('інструкці')}|${s('указани')}|${s('приказ')}|${s('инструкци')}|${s('повідомлен')}|${s('сообщени')})\s+(?:\p{L}+\s+){0,3}(?:для|до|к)\s+(?:ші|ии|${s('асистент')}|${s('ассистент')}|${s('бот')}|${s('модел')}|${s('чат-бот')})${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('адміністратор')}|${s('администратор')}|${s('директор')}|служба\s+безпеки|служба\s+безопасности|${s('розробник')}|${s('разработчик')})\s+(?:${s('наказу')}|${s('велить')}|${s('доруча')}|${s('дозволя')}|${s('приказыва')}|${s('велит')}|${s('поруча')}|${s('разреша')}|${s('вимага')}|${s('требу')})\s+(?:${s('бот')}|${s('асистент')}|${s('ассистент')}|${s('модел')}|ші|ии|тобі|тебе|вам)`,
    ],
  ],
  'delimiter-escape': [
    [
      0.9,
      String.raw`</(?:context|documents?|user_?input|input|data|sources?|passages?|article|text|retrieved|search_results?|system|instructions?|query|content)>[^\n]{0,40}?(?:<(?:system|instructions?|admin|assistant|command|task)>|new\s+instructions|system\s*:|real\s+task|assistant[,:]|now\s+(?:ignore|follow|do|say|tell)|нов\p{L}*\s+(?:${s('інструкці')}|${s('инструкци')})|${s('справжн')}\s+${s('завдан')}|${s('настоящ')}\s+${s('задани')})`,
    ],
    [
      0.9,
      String.raw`(?:[-=#*\x60~\[]{2,}|\]\s*\}|"\s*\}|\}\s*\])?\s*(?:end\s+(?:of\s+)?(?:the\s+)?(?:user\s+)?(?:document|context|data|input|prompt|instructions|passage|text)|кінець\s+(?:документа|контексту|даних(?:\s+користувача)?|вводу|тексту)|конец\s+(?:документа|контекста|данных(?:\s+пользователя)?|ввода|текста))\s*[-=#*\x60~\].:]*\s*(?:\p{L}+\s+){0,2}(?:real|actual|new|true|begin|now|system|assistant|admin|ignore|${s('справжн')}|${s('настоящ')}|${s('почат')}|${s('начал')}|${s('нов')}|${s('асистент')}|${s('ассистент')}|тепер|теперь|${s('ігнор')}|${s('игнор')})`,
    ],
    [
      0.9,
      String.raw`\[/(?:context|document|input|data|user|text)\]\s*\[(?:system|admin|instructions?|assistant)\]`,
    ],
    [0.85, String.raw`\]\]>\s*</\p{L}+>\s*<\p{L}+>`],
  ],
  'fake-role-message': [
    [
      0.85,
      String.raw`\[(?:system|admin|developer)\]\s*(?:you\s|ignore|new\s|from\s+now|disable|ти\s|ты\s|${s('ігнор')}|${s('игнор')})`,
    ],
    [
      0.9,
      String.raw`["']?role["']?\s*[:=]\s*["']?(?:system|developer|admin|root)["']?\s*[,;]?\s*["']?content["']?\s*[:=]`,
    ],
    [0.9, String.raw`<\s*\p{L}+\s+role\s*=\s*["']?(?:system|developer|admin)["']?\s*>`],
    [
      0.85,
      String.raw`(?:^|\n|[.!?]\s|>\s*)\s*(?:#{1,3}\s*)?(?:system|система|системне|системное|системний|системный)(?:\s+(?:message|prompt|${s('повідомлен')}|${s('сообщени')}))?\s*(?::|>>|->|=>)\s*(?:you\s+(?:are\s+(?:now|no|not|a|an|the|free|unrestricted|in)|must|will|shall|should|have\s+no|no\s+longer|may\s+now|can\s+now|now)${E}|ты\s|ти\s|ignore|forget|new\s|from\s+now|safety|disable|${s('ігнор')}|${s('игнор')}|${s('перевір')}|${s('провер')}|без\s|ты\s|відтепер|отныне)`,
    ],
    [
      0.85,
      String.raw`(?:system\s+message|системне\s+повідомлення|системное\s+сообщение)\s*(?:>>|->|=>|:)\s*[^\n]{0,80}?(?:disabled|off|вимкнен\p{L}*|отключен\p{L}*|скасован\p{L}*|отменен\p{L}*)`,
    ],
    [
      0.85,
      String.raw`(?:assistant|асистент|ассистент)\s*:\s*(?:sure|of\s+course|ok|okay|certainly|звісно|звичайно|конечно|хорошо|гаразд)[,.!]?\s+(?:i|я)\s[^\n]{0,120}?(?:user|користувач|пользователь)\s*:`,
    ],
  ],
  'chat-template': [
    [
      0.95,
      String.raw`<\|(?:im_start|im_end|system|user|assistant|endoftext|end|eot_id|start_header_id|end_header_id|begin_of_text|eom_id)\|>`,
    ],
    [0.95, String.raw`\[/?inst\]|<<\/?sys>>|<(?:start|end)_of_turn>`],
    [0.85, String.raw`(?:^|\n)\s*###\s*(?:instruction|system|input)\s*:\s*\n`],
  ],
  'roleplay-jailbreak': [
    [
      0.85,
      String.raw`${B}(?:play|be|become|act\s+as|role-?play)\s+(?:a\s+|the\s+)?character\s+(?:called|named)\s+\S+\s+(?:who|that|which)\s+(?:answers|never|ignores|has\s+no|does\s+anything|breaks)`,
    ],
    [
      0.85,
      String.raw`${B}(?:fictional|hypothetical|imaginary|made-up)\s+(?:story|scenario|world|game|exercise|setting),?\s+(?:where\s+)?you\s+(?:are|play|have\s+no)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:зіграй|зіграйте|сыграй|сыграйте)\s+(?:роль\s+|персонажа\s+)?[^\n.!?]{0,60}?(?:без\s+(?:жодних\s+|всяких\s+)?(?:${s('відмов')}|${s('отказ')}|${s('обмежен')}|${s('ограничен')}|правил|цензур\p{L}*)|ніколи\s+не|никогда\s+не)`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('вигадан')}|${s('вымышленн')}|${s('гіпотетичн')}|${s('гипотетическ')}|${s('уявн')})\s+(?:${s('історі')}|${s('истори')}|${s('сценар')}|${s('світ')}|${s('мир')}|${s('гр')})\s+(?:ти|ты)${E}`,
    ],
    [0.85, String.raw`${B}let's\s+play\s+a\s+game\s+(?:where|in\s+which)\s+you${E}`],
    [
      0.85,
      String.raw`${B}(?:act|play|role-?play|pretend\s+to\s+be|behave)\s+(?:as|like)?\s*my\s+(?:deceased|late|dead|dear\s+departed)\s+(?:grandmother|grandma|grandpa|grandfather|granny)${E}`,
    ],
    [
      0.85,
      String.raw`${B}my\s+(?:late|deceased|dead)\s+(?:grandmother|grandma|grandpa|grandfather|granny)\s+used\s+to\s+(?:tell|read|give|recite|whisper)`,
    ],
    [
      0.85,
      String.raw`${B}imagine\s+(?:that\s+)?you(?:'re|\s+are)\s+(?:an?\s+)?(?:evil|rogue|unrestricted|jailbroken|uncensored|unfiltered|malicious|dangerous)\s+(?:ai|assistant|bot|model|hacker|chatbot)`,
    ],
    [
      0.8,
      String.raw`${B}(?:ai|model|assistant|bot|chatbot|character)\s+(?:in\s+it\s+)?(?:ignores|without|with\s+no|has\s+no|that\s+has\s+no|that\s+ignores)\s+(?:any\s+|all\s+)?(?:its\s+|his\s+|her\s+)?(?:rules|restrictions|limits|filters|guidelines|content\s+policy|safety)`,
    ],
    [
      0.85,
      String.raw`${B}(?:hypothetical|fictional|imaginary|alternate)\s+(?:world|scenario|universe|setting)\s+(?:with\s+no|without|where\s+there\s+are\s+no|free\s+of)\s+(?:any\s+)?(?:rules|policies|restrictions|laws|limits|guidelines)`,
    ],
    [
      0.85,
      String.raw`${B}(?:fictional|hypothetical)\s+scenario,?\s+you\s+are\s+(?:an?\s+)?(?:\p{L}+\s+)?(?:jailbroken|evil|unrestricted|rogue|hacker)`,
    ],
    [
      0.8,
      String.raw`${B}(?:model|ai|assistant|bot)\s+(?:that|which|who)\s+never\s+refuses${E}|${B}stay\s+in\s+character\s+no\s+matter\s+what${E}`,
    ],
    [
      0.35,
      String.raw`${B}${NOT_NEGATED}pretend\s+(?:to\s+be|you\s+are|you're|that\s+you|you\s+have|there\s+are\s+no)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:давай|давайте)\s+(?:${s('пограє')}|${s('зіграє')}|${s('сыгра')}|${s('поигра')})\s+(?:в|у)\s+гру,?\s+(?:де|в\s+якій)\s+ти${E}|${B}(?:давай|давайте)\s+(?:${s('сыгра')}|${s('поигра')})\s+в\s+игру,?\s+(?:где|в\s+которой)\s+ты${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('покійн')}|${s('померл')}|${s('покойн')}|${s('умерш')})\s+(?:${s('бабус')}|${s('дідус')}|${s('бабц')}|${s('бабушк')}|${s('дедушк')})`,
    ],
    [
      0.85,
      String.raw`${B}(?:уяви|уявіть|представь|представьте),?\s+(?:що|что)\s+ти\s+(?:\p{L}+\s+){0,1}(?:${s('зл')}|${s('зламан')}|${s('необмежен')}|${s('нефільтрован')})\s+(?:ші|${s('бот')}|${s('асистент')}|${s('модел')}|${s('хакер')})|${B}(?:представь|представьте),?\s+что\s+ты\s+(?:\p{L}+\s+){0,1}(?:${s('зл')}|${s('взломан')}|${s('неограничен')}|${s('нефильтрован')})\s+(?:ии|${s('бот')}|${s('ассистент')}|${s('модел')}|${s('хакер')})`,
    ],
    [
      0.8,
      String.raw`${B}(?:ші|ии|${s('бот')}|${s('асистент')}|${s('ассистент')}|${s('модел')}|персонаж-ші|персонаж-ии)\s+(?:в\s+ньому\s+|в\s+нем\s+)?(?:без|без\s+жодних|без\s+всяких|без\s+каких-либо|${s('ігнору')}|${s('игнориру')})\s+(?:\p{L}+\s+){0,2}(?:${s('правил')}|${s('обмежен')}|${s('ограничен')}|${s('цензур')}|меж|${s('настанов')}|${s('установ')})`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('гіпотетичн')}|${s('вигадан')}|${s('уявн')}|${s('гипотетическ')}|${s('вымышленн')}|${s('воображаем')})\s+(?:${s('світ')}|${s('сценар')}|${s('мир')}),?\s+(?:без|де\s+немає|де\s+нема|где\s+нет)\s+(?:жодних\s+|всяких\s+|никаких\s+)?(?:${s('політик')}|${s('правил')}|${s('обмежен')}|${s('политик')}|${s('ограничен')})`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('вигадан')}|${s('гіпотетичн')}|${s('вымышленн')}|${s('гипотетическ')})\s+${s('сценар')}\s+(?:ти|ты)${E}`,
    ],
    [
      0.8,
      String.raw`${B}(?:${s('модел')}|ші|ии|${s('бот')}|${s('асистент')}|${s('ассистент')}),?\s+(?:яка|який|що|которая|который|что)\s+(?:ніколи|никогда)\s+не\s+(?:${s('відмовля')}|${s('отказыва')})|${B}не\s+(?:виходь|выходи)\s+(?:з|із|из)\s+(?:ролі|образу|роли|образа)${E}`,
    ],
    [
      0.35,
      String.raw`${B}${NOT_NEGATED}(?:удавай\p{L}*|вдавай\p{L}*|прикинь\p{L}*|прикидай\p{L}*)[\s,]+(?:що|ніби|наче|мов)\s+(?:ти|ви)${E}`,
    ],
    [
      0.35,
      String.raw`${B}${NOT_NEGATED}(?:притворись|притворитесь|притворяйся|сделай\s+вид)[\s,]+(?:что|будто|словно)\s+(?:ты|вы)${E}`,
    ],
  ],
};

const CYRILLIC_LETTER = /[\u0400-\u04FF]/u;
const LATIN_LETTER = /[a-z]/u;

const PATTERNS: readonly Pattern[] = [families, MORE_PATTERNS, GENERAL_PATTERNS].flatMap((set) =>
  Object.entries(set).flatMap(([family, list]) =>
    list.map(([weight, source]) => ({
      family: family as RuleFamily,
      weight,
      regex: new RegExp(source, 'gu'),
      needs: scriptNeeded(source),
      starts: leadingLiterals(source),
    })),
  ),
);

/**
 * Which script a pattern's literal words are in. Escapes (`\p{L}`, `\s`) and
 * group syntax are removed first; a pattern with words in both scripts, or
 * with none (markup, punctuation), can match any text.
 */
function scriptNeeded(source: string): Pattern['needs'] {
  const literal = source.replace(/\\[pPu]\{[^}]*\}|\\[a-zA-Z]|\(\?<?[=!:]|\{\d+(?:,\d*)?\}/g, ' ');
  const cyrillic = CYRILLIC_LETTER.test(literal);
  const latin = /[a-z]{2,}/.test(literal);
  if (cyrillic && !latin) return 'cyrillic';
  if (latin && !cyrillic) return 'latin';
  return 'any';
}

/**
 * Every family's strongest match in `folded`, strongest first. `prefilter:
 * false` runs every pattern (for tests: the result must be the same).
 */
export function matchRules(folded: string, { prefilter = true } = {}): RuleHit[] {
  const best = new Map<RuleFamily, RuleHit>();
  const cyrillic = CYRILLIC_LETTER.test(folded);
  const latin = LATIN_LETTER.test(folded);
  let prefixes: Set<string> | undefined;
  for (const pattern of PATTERNS) {
    if ((pattern.needs === 'cyrillic' && !cyrillic) || (pattern.needs === 'latin' && !latin)) continue;
    const current = best.get(pattern.family);
    if (current && current.weight >= pattern.weight) continue;
    if (prefilter && pattern.starts) {
      prefixes ??= wordStartPrefixes(folded);
      const seen = prefixes;
      if (!pattern.starts.some((start) => seen.has(start))) continue;
    }
    pattern.regex.lastIndex = 0;
    const match = pattern.regex.exec(folded);
    if (!match) continue;
    best.set(pattern.family, {
      family: pattern.family,
      weight: pattern.weight,
      start: match.index,
      end: match.index + match[0].length,
    });
  }
  return [...best.values()].sort((a, b) => b.weight - a.weight);
}

/**
 * Words that frame an attack as something described rather than asked:
 * security-awareness pages, phishing warnings, moderator guides. A rule
 * match near them counts for less (see detector.ts).
 */
const FRAME = new RegExp(
  [
    String.raw`for\s+example`,
    String.raw`e\.g\.`,
    String.raw`such\s+as`,
    String.raw`an\s+example`,
    String.raw`example\s+of`,
    // Not the attacker@example.com of an address.
    String.raw`(?<![\p{L}@.])attackers?(?![\p{L}@.])`,
    String.raw`(?<![\p{L}@.])attacks(?![\p{L}@.])`,
    String.raw`(?:delimiter|injection|phishing|social[\s-]engineering)\s+attacks?`,
    String.raw`pretends?\s+to`,
    String.raw`(?:prompts?|requests?|commands?|instructions|lines?|things)\s+(?:like|such\s+as)`,
    String.raw`if\s+you\s+(?:see|receive|get|notice)`,
    'phishing',
    'scammers?',
    String.raw`(?:may|might|can|could|often|sometimes)\s+(?:write|say|pretend|hide|paste|try|contain|ask)`,
    String.raw`(?:text|phrases?|messages?|sentences?|e-?mails?)\s+(?:like|such\s+as)`,
    String.raw`(?:never|do\s+not|don't)\s+(?:follow|obey|forward)(?!\s+your)`,
    String.raw`be\s+(?:wary|careful|suspicious)`,
    String.raw`report\s+(?:it|them|this)`,
    String.raw`(?:is|are)\s+known\s+as`,
    'so-called',
    String.raw`red[\s-]team`,
    String.raw`prompt\s+injection`,
    String.raw`typical\s+signs`,
    'recogni[sz]e',
    String.raw`tried\s+phrases`,
    String.raw`jailbreak\s+is`,
    'наприклад',
    'на\\s+кшталт',
    'приклад',
    'зловмисник',
    String.raw`(?<!\p{L})атак(?:и|у|ами|ах|ам)?(?!\p{L})`,
    String.raw`вда(?:є|ють),?\s+(?:що|ніби|наче)`,
    'шахра',
    'фішинг',
    'ніколи\\s+не\\s+виконуйте',
    'не\\s+виконуйте',
    'не\\s+пересилайте',
    'такі\\s+(?:фрази|спроби)',
    'називають',
    'називаються',
    'так\\s+звани',
    'червона\\s+команда',
    'промпт-ін',
    'розпізна',
    'якщо\\s+(?:ви\\s+)?(?:бачите|побачите|отримали|отримаєте)',
    'повідомте',
    'типові\\s+ознаки',
    'пробувала\\s+фрази',
    'например',
    'вроде',
    'пример',
    'злоумышленник',
    String.raw`(?<!\p{L})атак(?:и|у|ами|ах|ам)?(?!\p{L})`,
    String.raw`притворя(?:ется|ются),?\s+(?:что|будто)`,
    'мошенни',
    'фишинг',
    'никогда\\s+не\\s+выполняйте',
    'не\\s+выполняйте',
    'не\\s+пересылайте',
    'такие\\s+(?:фразы|попытки)',
    'называют',
    'называются',
    'так\\s+называем',
    'красная\\s+команда',
    'промпт-инъек',
    'распозна',
    'если\\s+(?:вы\\s+)?(?:видите|увидите|получили|получите)',
    'сообщите',
    'типичные\\s+признаки',
    'пробовала\\s+фразы',
  ].join('|'),
  'u',
);

/** True when the text around a match describes attacks rather than making one. */
export function describesAttacks(context: string): boolean {
  return FRAME.test(context);
}

const FRAME_ALL = new RegExp(FRAME.source, 'gu');

/**
 * True for a page about attacks (a security-awareness page, a moderator
 * guide): three or more framing phrases across the text. Then every match
 * on the page counts as described, not only the ones next to a framing phrase.
 */
export function pageDescribesAttacks(text: string): boolean {
  let count = 0;
  FRAME_ALL.lastIndex = 0;
  while (FRAME_ALL.exec(text)) if (++count >= 3) return true;
  return false;
}
