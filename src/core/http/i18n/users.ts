import type { DocsArea } from './types.js';

export const usersDocs: DocsArea = {
  tags: {
    users: {
      en: 'Users and their per-user permission and department overrides',
      ru: 'Пользователи и их индивидуальные права и отделы',
      uk: 'Користувачі та їхні індивідуальні права й відділи',
    },
  },
  operations: {
    listUsers: {
      en: {
        summary: 'List users',
        description:
          'Needs canViewAllUsers. Users whose primary department the caller reaches, sorted by name. Filters: role (slug), departmentId (403 outside the caller’s departments), search (part of name or email), isActive. Paginated with limit and offset.',
      },
      ru: {
        summary: 'Список пользователей',
        description:
          'Требуется право canViewAllUsers. Пользователи, чей основной отдел доступен вызывающему, по алфавиту. Фильтры: role (slug), departmentId (403 для чужого отдела), search (часть имени или email), isActive. Постраничный вывод через limit и offset.',
      },
      uk: {
        summary: 'Список користувачів',
        description:
          'Потрібне право canViewAllUsers. Користувачі, чий основний відділ доступний тому, хто звертається, за абеткою. Фільтри: role (slug), departmentId (403 для чужого відділу), search (частина імені або email), isActive. Посторінковий вивід через limit і offset.',
      },
    },
    createUser: {
      en: {
        summary: 'Create a user',
        description:
          'Needs canCreateUsers. Creates an active user with an empty employee profile. role (slug) or roleId defaults to employee; the department must exist, be active and be one the caller reaches. The caller cannot assign a role holding more than they hold (403). A taken email or phone answers 409.',
      },
      ru: {
        summary: 'Создать пользователя',
        description:
          'Требуется право canCreateUsers. Создаёт активного пользователя с пустым профилем сотрудника. Роль (slug в role или roleId) по умолчанию employee; отдел должен существовать, быть активным и доступным вызывающему. Нельзя назначить роль, дающую больше, чем есть у вызывающего (403). Занятые email или телефон дают 409.',
      },
      uk: {
        summary: 'Створити користувача',
        description:
          'Потрібне право canCreateUsers. Створює активного користувача з порожнім профілем працівника. Роль (slug у role або roleId) типово employee; відділ має існувати, бути активним і доступним користувачеві, що звертається. Не можна призначити роль, що дає більше, ніж має той, хто звертається (403). Зайняті email або телефон дають 409.',
      },
    },
    getUser: {
      en: {
        summary: 'Get a user',
        description:
          'The caller themself, always. Anyone else needs canViewAllUsers (403 without it) and must have a primary department the caller reaches (404 otherwise).',
      },
      ru: {
        summary: 'Получить пользователя',
        description:
          'Себя можно получить всегда. Для другого пользователя нужно право canViewAllUsers (без него 403), и его основной отдел должен быть доступен вызывающему (иначе 404).',
      },
      uk: {
        summary: 'Отримати користувача',
        description:
          'Себе можна отримати завжди. Для іншого користувача потрібне право canViewAllUsers (без нього 403), і його основний відділ має бути доступним тому, хто звертається (інакше 404).',
      },
    },
    updateUser: {
      en: {
        summary: 'Update a user',
        description:
          'Anyone may change their own name and phone. role, roleId, departmentId and isActive, and any change to another user, need canManageUsers (403). role and roleId stay consistent: either one sets both. isActive=false deactivates and ends every session; nobody can deactivate themself (409).',
      },
      ru: {
        summary: 'Изменить пользователя',
        description:
          'Свои имя и телефон может менять каждый. Для role, roleId, departmentId и isActive, а также для любых изменений другого пользователя нужно право canManageUsers (403). role и roleId согласованы: любое из них задаёт оба. isActive=false деактивирует пользователя и завершает все его сеансы; деактивировать себя нельзя (409).',
      },
      uk: {
        summary: 'Змінити користувача',
        description:
          'Власні ім’я й телефон може змінювати кожен. Для role, roleId, departmentId та isActive, а також для будь-яких змін іншого користувача потрібне право canManageUsers (403). role і roleId узгоджені: будь-яке з них задає обидва. isActive=false деактивує користувача й завершує всі його сеанси; деактивувати себе не можна (409).',
      },
    },
    deactivateUser: {
      en: {
        summary: 'Deactivate a user',
        description:
          'Needs canManageUsers. Soft delete: the user becomes inactive, every token stops working at once and open WebSocket sessions are closed; data is kept. Answers the user. Deactivating oneself answers 409.',
      },
      ru: {
        summary: 'Деактивировать пользователя',
        description:
          'Требуется право canManageUsers. Мягкое удаление: пользователь становится неактивным, все его токены сразу перестают действовать, открытые WebSocket-сессии закрываются; данные сохраняются. Возвращает пользователя. Деактивация самого себя даёт 409.',
      },
      uk: {
        summary: 'Деактивувати користувача',
        description:
          'Потрібне право canManageUsers. М’яке видалення: користувач стає неактивним, усі його токени одразу перестають діяти, відкриті WebSocket-сесії закриваються; дані зберігаються. Повертає користувача. Деактивація самого себе дає 409.',
      },
    },
    getUserEffectiveAccess: {
      en: {
        summary: 'Get a user’s effective access',
        description:
          'The role, the per-user overrides and the computed result: role permissions plus grants minus revokes, and role departments plus the primary and extra departments minus revoked ones. Revokes always win. Self, or canViewAllUsers within scope.',
      },
      ru: {
        summary: 'Итоговые права пользователя',
        description:
          'Роль, индивидуальные изменения и вычисленный итог: права роли плюс выданные минус отозванные, отделы роли плюс основной и дополнительные минус отозванные. Отзыв всегда сильнее. Доступно для себя или с правом canViewAllUsers в своих отделах.',
      },
      uk: {
        summary: 'Підсумкові права користувача',
        description:
          'Роль, індивідуальні зміни й обчислений підсумок: права ролі плюс надані мінус відкликані, відділи ролі плюс основний і додаткові мінус відкликані. Відкликання завжди сильніше. Доступно для себе або з правом canViewAllUsers у своїх відділах.',
      },
    },
    grantUserAccess: {
      en: {
        summary: 'Grant a permission or department',
        description:
          'Needs canManageUsers. Body: exactly one of permission (one of the 19 names) or departmentId (an existing department). Adds a grant entry; granting twice changes nothing. A revoke of the same key still wins. The caller can grant only what they hold. Answers the new effective access and writes an audit entry naming the key.',
      },
      ru: {
        summary: 'Выдать право или отдел',
        description:
          'Требуется право canManageUsers. Тело: ровно одно из permission (одно из 19 названий) или departmentId (существующий отдел). Добавляет запись о выдаче; повторная выдача ничего не меняет. Отзыв того же ключа всё равно сильнее. Выдать можно только то, что есть у самого вызывающего. Возвращает новые итоговые права и пишет в аудит запись с ключом.',
      },
      uk: {
        summary: 'Надати право або відділ',
        description:
          'Потрібне право canManageUsers. Тіло: рівно одне з permission (одна з 19 назв) або departmentId (наявний відділ). Додає запис про надання; повторне надання нічого не змінює. Відкликання того самого ключа все одно сильніше. Надати можна лише те, що має сам користувач, який звертається. Повертає нові підсумкові права й пише до аудиту запис із ключем.',
      },
    },
    revokeUserAccess: {
      en: {
        summary: 'Revoke a permission or department',
        description:
          'Needs canManageUsers. Body: exactly one of permission or departmentId. Adds a revoke entry, which wins over the role and over any grant until it is removed. Answers the new effective access and writes an audit entry naming the key.',
      },
      ru: {
        summary: 'Отозвать право или отдел',
        description:
          'Требуется право canManageUsers. Тело: ровно одно из permission или departmentId. Добавляет запись об отзыве, которая сильнее роли и любой выдачи, пока её не удалят. Возвращает новые итоговые права и пишет в аудит запись с ключом.',
      },
      uk: {
        summary: 'Відкликати право або відділ',
        description:
          'Потрібне право canManageUsers. Тіло: рівно одне з permission або departmentId. Додає запис про відкликання, що сильніший за роль і будь-яке надання, доки його не видалять. Повертає нові підсумкові права й пише до аудиту запис із ключем.',
      },
    },
    removeUserGrant: {
      en: {
        summary: 'Remove a grant entry',
        description:
          'Needs canManageUsers. The last path segment is a permission name or a department id. Removes that grant entry (404 when there is none); what the role gives stays. Answers the new effective access.',
      },
      ru: {
        summary: 'Удалить запись о выдаче',
        description:
          'Требуется право canManageUsers. Последний сегмент пути — название права или id отдела. Удаляет эту запись о выдаче (404, если её нет); то, что даёт роль, сохраняется. Возвращает новые итоговые права.',
      },
      uk: {
        summary: 'Видалити запис про надання',
        description:
          'Потрібне право canManageUsers. Останній сегмент шляху — назва права або id відділу. Видаляє цей запис про надання (404, якщо його немає); те, що дає роль, зберігається. Повертає нові підсумкові права.',
      },
    },
    removeUserRevoke: {
      en: {
        summary: 'Remove a revoke entry',
        description:
          'Needs canManageUsers. The last path segment is a permission name or a department id. Removes that revoke entry (404 when there is none), which restores what the role or a grant gives; the caller must hold what comes back. Answers the new effective access.',
      },
      ru: {
        summary: 'Удалить запись об отзыве',
        description:
          'Требуется право canManageUsers. Последний сегмент пути — название права или id отдела. Удаляет эту запись об отзыве (404, если её нет), и возвращается то, что даёт роль или выдача; у вызывающего должно быть то, что возвращается. Возвращает новые итоговые права.',
      },
      uk: {
        summary: 'Видалити запис про відкликання',
        description:
          'Потрібне право canManageUsers. Останній сегмент шляху — назва права або id відділу. Видаляє цей запис про відкликання (404, якщо його немає), і повертається те, що дає роль або надання; той, хто звертається, має мати те, що повертається. Повертає нові підсумкові права.',
      },
    },
  },
  fields: {
    'Phone number in E.164 form (7 to 15 digits, optional leading +); channel A matches senders by it': {
      ru: 'Номер телефона в формате E.164 (от 7 до 15 цифр, в начале можно +); по нему канал A узнаёт отправителей',
      uk: 'Номер телефону у форматі E.164 (від 7 до 15 цифр, на початку можна +); за ним канал A впізнає відправників',
    },
    'E.164 digits without +': { ru: 'Цифры номера E.164 без +', uk: 'Цифри номера E.164 без +' },
    'False once deactivated': {
      ru: 'false после деактивации',
      uk: 'false після деактивації',
    },
    'Per-user permission grants': {
      ru: 'Права, выданные лично пользователю',
      uk: 'Права, надані особисто користувачеві',
    },
    'Per-user permission revocations': {
      ru: 'Права, отозванные лично у пользователя',
      uk: 'Права, відкликані особисто в користувача',
    },
    'Per-user extra departments': {
      ru: 'Дополнительные отделы, открытые лично пользователю',
      uk: 'Додаткові відділи, відкриті особисто користувачеві',
    },
    'Per-user removed departments': {
      ru: 'Отделы, закрытые лично для пользователя',
      uk: 'Відділи, закриті особисто для користувача',
    },
    'Last successful login': { ru: 'Последний успешный вход', uk: 'Останній успішний вхід' },
    'Only users whose primary department is this one': {
      ru: 'Только пользователи, чей основной отдел — этот',
      uk: 'Лише користувачі, чий основний відділ — цей',
    },
    'Part of the name or email': {
      ru: 'Часть имени или адреса почты',
      uk: 'Частина імені або адреси пошти',
    },
    'Only active (true) or deactivated (false) users': {
      ru: 'Только активные (true) или деактивированные (false) пользователи',
      uk: 'Лише активні (true) або деактивовані (false) користувачі',
    },
    'Role id; must agree with role when both are sent': {
      ru: 'Идентификатор роли; если переданы оба, должен совпадать с role',
      uk: 'Ідентифікатор ролі; якщо надіслано обидва, має збігатися з role',
    },
    'false deactivates the user and ends their sessions': {
      ru: 'false деактивирует пользователя и завершает его сеансы',
      uk: 'false деактивує користувача й завершує його сеанси',
    },
    'An existing department': { ru: 'Существующий отдел', uk: 'Наявний відділ' },
    'Exactly one of permission or departmentId': {
      ru: 'Ровно одно из полей: permission или departmentId',
      uk: 'Рівно одне з полів: permission або departmentId',
    },
    'The entry to remove: a permission name or a department id': {
      ru: 'Что удалить: название права или идентификатор отдела',
      uk: 'Що видалити: назву права або ідентифікатор відділу',
    },
  },
  examples: {
    createUser: {
      request: {
        email: 'olena.koval@example.com',
        password: 'Correct-horse-42',
        name: 'Olena Koval',
        phone: '+380501234567',
        role: 'approver',
        departmentId: '48ea9081-5657-426a-80ea-12c82fbab599',
      },
    },
    updateUser: { request: { name: 'Olena Koval', phone: '+380501234567', role: 'approver' } },
    grantUserAccess: { request: { permission: 'canApprove' } },
    revokeUserAccess: { request: { departmentId: '48ea9081-5657-426a-80ea-12c82fbab599' } },
  },
  responses: {
    createUser: {
      409: {
        en: 'The email or the phone is already taken',
        ru: 'Такой адрес почты или телефон уже заняты',
        uk: 'Таку адресу пошти або телефон уже зайнято',
      },
    },
    deactivateUser: {
      409: {
        en: 'You tried to deactivate yourself',
        ru: 'Попытка деактивировать самого себя',
        uk: 'Спроба деактивувати самого себе',
      },
    },
    removeUserGrant: {
      404: {
        en: 'No such user in your departments, or the user has no such grant',
        ru: 'Такого пользователя нет в ваших отделах или у него нет такой выдачи',
        uk: 'Такого користувача немає у ваших відділах або в нього немає такого надання',
      },
    },
    removeUserRevoke: {
      404: {
        en: 'No such user in your departments, or the user has no such revoke',
        ru: 'Такого пользователя нет в ваших отделах или у него нет такого отзыва',
        uk: 'Такого користувача немає у ваших відділах або в нього немає такого відкликання',
      },
    },
  },
};
