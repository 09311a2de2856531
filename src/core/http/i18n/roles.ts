import type { DocsArea } from './types.js';

export const rolesDocs: DocsArea = {
  tags: {
    roles: {
      en: 'Roles: named sets of permissions and departments',
      ru: 'Роли: именованные наборы прав и отделов',
      uk: 'Ролі: іменовані набори прав і відділів',
    },
  },
  operations: {
    listRoles: {
      en: {
        summary: 'List roles',
        description:
          'Needs canViewRoles. Roles sorted by name with the number of users holding each; search matches part of the name or slug. The system roles (admin, dept_head, approver, employee) are listed only with includeSystem=true.',
      },
      ru: {
        summary: 'Список ролей',
        description:
          'Требуется право canViewRoles. Роли по алфавиту с числом пользователей у каждой; search ищет по части названия или slug. Системные роли (admin, dept_head, approver, employee) выводятся только при includeSystem=true.',
      },
      uk: {
        summary: 'Список ролей',
        description:
          'Потрібне право canViewRoles. Ролі за абеткою з кількістю користувачів у кожної; search шукає за частиною назви або slug. Системні ролі (admin, dept_head, approver, employee) виводяться лише за includeSystem=true.',
      },
    },
    createRole: {
      en: {
        summary: 'Create a role',
        description:
          'Needs canManageRoles. permissions must be among the 19 permission names and departmentIds must be existing departments (422 otherwise). Without a slug one is made from the name. Nobody can create a role holding a permission or department they do not hold themselves (403).',
      },
      ru: {
        summary: 'Создать роль',
        description:
          'Требуется право canManageRoles. permissions — только из 19 названий прав, departmentIds — только существующие отделы (иначе 422). Если slug не указан, он строится из названия. Нельзя создать роль с правом или отделом, которых нет у самого вызывающего (403).',
      },
      uk: {
        summary: 'Створити роль',
        description:
          'Потрібне право canManageRoles. permissions — лише з 19 назв прав, departmentIds — лише наявні відділи (інакше 422). Якщо slug не вказано, його утворюють із назви. Не можна створити роль із правом чи відділом, яких немає в самого користувача (403).',
      },
    },
    getRole: {
      en: {
        summary: 'Get a role',
        description: 'Needs canViewRoles. One role with its permissions, departments and number of holders.',
      },
      ru: {
        summary: 'Получить роль',
        description: 'Требуется право canViewRoles. Одна роль с её правами, отделами и числом пользователей.',
      },
      uk: {
        summary: 'Отримати роль',
        description:
          'Потрібне право canViewRoles. Одна роль з її правами, відділами й кількістю користувачів.',
      },
    },
    updateRole: {
      en: {
        summary: 'Update a role',
        description:
          'Needs canManageRoles. Every field is optional; lists are replaced whole. Holders get the new permissions on their next request. System roles may change permissions but not their slug (409); admin always keeps every permission and every department (409). A new slug is copied to every holder.',
      },
      ru: {
        summary: 'Изменить роль',
        description:
          'Требуется право canManageRoles. Все поля необязательны; списки заменяются целиком. Новые права действуют для владельцев роли со следующего запроса. У системных ролей можно менять права, но не slug (409); admin всегда сохраняет все права и все отделы (409). Новый slug переносится всем владельцам роли.',
      },
      uk: {
        summary: 'Змінити роль',
        description:
          'Потрібне право canManageRoles. Усі поля необов’язкові; списки замінюються повністю. Нові права діють для власників ролі з наступного запиту. У системних ролей можна змінювати права, але не slug (409); admin завжди зберігає всі права й усі відділи (409). Новий slug переноситься всім власникам ролі.',
      },
    },
    deleteRole: {
      en: {
        summary: 'Delete a role',
        description:
          'Needs canManageRoles. System roles and roles still assigned to users cannot be deleted (409); reassign the users first.',
      },
      ru: {
        summary: 'Удалить роль',
        description:
          'Требуется право canManageRoles. Системные роли и роли, назначенные пользователям, удалить нельзя (409); сначала переназначьте пользователей.',
      },
      uk: {
        summary: 'Видалити роль',
        description:
          'Потрібне право canManageRoles. Системні ролі та ролі, призначені користувачам, видалити не можна (409); спочатку перепризначте користувачів.',
      },
    },
  },
  fields: {
    'Role slug: lower-case letters and digits joined by single hyphens or underscores': {
      ru: 'Слаг роли: строчные буквы и цифры, соединённые одиночными дефисами или подчёркиваниями',
      uk: 'Слаг ролі: малі літери й цифри, з’єднані одиночними дефісами або підкресленнями',
    },
    'Holders are global: they see every department': {
      ru: 'Обладатели роли глобальны: они видят все отделы',
      uk: 'Власники ролі глобальні: вони бачать усі відділи',
    },
    'Departments every holder reaches besides their own': {
      ru: 'Отделы, доступные каждому обладателю роли помимо собственного',
      uk: 'Відділи, доступні кожному власникові ролі, крім власного',
    },
    'Seeded role; cannot be deleted and keeps its slug': {
      ru: 'Встроенная роль: её нельзя удалить, и её слаг не меняется',
      uk: 'Вбудована роль: її не можна видалити, і її слаг не змінюється',
    },
    'Users holding the role': {
      ru: 'Число пользователей с этой ролью',
      uk: 'Кількість користувачів із цією роллю',
    },
    'Holders see every department': {
      ru: 'Обладатели роли видят все отделы',
      uk: 'Власники ролі бачать усі відділи',
    },
    'Existing department ids': {
      ru: 'Идентификаторы существующих отделов',
      uk: 'Ідентифікатори наявних відділів',
    },
    'Permission names': { ru: 'Названия прав', uk: 'Назви прав' },
    'Also list the system roles (admin, dept_head, approver, employee)': {
      ru: 'Показывать также системные роли (admin, dept_head, approver, employee)',
      uk: 'Показувати також системні ролі (admin, dept_head, approver, employee)',
    },
  },
  examples: {
    createRole: {
      request: {
        name: 'Support approver',
        slug: 'support_approver',
        description: 'Approves assistant replies in customer support',
        departmentIds: ['48ea9081-5657-426a-80ea-12c82fbab599'],
        permissions: ['canApprove', 'canViewKnowledge'],
      },
    },
    updateRole: { request: { permissions: ['canApprove', 'canEscalate', 'canViewKnowledge'] } },
  },
  responses: {
    deleteRole: {
      409: {
        en: 'A system role, or a role still assigned to users',
        ru: 'Системная роль или роль, которая ещё назначена пользователям',
        uk: 'Системна роль або роль, яку ще призначено користувачам',
      },
    },
  },
};
