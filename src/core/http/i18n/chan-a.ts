import type { DocsArea } from './types.js';

/** Channel A (the WhatsApp Cloud API protocol): its webhook and its status. */
export const chanADocs: DocsArea = {
  tags: {
    channels: {
      en: 'Messaging channels: webhooks and connection status',
      ru: 'Каналы сообщений: вебхуки и состояние подключения',
      uk: 'Канали повідомлень: вебхуки та стан підключення',
    },
  },
  operations: {
    verifyChanAWebhook: {
      en: {
        summary: 'Verify the channel A webhook',
        description:
          'The platform’s subscription handshake: with hub.mode=subscribe and hub.verify_token equal to CHANA_WEBHOOK_VERIFY_TOKEN, answers hub.challenge as plain text. Any other request, or no token configured, answers 403. No authentication.',
      },
      ru: {
        summary: 'Подтвердить вебхук канала A',
        description:
          'Проверка подписки со стороны платформы: при hub.mode=subscribe и hub.verify_token, равном CHANA_WEBHOOK_VERIFY_TOKEN, возвращает hub.challenge простым текстом. Любой другой запрос, а также отсутствие настроенного токена дают 403. Аутентификация не нужна.',
      },
      uk: {
        summary: 'Підтвердити вебхук каналу A',
        description:
          'Перевірка підписки з боку платформи: за hub.mode=subscribe і hub.verify_token, що дорівнює CHANA_WEBHOOK_VERIFY_TOKEN, повертає hub.challenge простим текстом. Будь-який інший запит, а також відсутність налаштованого токена дають 403. Автентифікація не потрібна.',
      },
    },
    receiveChanAWebhook: {
      en: {
        summary: 'Receive channel A messages and receipts',
        description:
          'The platform posts inbound messages and delivery receipts here (WhatsApp Cloud API payloads). The X-Hub-Signature-256 header must be the HMAC-SHA256 of the raw body under CHANA_APP_SECRET, else 401 and nothing is stored; without CHANA_APP_SECRET every POST answers 503 (unless CHANA_ALLOW_UNSIGNED=true, for local testing). A body that is not JSON answers 400. Each message and receipt is queued on chanA-inbound and processed asynchronously; the answer is { received: true } at once, also for JSON that holds nothing to process. A repeated message id is processed once. No authentication.',
      },
      ru: {
        summary: 'Принять сообщения и отчёты о доставке канала A',
        description:
          'Платформа присылает сюда входящие сообщения и отчёты о доставке (формат WhatsApp Cloud API). Заголовок X-Hub-Signature-256 должен содержать HMAC-SHA256 исходного тела с ключом CHANA_APP_SECRET, иначе 401 и ничего не сохраняется; без CHANA_APP_SECRET любой запрос получает 503 (кроме режима CHANA_ALLOW_UNSIGNED=true для локальной проверки). Тело, которое не является JSON, получает 400. Каждое сообщение и отчёт ставятся в очередь chanA-inbound и обрабатываются асинхронно; ответ { received: true } приходит сразу, в том числе для JSON без содержимого для обработки. Повторный идентификатор сообщения обрабатывается один раз. Аутентификация не нужна.',
      },
      uk: {
        summary: 'Прийняти повідомлення та звіти про доставку каналу A',
        description:
          'Платформа надсилає сюди вхідні повідомлення та звіти про доставку (формат WhatsApp Cloud API). Заголовок X-Hub-Signature-256 має містити HMAC-SHA256 початкового тіла з ключем CHANA_APP_SECRET, інакше 401 і нічого не зберігається; без CHANA_APP_SECRET кожен запит отримує 503 (крім режиму CHANA_ALLOW_UNSIGNED=true для локальної перевірки). Тіло, яке не є JSON, отримує 400. Кожне повідомлення та звіт ставляться в чергу chanA-inbound і обробляються асинхронно; відповідь { received: true } надходить одразу, зокрема для JSON без вмісту для обробки. Повторний ідентифікатор повідомлення обробляється один раз. Автентифікація не потрібна.',
      },
    },
    getChanAStatus: {
      en: {
        summary: 'Get the channel A status',
        description:
          'Whether channel A can send (CHANA_PHONE_NUMBER_ID and CHANA_ACCESS_TOKEN set), the phone-number id, when the stored access token expires and whether it is the configured one or a long-lived token exchanged since, when the last message came in and when the platform last accepted a reply, and the job counts of chanA-inbound and chanA-outbound (delayed jobs are rate-limited or retried replies). The token itself is never returned. Needs canEditSettings.',
      },
      ru: {
        summary: 'Получить состояние канала A',
        description:
          'Может ли канал A отправлять (заданы CHANA_PHONE_NUMBER_ID и CHANA_ACCESS_TOKEN), идентификатор номера телефона, когда истекает сохранённый токен доступа и является ли он заданным в настройках или полученным с тех пор долгоживущим, когда пришло последнее сообщение и когда платформа последний раз приняла ответ, а также число заданий в chanA-inbound и chanA-outbound (отложенные задания — это ответы, ждущие из-за ограничения частоты или повтора). Сам токен никогда не возвращается. Нужно право canEditSettings.',
      },
      uk: {
        summary: 'Отримати стан каналу A',
        description:
          'Чи може канал A надсилати (задано CHANA_PHONE_NUMBER_ID і CHANA_ACCESS_TOKEN), ідентифікатор номера телефону, коли спливає збережений токен доступу та чи це токен із налаштувань, чи довготривалий, отриманий відтоді, коли надійшло останнє повідомлення та коли платформа востаннє прийняла відповідь, а також кількість завдань у chanA-inbound і chanA-outbound (відкладені завдання — це відповіді, що чекають через обмеження частоти або повтор). Сам токен ніколи не повертається. Потрібне право canEditSettings.',
      },
    },
  },
  fields: {
    'Always subscribe in a handshake': {
      ru: 'При проверке подписки всегда subscribe',
      uk: 'Під час перевірки підписки завжди subscribe',
    },
    'The token set as CHANA_WEBHOOK_VERIFY_TOKEN': {
      ru: 'Токен, заданный в CHANA_WEBHOOK_VERIFY_TOKEN',
      uk: 'Токен, заданий у CHANA_WEBHOOK_VERIFY_TOKEN',
    },
    'Echoed back as the response body when the token matches': {
      ru: 'Возвращается телом ответа, если токен совпал',
      uk: 'Повертається тілом відповіді, якщо токен збігся',
    },
    'The hub.challenge value, as plain text': {
      ru: 'Значение hub.challenge простым текстом',
      uk: 'Значення hub.challenge простим текстом',
    },
    'messages for messages and receipts': {
      ru: 'messages для сообщений и отчётов о доставке',
      uk: 'messages для повідомлень і звітів про доставку',
    },
    'metadata.phone_number_id, contacts[] (profile names), messages[] (inbound messages) and statuses[] (receipts of sent messages)':
      {
        ru: 'metadata.phone_number_id, contacts[] (имена профилей), messages[] (входящие сообщения) и statuses[] (отчёты о доставке отправленных сообщений)',
        uk: 'metadata.phone_number_id, contacts[] (імена профілів), messages[] (вхідні повідомлення) і statuses[] (звіти про доставку надісланих повідомлень)',
      },
    'Always whatsapp_business_account': {
      ru: 'Всегда whatsapp_business_account',
      uk: 'Завжди whatsapp_business_account',
    },
    'The business account id': {
      ru: 'Идентификатор бизнес-аккаунта',
      uk: 'Ідентифікатор бізнес-акаунта',
    },
    'Always true: the payload was taken, processing follows': {
      ru: 'Всегда true: данные приняты, обработка последует',
      uk: 'Завжди true: дані прийнято, обробка відбудеться далі',
    },
    'Jobs waiting to run': { ru: 'Задания, ждущие запуска', uk: 'Завдання, що чекають на запуск' },
    'Jobs waiting for their time: rate-limited or retried messages': {
      ru: 'Задания, ждущие своего времени: сообщения, отложенные ограничением частоты или повтором',
      uk: 'Завдання, що чекають свого часу: повідомлення, відкладені обмеженням частоти або повтором',
    },
    'Jobs running now': { ru: 'Задания, выполняемые сейчас', uk: 'Завдання, що виконуються зараз' },
    'Jobs finished and still kept': {
      ru: 'Завершённые задания, которые ещё хранятся',
      uk: 'Завершені завдання, що ще зберігаються',
    },
    'Jobs that failed their last try and are still kept': {
      ru: 'Задания, провалившие последнюю попытку, которые ещё хранятся',
      uk: 'Завдання, що провалили останню спробу та ще зберігаються',
    },
    'Whether channel A can send: CHANA_PHONE_NUMBER_ID and CHANA_ACCESS_TOKEN are set': {
      ru: 'Может ли канал A отправлять: заданы CHANA_PHONE_NUMBER_ID и CHANA_ACCESS_TOKEN',
      uk: 'Чи може канал A надсилати: задано CHANA_PHONE_NUMBER_ID і CHANA_ACCESS_TOKEN',
    },
    'The sending phone-number id (CHANA_PHONE_NUMBER_ID); null when unset': {
      ru: 'Идентификатор номера телефона отправителя (CHANA_PHONE_NUMBER_ID); null, если не задан',
      uk: 'Ідентифікатор номера телефону відправника (CHANA_PHONE_NUMBER_ID); null, якщо не задано',
    },
    'When the stored access token expires; null when unknown (such a token is not exchanged)': {
      ru: 'Когда истекает сохранённый токен доступа; null, если неизвестно (такой токен не обменивается)',
      uk: 'Коли спливає збережений токен доступу; null, якщо невідомо (такий токен не обмінюється)',
    },
    'configured (the stored token is CHANA_ACCESS_TOKEN), exchanged (a long-lived token obtained since) or none':
      {
        ru: 'configured (сохранён токен из CHANA_ACCESS_TOKEN), exchanged (получен долгоживущий токен) или none (токена нет)',
        uk: 'configured (збережено токен із CHANA_ACCESS_TOKEN), exchanged (отримано довготривалий токен) або none (токена немає)',
      },
    'When the last inbound message was taken in; null when none yet': {
      ru: 'Когда принято последнее входящее сообщение; null, если их ещё не было',
      uk: 'Коли прийнято останнє вхідне повідомлення; null, якщо їх ще не було',
    },
    'When the platform last accepted a reply; null when none yet': {
      ru: 'Когда платформа последний раз приняла ответ; null, если ещё ни разу',
      uk: 'Коли платформа востаннє прийняла відповідь; null, якщо ще жодного разу',
    },
    'Job counts of the channel A queues, by state': {
      ru: 'Число заданий в очередях канала A по состояниям',
      uk: 'Кількість завдань у чергах каналу A за станами',
    },
  },
  responses: {
    verifyChanAWebhook: {
      200: {
        en: 'The token matches: the challenge, as plain text',
        ru: 'Токен совпал: значение challenge простым текстом',
        uk: 'Токен збігся: значення challenge простим текстом',
      },
      403: {
        en: 'Not a subscribe handshake, a wrong verify token, or no token configured',
        ru: 'Не запрос подписки, неверный токен проверки или токен не настроен',
        uk: 'Не запит підписки, хибний токен перевірки або токен не налаштовано',
      },
    },
    receiveChanAWebhook: {
      200: {
        en: 'Taken: every message and receipt is queued (JSON that is not a webhook payload is logged and dropped)',
        ru: 'Принято: каждое сообщение и отчёт поставлены в очередь (JSON другого формата записывается в журнал и отбрасывается)',
        uk: 'Прийнято: кожне повідомлення та звіт поставлено в чергу (JSON іншого формату записується в журнал і відкидається)',
      },
      400: {
        en: 'The signature matches but the body is not valid JSON; nothing is queued',
        ru: 'Подпись верна, но тело не является корректным JSON; ничего не поставлено в очередь',
        uk: 'Підпис правильний, але тіло не є коректним JSON; нічого не поставлено в чергу',
      },
      401: {
        en: 'The X-Hub-Signature-256 header is missing or does not match the body under CHANA_APP_SECRET',
        ru: 'Заголовок X-Hub-Signature-256 отсутствует или не соответствует телу с ключом CHANA_APP_SECRET',
        uk: 'Заголовок X-Hub-Signature-256 відсутній або не відповідає тілу з ключем CHANA_APP_SECRET',
      },
      503: {
        en: 'CHANA_APP_SECRET is not configured (and CHANA_ALLOW_UNSIGNED is not set), or the queue could not take the payload; the platform delivers it again later',
        ru: 'CHANA_APP_SECRET не настроен (и не задан CHANA_ALLOW_UNSIGNED), или очередь не смогла принять данные; платформа доставит их повторно позже',
        uk: 'CHANA_APP_SECRET не налаштовано (і не задано CHANA_ALLOW_UNSIGNED), або черга не змогла прийняти дані; платформа доставить їх повторно пізніше',
      },
    },
  },
  examples: {
    verifyChanAWebhook: { response: '1158201444' },
    receiveChanAWebhook: {
      request: {
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '102290129340398',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
                  contacts: [{ profile: { name: 'Olena Kovalenko' }, wa_id: '380501234567' }],
                  messages: [
                    {
                      from: '380501234567',
                      id: 'wamid.HBgMMzgwNTAxMjM0NTY3FQIAEhggQjNDRjY1RkM2',
                      timestamp: '1763900000',
                      type: 'text',
                      text: { body: 'How many vacation days do I have left?' },
                    },
                  ],
                },
              },
            ],
          },
        ],
      },
      response: { received: true },
    },
    getChanAStatus: {
      response: {
        configured: true,
        phoneNumberId: '106540352242922',
        tokenExpiresAt: '2027-01-22T09:00:00.000Z',
        tokenSource: 'exchanged',
        lastInboundAt: '2026-11-23T08:58:12.000Z',
        lastOutboundAt: '2026-11-23T08:58:20.000Z',
        queues: {
          'chanA-inbound': { waiting: 0, delayed: 0, active: 0, completed: 42, failed: 0 },
          'chanA-outbound': { waiting: 0, delayed: 3, active: 1, completed: 40, failed: 0 },
        },
      },
    },
  },
};
