import type { DocsArea } from './types.js';

const counts = { waiting: 0, delayed: 1, active: 0, completed: 42, failed: 0 };

/** Channel B (the Telegram Bot API protocol): its status. The `channels` tag is described in chan-a.ts. */
export const chanBDocs: DocsArea = {
  tags: {},
  operations: {
    getChanBStatus: {
      en: {
        summary: 'Get the channel B status',
        description:
          'The bot channel’s state for operators: whether CHANB_BOT_TOKEN is set (configured), the bot’s username from getMe, what the long-poller does (polling, backing_off after a failed call such as a 409 Conflict, standby while a worker waits for the poller lock, stopped when no worker polls or the channel is not configured), the worker id holding the lock, the last update enqueued, the last failed call to the platform, and the job counts of chanB-inbound and chanB-outbound. The token is never shown. Requires canEditSettings.',
      },
      ru: {
        summary: 'Получить состояние канала B',
        description:
          'Состояние канала бота для операторов: задан ли CHANB_BOT_TOKEN (configured), имя бота из getMe, чем занят long-polling (polling — опрашивает, backing_off — ждёт после неудачного вызова, например 409 Conflict, standby — процесс ждёт блокировку опроса, stopped — никто не опрашивает или канал не настроен), идентификатор процесса, держащего блокировку, последнее поставленное в очередь обновление, последний неудачный вызов платформы и число задач в chanB-inbound и chanB-outbound. Токен никогда не показывается. Нужно право canEditSettings.',
      },
      uk: {
        summary: 'Отримати стан каналу B',
        description:
          'Стан каналу бота для операторів: чи задано CHANB_BOT_TOKEN (configured), ім’я бота з getMe, чим зайнятий long-polling (polling — опитує, backing_off — чекає після невдалого виклику, наприклад 409 Conflict, standby — процес чекає на блокування опитування, stopped — ніхто не опитує або канал не налаштовано), ідентифікатор процесу, що тримає блокування, останнє поставлене в чергу оновлення, останній невдалий виклик платформи та кількість завдань у chanB-inbound і chanB-outbound. Токен ніколи не показується. Потрібне право canEditSettings.',
      },
    },
  },
  fields: {
    'Channel B jobs waiting to run': {
      ru: 'Задачи канала B, ожидающие запуска',
      uk: 'Завдання каналу B, що чекають на запуск',
    },
    'Channel B jobs waiting for their time (rate-limited or retried)': {
      ru: 'Задачи канала B, ожидающие своего времени (ограничение частоты или повтор)',
      uk: 'Завдання каналу B, що чекають свого часу (обмеження частоти або повтор)',
    },
    'Channel B jobs running now': {
      ru: 'Задачи канала B, выполняемые сейчас',
      uk: 'Завдання каналу B, що виконуються зараз',
    },
    'Channel B jobs finished and still kept': {
      ru: 'Завершённые задачи канала B, которые ещё хранятся',
      uk: 'Завершені завдання каналу B, які ще зберігаються',
    },
    'Channel B jobs that failed their last try and are still kept': {
      ru: 'Задачи канала B, не удавшиеся с последней попытки и ещё хранящиеся',
      uk: 'Завдання каналу B, що не вдалися з останньої спроби і ще зберігаються',
    },
    'Whether CHANB_BOT_TOKEN is set; without it nothing polls or sends': {
      ru: 'Задан ли CHANB_BOT_TOKEN; без него ничего не опрашивается и не отправляется',
      uk: 'Чи задано CHANB_BOT_TOKEN; без нього нічого не опитується й не надсилається',
    },
    'The bot’s username as getMe answers it; null when not configured or not reachable': {
      ru: 'Имя бота, как его возвращает getMe; null, если канал не настроен или недоступен',
      uk: 'Ім’я бота, як його повертає getMe; null, якщо канал не налаштовано або він недоступний',
    },
    'polling (a worker holds the lock and long-polls), backing_off (it waits after a failed call), standby (a worker waits for the lock) or stopped (no worker polls, or not configured)':
      {
        ru: 'polling (процесс держит блокировку и опрашивает), backing_off (ждёт после неудачного вызова), standby (процесс ждёт блокировку) или stopped (никто не опрашивает или канал не настроен)',
        uk: 'polling (процес тримає блокування й опитує), backing_off (чекає після невдалого виклику), standby (процес чекає на блокування) або stopped (ніхто не опитує або канал не налаштовано)',
      },
    'Worker id (hostname-pid-random) of the process holding the poller lock; null when none': {
      ru: 'Идентификатор процесса (hostname-pid-random), держащего блокировку опроса; null, если такого нет',
      uk: 'Ідентифікатор процесу (hostname-pid-random), що тримає блокування опитування; null, якщо такого немає',
    },
    'The last update enqueued on chanB-inbound; null when none yet': {
      ru: 'Последнее обновление, поставленное в chanB-inbound; null, если их ещё не было',
      uk: 'Останнє оновлення, поставлене в chanB-inbound; null, якщо їх ще не було',
    },
    'The platform’s error code and description (a 409 Conflict, 401, network error)': {
      ru: 'Код и описание ошибки платформы (409 Conflict, 401, сетевая ошибка)',
      uk: 'Код і опис помилки платформи (409 Conflict, 401, мережева помилка)',
    },
    'When the call failed': { ru: 'Когда вызов не удался', uk: 'Коли виклик не вдався' },
    'The last failed call to the platform; null when none': {
      ru: 'Последний неудачный вызов платформы; null, если таких не было',
      uk: 'Останній невдалий виклик платформи; null, якщо таких не було',
    },
    'Job counts of the channel B queues, by state': {
      ru: 'Число задач в очередях канала B по состояниям',
      uk: 'Кількість завдань у чергах каналу B за станами',
    },
  },
  examples: {
    getChanBStatus: {
      response: {
        configured: true,
        botUsername: 'acme_assistant_bot',
        polling: 'polling',
        lockHolder: 'worker-1-4821-a1b2c3',
        lastUpdateId: 815_240_117,
        lastError: {
          message:
            '409: Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
          at: '2026-01-15T09:30:00.000Z',
        },
        queues: { 'chanB-inbound': { ...counts, delayed: 0 }, 'chanB-outbound': counts },
      },
    },
  },
};
