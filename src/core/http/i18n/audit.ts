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
};
