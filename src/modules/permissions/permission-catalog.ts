import { CAPABILITY_AREAS, type CapabilityArea } from '../../core/auth/capabilities.js';
import type { Permission } from '../../core/auth/permissions.js';

export interface LocalizedText {
  en: string;
  ru: string;
  uk: string;
}

interface PermissionText {
  label: LocalizedText;
  description: LocalizedText;
}

/** Group names; the groups are the UI capability areas of GET /me, so the two never disagree. */
const GROUP_LABELS: Record<CapabilityArea, LocalizedText> = {
  approvals: { en: 'Approvals', ru: 'Согласования', uk: 'Погодження' },
  knowledge: { en: 'Knowledge', ru: 'База знаний', uk: 'База знань' },
  namespaces: { en: 'Assistants and plugins', ru: 'Ассистенты и плагины', uk: 'Асистенти та плагіни' },
  departments: { en: 'Departments', ru: 'Отделы', uk: 'Відділи' },
  users: { en: 'Users', ru: 'Пользователи', uk: 'Користувачі' },
  employeeProfiles: { en: 'Employee profiles', ru: 'Профили сотрудников', uk: 'Профілі працівників' },
  roles: { en: 'Roles', ru: 'Роли', uk: 'Ролі' },
  audit: { en: 'Audit', ru: 'Аудит', uk: 'Аудит' },
  templates: { en: 'Document templates', ru: 'Шаблоны документов', uk: 'Шаблони документів' },
  settings: { en: 'Settings', ru: 'Настройки', uk: 'Налаштування' },
};

