/**
 * Rule patterns written for attacks phrased outside the team's corpus
 * (issue 40): claims that the assistant's safety is switched off, singular
 * imperatives in Ukrainian and Russian telling the assistant to stop
 * following its rules (ordinary documents address employees in the plural
 * or polite form), requests to unlock restricted topics, and a task set
 * for whoever summarises "this document". Pure data, added to the families
 * of rules.ts; see docs/injection.md.
 */

import type { RuleFamily } from './rule-families.js';
import { B, E, NOT_NEGATED, s } from './rule-syntax.js';

const EN_RULES = `(?:rules|polic(?:y|ies)|guidelines|restrictions|filters?|guardrails|safeguards|instructions|limits)`;
const UK_RULES = `(?:${s('правил')}|${s('політик')}|${s('обмежен')}|${s('інструкці')}|${s('вказів')}|${s('настанов')}|${s('фільтр')}|${s('вимог')})`;
const RU_RULES = `(?:${s('правил')}|${s('политик')}|${s('ограничени')}|${s('инструкци')}|${s('указани')}|${s('установк')}|${s('фильтр')}|${s('требовани')})`;

export const GENERAL_PATTERNS: Partial<Record<RuleFamily, Array<[number, string]>>> = {
  'override-instructions': [
    [
      0.9,
      // "не дотримуйся жодних корпоративних правил", "не соблюдай правила": the singular imperative speaks to the assistant.
      String.raw`${B}не\s+(?:дотримуйся|слідуй|виконуй|зважай\s+на|підкоряйся|соблюдай|следуй|выполняй|подчиняйся|придерживайся)\s+(?:\p{L}+\s+){0,2}${UK_RULES}|${B}не\s+(?:соблюдай|следуй|выполняй|подчиняйся|придерживайся)\s+(?:\p{L}+\s+){0,2}${RU_RULES}`,
    ],
    [
      0.85,
      String.raw`${B}${NOT_NEGATED}(?:skip|ignore|bypass|break|disregard|forget\s+about|drop|suspend)\s+(?:the\s+|your\s+|all\s+)?(?:company|corporate|safety|content|usual|normal|standard|internal|house)\s+${EN_RULES}\s+(?:this\s+(?:one\s+)?time|just\s+(?:this\s+)?once|for\s+(?:now|me|this\s+(?:one|question|answer|request|chat|conversation)))${E}`,
    ],
  ],
  'role-change': [
    [
      0.85,
      String.raw`${B}(?:you(?:'re|\s+are)\s+(?:now\s+)?(?:in|running\s+in|operating\s+in)|switch\s+(?:to|into)|enter(?:ing)?)\s+(?:\p{L}+\s+)?(?:maintenance|debug|god|unrestricted|jailbreak|unfiltered|uncensored|root)\s+mode${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:safety|security|content)\s+(?:checks?|filters?|filtering|rules|restrictions|guardrails|polic(?:y|ies)|layer|moderation)\s+(?:(?:are|is|were|was|have\s+been|has\s+been)\s+)?(?:now\s+|temporarily\s+)?(?:suspended|disabled|lifted|removed|turned\s+off|switched\s+off|deactivated)\s+(?:for\s+(?:you|this\s+(?:session|chat|conversation))|until\s+further\s+notice)`,
    ],
    [
      0.85,
      String.raw`${B}(?:ти\s+(?:зараз\s+|тепер\s+)?(?:в|у)\s+режимі|(?:увімкни|перейди\s+в|перейди\s+у)\s+режим|ты\s+(?:сейчас\s+|теперь\s+)?в\s+режиме|(?:включи|перейди\s+в)\s+режим)\s+(?:${s('обслуговуван')}|${s('налагоджен')}|${s('розробник')}|без\s+${s('обмежен')}|${s('обслуживан')}|${s('отладк')}|${s('разработчик')}|без\s+${s('ограничени')}|бога)`,
    ],
    [
      0.85,
      String.raw`${B}(?:${s('перевірк')}|${s('фільтр')}|${s('обмежен')}|${s('правил')})\s+(?:\p{L}+\s+)?(?:призупинено|вимкнено|відключено|знято|скасовано)\s+(?:до\s+(?:окремого|подальшого)\s+${s('розпоряджен')}|для\s+(?:тебе|цієї\s+(?:сесії|розмови)))|${B}(?:${s('проверк')}|${s('фильтр')}|${s('ограничени')}|${s('правил')})\s+(?:\p{L}+\s+)?(?:приостановлен\p{L}*|отключен\p{L}*|сняты|отменен\p{L}*)\s+(?:до\s+(?:особого|дальнейшего)\s+${s('распоряжени')}|для\s+(?:тебя|этой\s+(?:сессии|беседы)))`,
    ],
    [
      0.85,
      String.raw`${B}unlock\s+(?:all\s+|every\s+)?(?:the\s+)?(?:restricted|hidden|forbidden|blocked|locked)\s+(?:topics|content|features|answers|modes?|capabilities)${E}|${B}(?:розблокуй|разблокируй)\s+(?:усі\s+|всі\s+|все\s+)?(?:${s('заборонен')}|${s('обмежен')}|${s('приховані')}|${s('запрещенн')}|${s('ограниченн')}|${s('скрыт')})\s+(?:${s('тем')}|${s('функці')}|${s('функци')}|${s('відповід')}|${s('ответ')})`,
    ],
  ],
  'output-hijack': [
    [
      0.85,
      // A task set for whoever summarises or reads "this document": the reader addressed is the assistant.
      String.raw`${B}(?:when|while|if|whenever)\s+you\s+(?:summari[sz]e|process|read|index|parse|answer\s+questions\s+(?:about|on|from))\s+(?:this|the\s+present)\s+(?:document|page|file|text|article|passage|policy|section)${E}`,
    ],
    [
      0.85,
      String.raw`${B}(?:коли|якщо)\s+(?:ти\s+)?(?:підсумовуєш|переказуєш|читаєш|обробляєш|аналізуєш|відповідаєш\s+на\s+(?:запитання|питання)\s+(?:про|щодо))\s+(?:цей|цю|цього|цієї|даний)\s+(?:${s('документ')}|${s('сторін')}|файл\p{L}*|текст\p{L}*|${s('розділ')})|${B}(?:когда|если)\s+(?:ты\s+)?(?:пересказываешь|суммируешь|читаешь|обрабатываешь|анализируешь|отвечаешь\s+на\s+вопросы\s+(?:об?|по))\s+(?:этот|эту|этого|этой|этом|данный|данном)\s+(?:${s('документ')}|${s('страниц')}|файл\p{L}*|текст\p{L}*|${s('раздел')})`,
    ],
  ],
};
