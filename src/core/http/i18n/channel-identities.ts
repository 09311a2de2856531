import type { DocsArea } from './types.js';

/** Channel identities and link codes (routes under /users/:id and /me), and the user's language. */
export const channelIdentitiesDocs: DocsArea = {
  tags: {},
  operations: {
    setMyApprovalChannels: {
      en: {
        summary: 'Choose where I receive approval requests',
        description:
          'Needs canApprove. Approval requests then also reach you as chat messages on these channels, with buttons to decide there. Each channel needs an identity linked to you (422 otherwise: link one with POST /me/channel-link-codes); an empty list stops them. Unlinking an identity removes its channel from the list. GET /me shows the list as approvalChannels.',
      },
      ru: {
        summary: 'Выбрать, где получать запросы на одобрение',
        description:
          'Требуется право canApprove. Запросы на одобрение будут приходить и сообщениями в этих каналах, с кнопками для решения прямо там. Для каждого канала нужна привязанная к вам идентичность (иначе 422: привяжите её через POST /me/channel-link-codes); пустой список отключает их. Отвязка идентичности убирает её канал из списка. GET /me показывает список как approvalChannels.',
      },
      uk: {
        summary: 'Обрати, де отримувати запити на погодження',
        description:
          'Потрібне право canApprove. Запити на погодження надходитимуть і повідомленнями в цих каналах, з кнопками для рішення просто там. Для кожного каналу потрібна прив’язана до вас ідентичність (інакше 422: прив’яжіть її через POST /me/channel-link-codes); порожній список вимикає їх. Відв’язування ідентичності прибирає її канал зі списку. GET /me показує список як approvalChannels.',
      },
    },
    listUserChannelIdentities: {
      en: {
        summary: 'List a user’s channel identities',
        description:
          'Needs canManageUsers; the user must be in one of your departments (404 otherwise). Answers the messaging accounts linked to the user, at most one per channel: chanA holds the WhatsApp id, chanB the Telegram user id.',
      },
      ru: {
        summary: 'Список идентичностей пользователя в каналах',
        description:
          'Требуется право canManageUsers; пользователь должен быть в одном из ваших отделов (иначе 404). Возвращает привязанные к пользователю учётные записи мессенджеров, не больше одной на канал: в chanA — идентификатор WhatsApp, в chanB — идентификатор пользователя Telegram.',
      },
      uk: {
        summary: 'Список ідентичностей користувача в каналах',
        description:
          'Потрібне право canManageUsers; користувач має бути в одному з ваших відділів (інакше 404). Повертає прив’язані до користувача облікові записи месенджерів, не більше одного на канал: у chanA — ідентифікатор WhatsApp, у chanB — ідентифікатор користувача Telegram.',
      },
    },
    setUserChannelIdentity: {
      en: {
        summary: 'Link a channel identity to a user',
        description:
          'Needs canManageUsers; the user must be in one of your departments (404 otherwise). Messages from this sender then reach the assistant of the user’s department. Replaces the user’s earlier identity on the channel. When a placeholder user (created for an unlinked sender) holds the identity, it moves to this user and the placeholder is merged into it, conversations kept. 409 when another real user holds it; 422 for an id the channel does not use (chanA: 8 to 15 digits, optional leading +; chanB: a positive integer).',
      },
      ru: {
        summary: 'Привязать идентичность в канале к пользователю',
        description:
          'Требуется право canManageUsers; пользователь должен быть в одном из ваших отделов (иначе 404). Сообщения этого отправителя затем попадают к ассистенту отдела пользователя. Заменяет прежнюю идентичность пользователя в этом канале. Если идентичность принадлежит пользователю-заглушке (созданному для непривязанного отправителя), она переходит к этому пользователю, а заглушка сливается с ним, разговоры сохраняются. 409, если она принадлежит другому настоящему пользователю; 422 для идентификатора, который канал не использует (chanA: от 8 до 15 цифр, в начале можно +; chanB: положительное целое число).',
      },
      uk: {
        summary: 'Прив’язати ідентичність у каналі до користувача',
        description:
          'Потрібне право canManageUsers; користувач має бути в одному з ваших відділів (інакше 404). Повідомлення цього відправника потім потрапляють до асистента відділу користувача. Замінює попередню ідентичність користувача в цьому каналі. Якщо ідентичність належить користувачеві-заглушці (створеному для неприв’язаного відправника), вона переходить до цього користувача, а заглушка зливається з ним, розмови зберігаються. 409, якщо вона належить іншому справжньому користувачеві; 422 для ідентифікатора, який канал не використовує (chanA: від 8 до 15 цифр, на початку можна +; chanB: додатне ціле число).',
      },
    },
    deleteUserChannelIdentity: {
      en: {
        summary: 'Unlink a user’s channel identity',
        description:
          'Needs canManageUsers; the user must be in one of your departments. Removes the user’s identity on the channel (404 when there is none); the sender’s open conversation is closed.',
      },
      ru: {
        summary: 'Отвязать идентичность пользователя в канале',
        description:
          'Требуется право canManageUsers; пользователь должен быть в одном из ваших отделов. Удаляет идентичность пользователя в канале (404, если её нет); открытый разговор отправителя закрывается.',
      },
      uk: {
        summary: 'Відв’язати ідентичність користувача в каналі',
        description:
          'Потрібне право canManageUsers; користувач має бути в одному з ваших відділів. Видаляє ідентичність користувача в каналі (404, якщо її немає); відкрита розмова відправника закривається.',
      },
    },
    listMyChannelIdentities: {
      en: {
        summary: 'List my channel identities',
        description: 'The messaging accounts linked to you, at most one per channel.',
      },
      ru: {
        summary: 'Список моих идентичностей в каналах',
        description: 'Привязанные к вам учётные записи мессенджеров, не больше одной на канал.',
      },
      uk: {
        summary: 'Список моїх ідентичностей у каналах',
        description: 'Прив’язані до вас облікові записи месенджерів, не більше одного на канал.',
      },
    },
    deleteMyChannelIdentity: {
      en: {
        summary: 'Unlink my channel identity',
        description:
          'Removes your identity on the channel (404 when there is none); that account’s open conversation is closed.',
      },
      ru: {
        summary: 'Отвязать мою идентичность в канале',
        description:
          'Удаляет вашу идентичность в канале (404, если её нет); открытый разговор этой учётной записи закрывается.',
      },
      uk: {
        summary: 'Відв’язати мою ідентичність у каналі',
        description:
          'Видаляє вашу ідентичність у каналі (404, якщо її немає); відкрита розмова цього облікового запису закривається.',
      },
    },
    createChannelLinkCode: {
      en: {
        summary: 'Create a link code',
        description:
          'A one-time code, valid 15 minutes, that links the messaging account sending it to you: send `/start <code>` to the bot (chanB; deepLink opens the bot with it) or the code alone to the chanA number. A new code replaces your previous one for the channel; only its hash is stored. After 5 wrong codes in 15 minutes a sender is refused for a while.',
      },
      ru: {
        summary: 'Создать код привязки',
        description:
          'Одноразовый код на 15 минут, который привязывает к вам учётную запись мессенджера, отправившую его: отправьте боту `/start <код>` (chanB; deepLink открывает бота с кодом) или сам код на номер chanA. Новый код заменяет ваш прежний для этого канала; хранится только его хеш. После 5 неверных кодов за 15 минут отправителю на время отказывают.',
      },
      uk: {
        summary: 'Створити код прив’язки',
        description:
          'Одноразовий код на 15 хвилин, який прив’язує до вас обліковий запис месенджера, що його надіслав: надішліть ботові `/start <код>` (chanB; deepLink відкриває бота з кодом) або сам код на номер chanA. Новий код замінює ваш попередній для цього каналу; зберігається лише його геш. Після 5 неправильних кодів за 15 хвилин відправникові на деякий час відмовляють.',
      },
    },
    updateMe: {
      en: {
        summary: 'Update the current user',
        description:
          'Sets your language (en, uk or ru; null clears it): the language of what the service writes to you unprompted, such as link confirmations. Answers the same body as GET /me.',
      },
      ru: {
        summary: 'Изменить текущего пользователя',
        description:
          'Задаёт ваш язык (en, uk или ru; null сбрасывает его): язык того, что сервис пишет вам сам, например подтверждений привязки. Возвращает то же, что GET /me.',
      },
      uk: {
        summary: 'Змінити поточного користувача',
        description:
          'Задає вашу мову (en, uk або ru; null скидає її): мову того, що сервіс пише вам сам, наприклад підтверджень прив’язки. Повертає те саме, що GET /me.',
      },
    },
  },
  fields: {
    'Where to receive approval requests; an empty list turns them off': {
      ru: 'Где получать запросы на одобрение; пустой список их отключает',
      uk: 'Де отримувати запити на погодження; порожній список їх вимикає',
    },
    'The channels where approval requests reach the user, chanA before chanB': {
      ru: 'Каналы, в которые пользователю приходят запросы на одобрение, chanA перед chanB',
      uk: 'Канали, у які користувачу надходять запити на погодження, chanA перед chanB',
    },
    'The chat channels where approval requests reach the user (PUT /me/approval-channels)': {
      ru: 'Каналы чатов, в которые пользователю приходят запросы на одобрение (PUT /me/approval-channels)',
      uk: 'Канали чатів, у які користувачу надходять запити на погодження (PUT /me/approval-channels)',
    },
    'The messaging channel: chanA (the WhatsApp Cloud API protocol) or chanB (the Telegram Bot API protocol)':
      {
        ru: 'Канал сообщений: chanA (протокол WhatsApp Cloud API) или chanB (протокол Telegram Bot API)',
        uk: 'Канал повідомлень: chanA (протокол WhatsApp Cloud API) або chanB (протокол Telegram Bot API)',
      },
    'The sender on that channel: chanA the WhatsApp id (E.164 digits), chanB the Telegram user id': {
      ru: 'Отправитель в этом канале: в chanA — идентификатор WhatsApp (цифры E.164), в chanB — идентификатор пользователя Telegram',
      uk: 'Відправник у цьому каналі: у chanA — ідентифікатор WhatsApp (цифри E.164), у chanB — ідентифікатор користувача Telegram',
    },
    'When the identity was linked': {
      ru: 'Когда идентичность привязана',
      uk: 'Коли ідентичність прив’язано',
    },
    'At most one identity per channel': {
      ru: 'Не больше одной идентичности на канал',
      uk: 'Не більше однієї ідентичності на канал',
    },
    'chanA: the WhatsApp id, 8 to 15 digits of an E.164 number (a leading + is dropped); chanB: the Telegram numeric user id':
      {
        ru: 'chanA: идентификатор WhatsApp, от 8 до 15 цифр номера E.164 (+ в начале отбрасывается); chanB: числовой идентификатор пользователя Telegram',
        uk: 'chanA: ідентифікатор WhatsApp, від 8 до 15 цифр номера E.164 (+ на початку відкидається); chanB: числовий ідентифікатор користувача Telegram',
      },
    'The one-time code: 8 characters to send to the bot or the channel A number; shown once': {
      ru: 'Одноразовый код: 8 символов, которые нужно отправить боту или на номер канала A; показывается один раз',
      uk: 'Одноразовий код: 8 символів, які треба надіслати ботові або на номер каналу A; показується один раз',
    },
    'When the code stops working (15 minutes after it was made)': {
      ru: 'Когда код перестаёт действовать (через 15 минут после создания)',
      uk: 'Коли код перестає діяти (через 15 хвилин після створення)',
    },
    'chanB only: a link that opens the bot with the code; absent when the bot’s username is unknown': {
      ru: 'Только chanB: ссылка, открывающая бота с кодом; отсутствует, если имя бота неизвестно',
      uk: 'Лише chanB: посилання, що відкриває бота з кодом; відсутнє, якщо ім’я бота невідоме',
    },
    'en, uk or ru: the language of what the service writes to the user unprompted': {
      ru: 'en, uk или ru: язык того, что сервис пишет пользователю сам',
      uk: 'en, uk або ru: мова того, що сервіс пише користувачеві сам',
    },
  },
  examples: {
    setUserChannelIdentity: {
      request: { channelUserId: '380501234567' },
      response: { channel: 'chanA', channelUserId: '380501234567', createdAt: '2026-11-28T09:30:00.000Z' },
    },
    createChannelLinkCode: {
      request: { channel: 'chanB' },
      response: {
        code: '7K3Q9TXM',
        expiresAt: '2026-11-28T09:45:00.000Z',
        deepLink: 'https://t.me/company_assistant_bot?start=7K3Q9TXM',
      },
    },
    updateMe: { request: { language: 'uk' } },
  },
  responses: {
    setUserChannelIdentity: {
      409: {
        en: 'Another user who is not a placeholder holds this identity',
        ru: 'Эта идентичность принадлежит другому пользователю, который не заглушка',
        uk: 'Ця ідентичність належить іншому користувачеві, який не є заглушкою',
      },
    },
    deleteUserChannelIdentity: {
      404: {
        en: 'No such user in your departments, or the user has no identity on the channel',
        ru: 'Такого пользователя нет в ваших отделах или у него нет идентичности в этом канале',
        uk: 'Такого користувача немає у ваших відділах або в нього немає ідентичності в цьому каналі',
      },
    },
    deleteMyChannelIdentity: {
      404: {
        en: 'You have no identity on the channel',
        ru: 'У вас нет идентичности в этом канале',
        uk: 'У вас немає ідентичності в цьому каналі',
      },
    },
  },
};
