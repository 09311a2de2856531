import type { DocsArea } from './types.js';

export const auditDocs: DocsArea = {
  tags: {
    audit: {
      en: 'The audit log of every change made through the API',
      ru: 'Журнал аудита всех изменений, сделанных через API',
      uk: 'Журнал аудиту всіх змін, зроблених через API',
    },
  },
  operations: {
    listAuditLogs: {
      en: {
        summary: 'List audit entries',
        description:
          'Needs canViewAudit. Newest first. Filters: action, entityType, userId, and also entityId, from and to. A non-global caller sees only entries made by users whose primary department is one of theirs. Secrets in changes are always "[REDACTED]".',
      },
      ru: {
        summary: 'Список записей аудита',
        description:
          'Требуется право canViewAudit. Сначала новые. Фильтры: action, entityType, userId, а также entityId, from и to. Неглобальный пользователь видит только записи пользователей, чей основной отдел входит в его отделы. Секреты в changes всегда заменены на "[REDACTED]".',
      },
      uk: {
        summary: 'Список записів аудиту',
        description:
          'Потрібне право canViewAudit. Спочатку нові. Фільтри: action, entityType, userId, а також entityId, from і to. Неглобальний користувач бачить лише записи користувачів, чий основний відділ входить до його відділів. Секрети в changes завжди замінені на "[REDACTED]".',
      },
    },
    listUserAudit: {
      en: {
        summary: 'List a user’s audit entries',
        description:
          'Needs canViewAudit, and the user in the caller’s departments (404 otherwise). Entries made by the user and entries about the user (entity users with this id), newest first, under the same scope rule as GET /audit.',
      },
      ru: {
        summary: 'Записи аудита пользователя',
        description:
          'Требуются право canViewAudit и пользователь из отделов вызывающего (иначе 404). Записи, сделанные пользователем, и записи о нём (сущность users с этим id), сначала новые, с тем же ограничением по отделам, что и в GET /audit.',
      },
      uk: {
        summary: 'Записи аудиту користувача',
        description:
          'Потрібні право canViewAudit і користувач із відділів того, хто звертається (інакше 404). Записи, зроблені користувачем, і записи про нього (сутність users із цим id), спочатку нові, з тим самим обмеженням за відділами, що й у GET /audit.',
      },
    },
  },
  fields: {
    'Entry id': { ru: 'Идентификатор записи', uk: 'Ідентифікатор запису' },
    'Who acted; null for anonymous requests': {
      ru: 'Кто выполнил действие; null для анонимных запросов',
      uk: 'Хто виконав дію; null для анонімних запитів',
    },
    'Name of the user who acted': {
      ru: 'Имя пользователя, выполнившего действие',
      uk: "Ім'я користувача, який виконав дію",
    },
    'Email of the user who acted': {
      ru: 'Адрес почты пользователя, выполнившего действие',
      uk: 'Адреса пошти користувача, який виконав дію',
    },
    'login, approve, reject, escalate, create, update, delete, or a route-specific action': {
      ru: 'login, approve, reject, escalate, create, update, delete или действие, своё для маршрута',
      uk: 'login, approve, reject, escalate, create, update, delete або дія, власна для маршруту',
    },
    'First path segment after /api/v1, for example users': {
      ru: 'Первый сегмент пути после /api/v1, например users',
      uk: 'Перший сегмент шляху після /api/v1, наприклад users',
    },
    'Id of the entity the request named or created': {
      ru: 'Идентификатор сущности, которую запрос указал или создал',
      uk: 'Ідентифікатор сутності, яку запит указав або створив',
    },
    'Request body with secrets replaced by "[REDACTED]"': {
      ru: 'Тело запроса, в котором секреты заменены на "[REDACTED]"',
      uk: 'Тіло запиту, у якому секрети замінено на "[REDACTED]"',
    },
    'Client address': { ru: 'Адрес клиента', uk: 'Адреса клієнта' },
    'Client user agent': {
      ru: 'User-Agent клиента (программа, отправившая запрос)',
      uk: 'User-Agent клієнта (програма, що надіслала запит)',
    },
    'Only this action': { ru: 'Только это действие', uk: 'Лише ця дія' },
    'Only this entity type': { ru: 'Только этот тип сущности', uk: 'Лише цей тип сутності' },
    'Only entries made by this user': {
      ru: 'Только записи, сделанные этим пользователем',
      uk: 'Лише записи, зроблені цим користувачем',
    },
    'Only this entity id': {
      ru: 'Только сущность с этим идентификатором',
      uk: 'Лише сутність із цим ідентифікатором',
    },
    'Entries at or after this time': {
      ru: 'Записи начиная с этого момента',
      uk: 'Записи починаючи з цього моменту',
    },
    'Entries before this time': { ru: 'Записи до этого момента', uk: 'Записи до цього моменту' },
  },
};