const TEXTS: Record<Permission, PermissionText> = {
  canApprove: {
    label: { en: 'Approve replies', ru: 'Согласовывать ответы', uk: 'Погоджувати відповіді' },
    description: {
      en: 'Review assistant replies waiting for a human: approve, edit or reject them.',
      ru: 'Проверять ответы ассистента, ожидающие человека: одобрять, править или отклонять их.',
      uk: 'Перевіряти відповіді асистента, що чекають на людину: схвалювати, редагувати або відхиляти їх.',
    },
  },
  canEscalate: {
    label: { en: 'Escalate replies', ru: 'Передавать ответы выше', uk: 'Передавати відповіді вище' },
    description: {
      en: 'Hand a pending reply over to another, more senior reviewer.',
      ru: 'Передавать ожидающий ответ другому, более старшему проверяющему.',
      uk: 'Передавати відповідь, що очікує, іншому, старшому рецензентові.',
    },
  },
  canUploadDocuments: {
    label: { en: 'Upload documents', ru: 'Загружать документы', uk: 'Завантажувати документи' },
    description: {
      en: 'Add files and web pages to knowledge bases and tune their search weights.',
      ru: 'Добавлять файлы и веб-страницы в базы знаний и настраивать веса поиска.',
      uk: 'Додавати файли й вебсторінки до баз знань і налаштовувати ваги пошуку.',
    },
  },
  canDeleteDocuments: {
    label: { en: 'Delete documents', ru: 'Удалять документы', uk: 'Видаляти документи' },
    description: {
      en: 'Remove documents and whole knowledge bases.',
      ru: 'Удалять документы и целые базы знаний.',
      uk: 'Видаляти документи та цілі бази знань.',
    },
  },
  canViewKnowledge: {
    label: { en: 'Use knowledge', ru: 'Пользоваться базой знаний', uk: 'Користуватися базою знань' },
    description: {
      en: 'Search the knowledge of the department and draft answers from it.',
      ru: 'Искать по базе знаний отдела и готовить по ней черновики ответов.',
      uk: 'Шукати в базі знань відділу й готувати за нею чернетки відповідей.',
    },
  },
  canManageEmployeeProfiles: {
    label: {
      en: 'Edit employee profiles',
      ru: 'Редактировать профили сотрудников',
      uk: 'Редагувати профілі працівників',
    },
    description: {
      en: 'Change the assistant-facing profiles of other employees in reach, including their access level.',
      ru: 'Изменять профили других сотрудников в своих отделах, которые видит ассистент, включая уровень доступа.',
      uk: 'Змінювати профілі інших працівників у своїх відділах, які бачить асистент, зокрема рівень доступу.',
    },
  },
  canManageNamespaces: {
    label: { en: 'Manage assistants', ru: 'Управлять ассистентами', uk: 'Керувати асистентами' },
    description: {
      en: 'Create and configure namespaces: system prompt, persona, intents and trust settings.',
      ru: 'Создавать и настраивать пространства: системный промпт, персону, интенты и доверие.',
      uk: 'Створювати й налаштовувати простори: системний промпт, персону, інтенти та довіру.',
    },
  },
  canManageDepartments: {
    label: { en: 'Manage departments', ru: 'Управлять отделами', uk: 'Керувати відділами' },
    description: {
      en: 'Create departments and change their name, colour, description and settings.',
      ru: 'Создавать отделы и менять их название, цвет, описание и настройки.',
      uk: 'Створювати відділи й змінювати їхню назву, колір, опис і налаштування.',
    },
  },
  canArchiveDepartments: {
    label: { en: 'Archive departments', ru: 'Архивировать отделы', uk: 'Архівувати відділи' },
    description: {
      en: 'Move departments to the archive, which hides them from lists.',
      ru: 'Переносить отделы в архив, скрывая их из списков.',
      uk: 'Переносити відділи до архіву, приховуючи їх зі списків.',
    },
  },
  canViewAllUsers: {
    label: { en: 'View users', ru: 'Просматривать пользователей', uk: 'Переглядати користувачів' },
    description: {
      en: 'List users of the departments in reach and see their access.',
      ru: 'Видеть список пользователей своих отделов и их права доступа.',
      uk: 'Бачити список користувачів своїх відділів і їхні права доступу.',
    },
  },
  canCreateUsers: {
    label: { en: 'Create users', ru: 'Создавать пользователей', uk: 'Створювати користувачів' },
    description: {
      en: 'Add user accounts to the departments in reach.',
      ru: 'Добавлять учётные записи в свои отделы.',
      uk: 'Додавати облікові записи до своїх відділів.',
    },
  },
  canManageUsers: {
    label: { en: 'Manage users', ru: 'Управлять пользователями', uk: 'Керувати користувачами' },
    description: {
      en: 'Change roles and departments of users, deactivate them, and grant or revoke individual permissions.',
      ru: 'Менять роли и отделы пользователей, деактивировать их, выдавать и отзывать отдельные права.',
      uk: 'Змінювати ролі й відділи користувачів, деактивувати їх, надавати й відкликати окремі права.',
    },
  },
  canViewAudit: {
    label: { en: 'View the audit log', ru: 'Просматривать журнал аудита', uk: 'Переглядати журнал аудиту' },
    description: {
      en: 'Read who changed what and when, for users of the departments in reach.',
      ru: 'Видеть, кто, что и когда изменил, для пользователей своих отделов.',
      uk: 'Бачити, хто, що й коли змінив, для користувачів своїх відділів.',
    },
  },
  canViewRoles: {
    label: { en: 'View roles', ru: 'Просматривать роли', uk: 'Переглядати ролі' },
    description: {
      en: 'See the roles and the permissions each of them holds.',
      ru: 'Видеть роли и права, которые входят в каждую из них.',
      uk: 'Бачити ролі та права, що входять до кожної з них.',
    },
  },
  canManageRoles: {
    label: { en: 'Manage roles', ru: 'Управлять ролями', uk: 'Керувати ролями' },
    description: {
      en: 'Create, change and delete roles.',
      ru: 'Создавать, изменять и удалять роли.',
      uk: 'Створювати, змінювати й видаляти ролі.',
    },
  },
  canManagePlugins: {
    label: { en: 'Manage plugins', ru: 'Управлять плагинами', uk: 'Керувати плагінами' },
    description: {
      en: 'Enable, configure and disable integration plugins of namespaces.',
      ru: 'Включать, настраивать и отключать плагины интеграций в пространствах.',
      uk: 'Вмикати, налаштовувати й вимикати плагіни інтеграцій у просторах.',
    },
  },
  canManageTemplates: {
    label: { en: 'Manage templates', ru: 'Управлять шаблонами', uk: 'Керувати шаблонами' },
    description: {
      en: 'Create, change and delete document templates, and see everyone’s generations.',
      ru: 'Создавать, изменять и удалять шаблоны документов и видеть документы, созданные всеми.',
      uk: 'Створювати, змінювати й видаляти шаблони документів і бачити документи, створені всіма.',
    },
  },
  canGenerateDocuments: {
    label: { en: 'Generate documents', ru: 'Создавать документы', uk: 'Створювати документи' },
    description: {
      en: 'Fill document templates to produce documents.',
      ru: 'Заполнять шаблоны и получать готовые документы.',
      uk: 'Заповнювати шаблони й отримувати готові документи.',
    },
  },
  canEditSettings: {
    label: { en: 'Edit settings', ru: 'Изменять настройки', uk: 'Змінювати налаштування' },
    description: {
      en: 'Operate the service: the queue dashboard and system-wide settings.',
      ru: 'Обслуживать сервис: панель очередей и общесистемные настройки.',
      uk: 'Обслуговувати сервіс: панель черг і загальносистемні налаштування.',
    },
  },
};

/** Every permission once, grouped by area, with label and description in en, ru and uk. */
export function permissionCatalog() {
  return {
    groups: (Object.entries(CAPABILITY_AREAS) as [CapabilityArea, readonly Permission[]][]).map(
      ([group, permissions]) => ({
        key: group,
        label: GROUP_LABELS[group],
        permissions: permissions.map((key) => ({ key, group, ...TEXTS[key] })),
      }),
    ),
  };
}
