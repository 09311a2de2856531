import type { DocsArea } from './types.js';

export const employeeProfilesDocs: DocsArea = {
  tags: {
    'employee-profiles': {
      en: 'Employee profiles the assistant reads before answering',
      ru: 'Профили сотрудников, которые ассистент читает перед ответом',
      uk: 'Профілі працівників, які асистент читає перед відповіддю',
    },
  },
  operations: {
    listEmployeeProfiles: {
      en: {
        summary: 'List employee profiles',
        description:
          'Profiles of users whose primary department the caller reaches (all for a global user), sorted by name. departmentId narrows the list (403 outside the caller’s departments); search matches part of the owner’s name.',
      },
      ru: {
        summary: 'Список профилей сотрудников',
        description:
          'Профили пользователей, чей основной отдел доступен вызывающему (все — для глобального пользователя), по алфавиту. departmentId сужает список (403 для чужого отдела); search ищет по части имени владельца.',
      },
      uk: {
        summary: 'Список профілів працівників',
        description:
          'Профілі користувачів, чий основний відділ доступний тому, хто звертається (усі — для глобального користувача), за абеткою. departmentId звужує список (403 для чужого відділу); search шукає за частиною імені власника.',
      },
    },
    getEmployeeProfile: {
      en: {
        summary: 'Get an employee profile',
        description:
          'The caller’s own profile, or the profile of a user in the caller’s departments. Any other answers 404.',
      },
      ru: {
        summary: 'Получить профиль сотрудника',
        description:
          'Собственный профиль вызывающего или профиль пользователя из его отделов. Для любого другого ответ 404.',
      },
      uk: {
        summary: 'Отримати профіль працівника',
        description:
          'Власний профіль користувача, що звертається, або профіль користувача з його відділів. Для будь-якого іншого відповідь 404.',
      },
    },
    updateEmployeeProfile: {
      en: {
        summary: 'Update an employee profile',
        description:
          'One’s own profile needs no permission, except for accessLevel; another visible profile needs canManageEmployeeProfiles (403), and a profile outside the caller’s departments answers 404. Lists and objects are replaced whole; preferences and metadata are limited to 16 KB each.',
      },
      ru: {
        summary: 'Изменить профиль сотрудника',
        description:
          'Для своего профиля право не нужно, кроме поля accessLevel; для другого видимого профиля нужно право canManageEmployeeProfiles (403), а профиль вне отделов вызывающего даёт 404. Списки и объекты заменяются целиком; preferences и metadata — не больше 16 КБ каждый.',
      },
      uk: {
        summary: 'Змінити профіль працівника',
        description:
          'Для власного профілю право не потрібне, крім поля accessLevel; для іншого видимого профілю потрібне право canManageEmployeeProfiles (403), а профіль поза відділами користувача дає 404. Списки й об’єкти замінюються повністю; preferences і metadata — не більше 16 КБ кожен.',
      },
    },
  },
  fields: {
    'Owner of the profile': { ru: 'Владелец профиля', uk: 'Власник профілю' },
    'Name of the owner': { ru: 'Имя владельца', uk: "Ім'я власника" },
    'Primary department of the owner': {
      ru: 'Основной отдел владельца',
      uk: 'Основний відділ власника',
    },
    'Whether the owner is active': { ru: 'Активен ли владелец', uk: 'Чи активний власник' },
    'What the assistant should know about the employee': {
      ru: 'Что ассистенту следует знать о сотруднике',
      uk: 'Що асистентові варто знати про працівника',
    },
    'Only profiles of users whose primary department is this one': {
      ru: 'Только профили пользователей, чей основной отдел — этот',
      uk: 'Лише профілі користувачів, чий основний відділ — цей',
    },
    'Part of the owner name': { ru: 'Часть имени владельца', uk: 'Частина імені власника' },
    'Project names': { ru: 'Названия проектов', uk: 'Назви проєктів' },
    'Free-form preferences, at most 16 KB as JSON': {
      ru: 'Произвольные предпочтения, не более 16 КБ в виде JSON',
      uk: 'Довільні вподобання, не більше 16 КБ у вигляді JSON',
    },
    'Intent names': { ru: 'Названия интентов', uk: 'Назви інтентів' },
    'Access level label; changing it needs canManageEmployeeProfiles, also on one’s own profile': {
      ru: 'Метка уровня доступа; для её изменения нужно право canManageEmployeeProfiles, даже в собственном профиле',
      uk: 'Мітка рівня доступу; щоб її змінити, потрібне право canManageEmployeeProfiles, навіть у власному профілі',
    },
    'Free-form metadata, at most 16 KB as JSON': {
      ru: 'Произвольные метаданные, не более 16 КБ в виде JSON',
      uk: 'Довільні метадані, не більше 16 КБ у вигляді JSON',
    },
  },
  examples: {
    updateEmployeeProfile: {
      request: {
        summary: 'Handles refunds for the online shop; prefers short answers',
        currentProjects: ['Spring sale'],
        frequentIntents: ['refund_request'],
        preferences: { replyLength: 'short' },
      },
    },
  },
};
