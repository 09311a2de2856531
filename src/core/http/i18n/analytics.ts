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
  },
  fields: {
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
  examples: { getAnalyticsDashboard: { response: DASHBOARD_EXAMPLE } },
};
