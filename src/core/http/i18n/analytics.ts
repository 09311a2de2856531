import type { DocsArea } from './types.js';

const day = (date: string, scale: number) => ({
  date,
  messagesIn: 40 * scale,
  messagesOut: 38 * scale,
  tasks: { total: 40 * scale, queued: 0, running: 0, done: 39 * scale, failed: scale, timeout: 0 },
  avgDurationMs: 2300,
  p95DurationMs: 5100,
  totalTokens: 52_000 * scale,
  costUsd: 0.083 * scale,
  approvals: {
    total: 12 * scale,
    pending: 1,
    approved: 9 * scale,
    edited: scale,
    rejected: scale - 1,
    escalated: 0,
  },
  medianDecisionMs: 420_000,
  replies: 38 * scale,
  autonomousReplies: 27 * scale,
  autonomyRate: 0.710526,
  hitlReasons: [
    { reason: 'not_autonomous', count: 8 * scale },
    { reason: 'low_confidence', count: 3 * scale },
  ],
  intents: [
    { intent: 'vacation_request', count: 15 * scale },
    { intent: 'payroll_question', count: 9 * scale },
  ],
});

/** The example response of GET /analytics/dashboard (also in docs/analytics.md). */
export const DASHBOARD_EXAMPLE = {
  window: {
    from: '2026-11-21T00:00:00.000Z',
    to: '2026-11-23T00:00:00.000Z',
    departmentId: null,
  },
  messages: {
    inbound: 120,
    outbound: 114,
    byChannel: [
      { channel: 'chanA', inbound: 80, outbound: 76 },
      { channel: 'chanB', inbound: 40, outbound: 38 },
    ],
  },
  tasks: {
    total: 120,
    byStatus: { queued: 0, running: 0, done: 117, failed: 3, timeout: 0 },
    avgDurationMs: 2300,
    p95DurationMs: 5100,
  },
  usage: { inputTokens: 124_000, outputTokens: 32_000, totalTokens: 156_000, costUsd: 0.249 },
  approvals: {
    total: 36,
    byStatus: { pending: 2, approved: 27, edited: 3, rejected: 3, escalated: 1 },
    decided: 34,
    medianDecisionMs: 420_000,
  },
  autonomy: { replies: 114, autonomousReplies: 81, rate: 0.710526 },
  hitlReasons: [
    { reason: 'not_autonomous', count: 24 },
    { reason: 'low_confidence', count: 9 },
    { reason: 'first_interaction', count: 4 },
  ],
  topIntents: [
    { intent: 'vacation_request', count: 45 },
    { intent: 'payroll_question', count: 27 },
  ],
  series: [day('2026-11-21', 1), day('2026-11-22', 2)],
};

const intentDay = (date: string, scale: number) => ({
  date,
  messages: 9 * scale,
  autoSent: 7 * scale,
  decisions: 2 * scale,
});

/** The example response of GET /analytics/intents (also in docs/analytics.md). */
export const INTENT_ANALYTICS_EXAMPLE = {
  namespaceId: '4f6c1f8e-2a51-4c0e-9a39-5d0f4a1b7c21',
  days: 2,
  from: '2026-11-21T00:00:00.000Z',
  to: '2026-11-23T00:00:00.000Z',
  intents: [
    {
      intent: 'vacation_request',
      messages: 27,
      autoSent: 21,
      hitl: 6,
      reasons: { sampled: 3, low_confidence: 3 },
      decisions: { approved: 4, edited: 1, rejected: 1, escalated: 0 },
      minutesToDecision: { p50: 6.5, p90: 31.2 },
      feedback: { up: 5, down: 1 },
      trust: {
        isAutonomous: true,
        mode: 'count',
        successfulCount: 12,
        threshold: 5,
        lowerBound: 0.7413,
        neededForPromotion: 0,
      },
      minutesSaved: 63,
      evaluation: {
        runId: '9b2d7e4a-0c3f-4e8b-8f61-2a7c5d9e1b30',
        correct: 17,
        total: 20,
        at: '2026-11-20T16:04:11.000Z',
      },
      daily: [intentDay('2026-11-21', 1), intentDay('2026-11-22', 2)],
    },
  ],
};

export const analyticsDocs: DocsArea = {
  tags: {
    analytics: {
      en: 'Analytics: messages, tasks, usage, approvals and autonomy over a window, with a per-day series',
      ru: 'Аналитика: сообщения, задачи, расход, согласования и автономность за период, с рядом по дням',
      uk: 'Аналітика: повідомлення, завдання, витрати, погодження й автономність за період, з рядом по днях',
    },
  },
  operations: {
    getAnalyticsDashboard: {
      en: {
        summary: 'Get the analytics dashboard',
        description:
          'Figures over a window of at most 90 days (the last `days` days, 30 by default, or `from`/`to`) for your departments or one of them: messages in and out per channel; tasks by status with mean and 95th-percentile duration; tokens and cost; approvals by outcome with the median time to a decision; the autonomy rate (replies sent without a human over all replies); why replies went to a human; the top intents; and each of these per UTC day. A departmentId outside your departments answers 403; an empty or longer window answers 422.',
      },
      ru: {
        summary: 'Получить панель аналитики',
        description:
          'Показатели за период не более 90 дней (последние `days` дней, по умолчанию 30, или `from`/`to`) по вашим отделам или одному из них: входящие и исходящие сообщения по каналам; задачи по статусам со средней длительностью и 95-м процентилем; токены и стоимость; согласования по исходам с медианным временем до решения; доля автономности (ответы без участия человека среди всех ответов); причины передачи ответов человеку; самые частые намерения; и всё это по дням UTC. departmentId вне ваших отделов даёт 403; пустой или более длинный период — 422.',
      },
      uk: {
        summary: 'Отримати панель аналітики',
        description:
          'Показники за період не довше 90 днів (останні `days` днів, типово 30, або `from`/`to`) за вашими відділами чи одним із них: вхідні й вихідні повідомлення за каналами; завдання за статусами із середньою тривалістю та 95-м процентилем; токени й вартість; погодження за результатами з медіанним часом до рішення; частка автономності (відповіді без участі людини серед усіх відповідей); причини передачі відповідей людині; найчастіші наміри; і все це по днях UTC. departmentId поза вашими відділами дає 403; порожній або довший період — 422.',
      },
    },
    getIntentAnalytics: {
      en: {
        summary: 'Get autonomy analytics per intent',
        description:
          'Per intent of a namespace of your departments over the last `days` days (1 to 90, 30 by default): messages, replies sent without a human, replies that went to a human with the reasons, approvals by outcome, the 50th and 90th percentile of minutes to a decision, employees’ ratings, the trust evidence (mode, counts, lower bound, clean approvals still needed), minutes saved, the namespace’s latest completed evaluation run and a per-day series. Intents with a trust record but no traffic are listed with zeros. A namespace outside your departments answers 404.',
      },
      ru: {
        summary: 'Получить аналитику автономности по намерениям',
        description:
          'По каждому намерению пространства ваших отделов за последние `days` дней (от 1 до 90, по умолчанию 30): сообщения, ответы без участия человека, ответы, переданные человеку, с причинами, согласования по исходам, 50-й и 90-й процентили минут до решения, оценки сотрудников, данные доверия (режим, счётчики, нижняя граница, сколько ещё чистых одобрений нужно), сэкономленные минуты, последний завершённый прогон оценки пространства и ряд по дням. Намерения с записью доверия, но без обращений, показываются с нулями. Пространство вне ваших отделов даёт 404.',
      },
      uk: {
        summary: 'Отримати аналітику автономності за намірами',
        description:
          'За кожним наміром простору ваших відділів за останні `days` днів (від 1 до 90, типово 30): повідомлення, відповіді без участі людини, відповіді, передані людині, з причинами, погодження за результатами, 50-й і 90-й процентилі хвилин до рішення, оцінки працівників, дані довіри (режим, лічильники, нижня межа, скільки ще чистих схвалень потрібно), заощаджені хвилини, останній завершений прогін оцінювання простору й ряд по днях. Наміри із записом довіри, але без звернень, показано з нулями. Простір поза вашими відділами дає 404.',
      },
    },
  },
  fields: {
    'Namespace of one of your departments': {
      ru: 'Пространство одного из ваших отделов',
      uk: 'Простір одного з ваших відділів',
    },
    'Namespace the figures are of': {
      ru: 'Пространство, к которому относятся показатели',
      uk: 'Простір, якого стосуються показники',
    },
    'Window length in days': { ru: 'Длина периода в днях', uk: 'Довжина періоду в днях' },
    'Each intent, most messages first': {
      ru: 'Каждое намерение, начиная с самого частого',
      uk: 'Кожен намір, починаючи з найчастішого',
    },
    'Messages of the intent that day': {
      ru: 'Сообщения намерения за день',
      uk: 'Повідомлення наміру за день',
    },
    'Replies of the intent sent without a human that day': {
      ru: 'Ответы намерения без участия человека за день',
      uk: 'Відповіді наміру без участі людини за день',
    },
    'Approvals of the intent created that day and no longer pending': {
      ru: 'Согласования намерения, созданные за день и уже не ожидающие',
      uk: 'Погодження наміру, створені за день і вже не в очікуванні',
    },
    'Whether replies of the intent go out without a human': {
      ru: 'Уходят ли ответы намерения без участия человека',
      uk: 'Чи надсилаються відповіді наміру без участі людини',
    },
    'Trust mode of the namespace: count or confidence': {
      ru: 'Режим доверия пространства: count или confidence',
      uk: 'Режим довіри простору: count або confidence',
    },
    'Counted clean approvals so far': {
      ru: 'Засчитанные чистые одобрения на сейчас',
      uk: 'Зараховані чисті схвалення на зараз',
    },
    'Clean approvals the count mode needs': {
      ru: 'Сколько чистых одобрений нужно в режиме count',
      uk: 'Скільки чистих схвалень потрібно в режимі count',
    },
    'Wilson lower bound of the clean-approval rate; null when nothing was counted': {
      ru: 'Нижняя граница Уилсона доли чистых одобрений; null, если ничего не засчитано',
      uk: 'Нижня межа Вілсона частки чистих схвалень; null, якщо нічого не зараховано',
    },
    'Clean approvals in a row that would make the intent autonomous now': {
      ru: 'Сколько чистых одобрений подряд сделали бы намерение автономным сейчас',
      uk: 'Скільки чистих схвалень поспіль зробили б намір автономним зараз',
    },
    'The intent’s trust evidence; null when the intent has no trust record': {
      ru: 'Данные доверия намерения; null, если у намерения нет записи доверия',
      uk: 'Дані довіри наміру; null, якщо в наміру немає запису довіри',
    },
    'Cases in the run': { ru: 'Вопросы прогона', uk: 'Питання прогону' },
    'When the run finished': { ru: 'Когда прогон завершился', uk: 'Коли прогін завершився' },
    'The namespace’s latest completed evaluation run; null when there is none': {
      ru: 'Последний завершённый прогон оценки пространства; null, если его нет',
      uk: 'Останній завершений прогін оцінювання простору; null, якщо його немає',
    },
    'Inbound messages whose task classified the intent': {
      ru: 'Входящие сообщения, задача которых распознала намерение',
      uk: 'Вхідні повідомлення, завдання яких розпізнало намір',
    },
    'Replies of the intent sent without a human': {
      ru: 'Ответы намерения без участия человека',
      uk: 'Відповіді наміру без участі людини',
    },
    'Replies of the intent that went to a human (approvals created)': {
      ru: 'Ответы намерения, переданные человеку (созданные согласования)',
      uk: 'Відповіді наміру, передані людині (створені погодження)',
    },
    'Approvals per HITL trigger type, e.g. low_confidence': {
      ru: 'Согласования по типу триггера HITL, например low_confidence',
      uk: 'Погодження за типом тригера HITL, наприклад low_confidence',
    },
    'Approvals of the intent by outcome': {
      ru: 'Согласования намерения по исходам',
      uk: 'Погодження наміру за результатами',
    },
    'Median minutes from approval creation to decision; null without decisions': {
      ru: 'Медиана минут от создания согласования до решения; null без решений',
      uk: 'Медіана хвилин від створення погодження до рішення; null без рішень',
    },
    '90th percentile of minutes from approval creation to decision; null without decisions': {
      ru: '90-й процентиль минут от создания согласования до решения; null без решений',
      uk: '90-й процентиль хвилин від створення погодження до рішення; null без рішень',
    },
    'How long the intent’s replies waited for a human': {
      ru: 'Сколько ответы намерения ждали человека',
      uk: 'Скільки відповіді наміру чекали на людину',
    },
    'Up ratings of the intent’s replies': {
      ru: 'Положительные оценки ответов намерения',
      uk: 'Позитивні оцінки відповідей наміру',
    },
    'Down ratings of the intent’s replies': {
      ru: 'Отрицательные оценки ответов намерения',
      uk: 'Негативні оцінки відповідей наміру',
    },
    'Employees’ ratings of the intent’s replies': {
      ru: 'Оценки сотрудниками ответов намерения',
      uk: 'Оцінки працівниками відповідей наміру',
    },
    'Replies sent without a human times the namespace’s minutes per reply': {
      ru: 'Ответы без участия человека, умноженные на минуты на ответ пространства',
      uk: 'Відповіді без участі людини, помножені на хвилини на відповідь простору',
    },
    'Messages, replies without a human and decisions per UTC day': {
      ru: 'Сообщения, ответы без участия человека и решения по дням UTC',
      uk: 'Повідомлення, відповіді без участі людини й рішення по днях UTC',
    },
    'Minutes of an employee’s time one reply sent without a human saves (GET /analytics/intents); default 3':
      {
        ru: 'Сколько минут времени сотрудника экономит один ответ без участия человека (GET /analytics/intents); по умолчанию 3',
        uk: 'Скільки хвилин часу працівника заощаджує одна відповідь без участі людини (GET /analytics/intents); типово 3',
      },
    'How the autonomy analytics value the replies': {
      ru: 'Как аналитика автономности оценивает ответы',
      uk: 'Як аналітика автономності оцінює відповіді',
    },
    '95th percentile of task duration in milliseconds; null without finished tasks': {
      ru: '95-й процентиль длительности задачи в миллисекундах; null без завершённых задач',
      uk: '95-й процентиль тривалості завдання в мілісекундах; null без завершених завдань',
    },
    'Mean task duration in milliseconds; null without finished tasks': {
      ru: 'Средняя длительность задачи в миллисекундах; null без завершённых задач',
      uk: 'Середня тривалість завдання в мілісекундах; null без завершених завдань',
    },
    'Median time from approval creation to decision in milliseconds; null without decisions': {
      ru: 'Медианное время от создания согласования до решения в миллисекундах; null без решений',
      uk: 'Медіанний час від створення погодження до рішення в мілісекундах; null без рішень',
    },
    'Agent tasks': { ru: 'Задачи агента', uk: 'Завдання агента' },
    'Approvals approved': { ru: 'Одобренные согласования', uk: 'Схвалені погодження' },
    'Approvals approved with edits': {
      ru: 'Согласования, одобренные с правками',
      uk: 'Погодження, схвалені з правками',
    },
    'Approvals by outcome': { ru: 'Согласования по исходам', uk: 'Погодження за результатами' },
    'Approvals created': { ru: 'Созданные согласования', uk: 'Створені погодження' },
    'Approvals decided': { ru: 'Согласования с решением', uk: 'Погодження з рішенням' },
    'Approvals escalated': { ru: 'Эскалированные согласования', uk: 'Ескальовані погодження' },
    'Approvals pending': { ru: 'Ожидающие согласования', uk: 'Погодження, що очікують' },
    'Approvals rejected': { ru: 'Отклонённые согласования', uk: 'Відхилені погодження' },
    'Classified intent': { ru: 'Распознанное намерение', uk: 'Розпізнаний намір' },
    'Counts of the top intents, most frequent first': {
      ru: 'Количество самых частых намерений, начиная с самого частого',
      uk: 'Кількість найчастіших намірів, починаючи з найчастішого',
    },
    'HITL trigger type, e.g. low_confidence': {
      ru: 'Тип триггера HITL, например low_confidence',
      uk: 'Тип тригера HITL, наприклад low_confidence',
    },
    'How many times': { ru: 'Сколько раз', uk: 'Скільки разів' },
    'How often the assistant answered on its own': {
      ru: 'Как часто ассистент отвечал сам',
      uk: 'Як часто асистент відповідав сам',
    },
    'Human-in-the-loop approvals': {
      ru: 'Согласования с участием человека',
      uk: 'Погодження за участі людини',
    },
    'Inbound messages': { ru: 'Входящие сообщения', uk: 'Вхідні повідомлення' },
    'Outbound messages': { ru: 'Исходящие сообщения', uk: 'Вихідні повідомлення' },
    'Messages in and out': { ru: 'Входящие и исходящие сообщения', uk: 'Вхідні й вихідні повідомлення' },
    'Messages per channel': { ru: 'Сообщения по каналам', uk: 'Повідомлення за каналами' },
    'Replies sent by the assistant': {
      ru: 'Ответы, отправленные ассистентом',
      uk: 'Відповіді, надіслані асистентом',
    },
    'Replies sent without a human': {
      ru: 'Ответы, отправленные без человека',
      uk: 'Відповіді, надіслані без людини',
    },
    'Replies sent without a human over all replies; null without replies': {
      ru: 'Доля ответов без человека среди всех ответов; null без ответов',
      uk: 'Частка відповідей без людини серед усіх відповідей; null без відповідей',
    },
    'Tasks by status': { ru: 'Задачи по статусам', uk: 'Завдання за статусами' },
    'Tasks created': { ru: 'Созданные задачи', uk: 'Створені завдання' },
    'Tasks done': { ru: 'Выполненные задачи', uk: 'Виконані завдання' },
    'Tasks failed': { ru: 'Задачи с ошибкой', uk: 'Завдання з помилкою' },
    'Tasks queued': { ru: 'Задачи в очереди', uk: 'Завдання в черзі' },
    'Tasks running': { ru: 'Выполняемые задачи', uk: 'Завдання, що виконуються' },
    'Tasks timed out': { ru: 'Задачи с истёкшим временем', uk: 'Завдання з вичерпаним часом' },
    'The same figures per UTC day, oldest first': {
      ru: 'Те же показатели по дням UTC, начиная с самого раннего',
      uk: 'Ті самі показники по днях UTC, починаючи з найранішого',
    },
    'The ten most frequent intents': {
      ru: 'Десять самых частых намерений',
      uk: 'Десять найчастіших намірів',
    },
    'Tokens and cost of the tasks': { ru: 'Токены и стоимость задач', uk: 'Токени й вартість завдань' },
    'UTC day': { ru: 'День по UTC', uk: 'День за UTC' },
    'What the figures cover: created in [from, to)': {
      ru: 'Что охватывают показатели: созданное в [from, to)',
      uk: 'Що охоплюють показники: створене в [from, to)',
    },
    'Why replies went to a human, most frequent first': {
      ru: 'Почему ответы переданы человеку, начиная с самой частой причины',
      uk: 'Чому відповіді передано людині, починаючи з найчастішої причини',
    },
    'Window end': { ru: 'Конец периода', uk: 'Кінець періоду' },
    'Window end (default now)': {
      ru: 'Конец периода (по умолчанию сейчас)',
      uk: 'Кінець періоду (типово зараз)',
    },
    'Window length in days up to now (default 30)': {
      ru: 'Длина периода в днях до текущего момента (по умолчанию 30)',
      uk: 'Довжина періоду в днях до поточного моменту (типово 30)',
    },
    'Window start': { ru: 'Начало периода', uk: 'Початок періоду' },
    'Window start; overrides days': {
      ru: 'Начало периода; заменяет days',
      uk: 'Початок періоду; замінює days',
    },
  },
  examples: {
    getAnalyticsDashboard: { response: DASHBOARD_EXAMPLE },
    getIntentAnalytics: { response: INTENT_ANALYTICS_EXAMPLE },
  },
};
