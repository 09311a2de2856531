import type { DocsArea } from './types.js';

export const departmentsDocs: DocsArea = {
  tags: {
    departments: {
      en: 'Departments: the units that own users, assistants and knowledge',
      ru: 'Отделы: подразделения, которым принадлежат пользователи, ассистенты и знания',
      uk: 'Відділи: підрозділи, яким належать користувачі, асистенти й знання',
    },
  },
  operations: {
    listDepartments: {
      en: {
        summary: 'List departments',
        description:
          'Departments the caller reaches (every department for a global user), sorted by name. search matches part of the name or slug; archived departments are hidden unless includeArchived=true. Paginated with limit (1-100, default 20) and offset.',
      },
      ru: {
        summary: 'Список отделов',
        description:
          'Отделы, доступные вызывающему (все отделы для глобального пользователя), по алфавиту. search ищет по части названия или slug; архивные отделы скрыты, если не передан includeArchived=true. Постраничный вывод: limit (1-100, по умолчанию 20) и offset.',
      },
      uk: {
        summary: 'Список відділів',
        description:
          'Відділи, доступні користувачеві, що звертається (усі відділи для глобального користувача), за абеткою. search шукає за частиною назви або slug; архівні відділи приховані, якщо не передано includeArchived=true. Посторінковий вивід: limit (1-100, типово 20) і offset.',
      },
    },
    getDepartment: {
      en: {
        summary: 'Get a department',
        description:
          'One department, archived or not. A department outside the caller’s departments answers 404, so its existence is not revealed.',
      },
      ru: {
        summary: 'Получить отдел',
        description:
          'Один отдел, архивный или нет. Для отдела вне отделов вызывающего ответ 404, чтобы не раскрывать его существование.',
      },
      uk: {
        summary: 'Отримати відділ',
        description:
          'Один відділ, архівний чи ні. Для відділу поза відділами користувача відповідь 404, щоб не розкривати його існування.',
      },
    },
    createDepartment: {
      en: {
        summary: 'Create a department',
        description:
          'Needs canManageDepartments. Without a slug one is made from the name (with -2, -3 … when taken); an explicit slug that is taken answers 409. color is #rgb or #rrggbb; settings is an object of at most 50 keys and 16 KB, and its defaultNamespaceId must name a namespace of the department.',
      },
      ru: {
        summary: 'Создать отдел',
        description:
          'Требуется право canManageDepartments. Если slug не указан, он строится из названия (с -2, -3 … при совпадении); занятый явно указанный slug даёт 409. color в формате #rgb или #rrggbb; settings — объект не более чем из 50 ключей и 16 КБ, а его defaultNamespaceId должен указывать на пространство этого отдела.',
      },
      uk: {
        summary: 'Створити відділ',
        description:
          'Потрібне право canManageDepartments. Якщо slug не вказано, його утворюють із назви (з -2, -3 … у разі збігу); зайнятий явно вказаний slug дає 409. color у форматі #rgb або #rrggbb; settings — об’єкт щонайбільше з 50 ключів і 16 КБ, а його defaultNamespaceId має вказувати на простір цього відділу.',
      },
    },
    updateDepartment: {
      en: {
        summary: 'Update a department',
        description:
          'Needs canManageDepartments and access to the department (404 otherwise). Changes name, color, description or settings; settings are replaced as a whole. The slug never changes.',
      },
      ru: {
        summary: 'Изменить отдел',
        description:
          'Требуются право canManageDepartments и доступ к отделу (иначе 404). Меняет название, цвет, описание или настройки; settings заменяются целиком. Slug не меняется.',
      },
      uk: {
        summary: 'Змінити відділ',
        description:
          'Потрібні право canManageDepartments і доступ до відділу (інакше 404). Змінює назву, колір, опис або налаштування; settings замінюються повністю. Slug не змінюється.',
      },
    },
    archiveDepartment: {
      en: {
        summary: 'Archive a department',
        description:
          'Needs canArchiveDepartments and access to the department. Soft archive: the department disappears from lists (unless includeArchived is set) and accepts no new registrations; nothing is deleted. Archiving again keeps the first archive time.',
      },
      ru: {
        summary: 'Архивировать отдел',
        description:
          'Требуются право canArchiveDepartments и доступ к отделу. Мягкая архивация: отдел пропадает из списков (если не задан includeArchived) и не принимает новых регистраций; ничего не удаляется. Повторная архивация сохраняет время первой.',
      },
      uk: {
        summary: 'Архівувати відділ',
        description:
          'Потрібні право canArchiveDepartments і доступ до відділу. М’яка архівація: відділ зникає зі списків (якщо не задано includeArchived) і не приймає нових реєстрацій; нічого не видаляється. Повторна архівація зберігає час першої.',
      },
    },
  },
  fields: {
    'Department id': { ru: 'Идентификатор отдела', uk: 'Ідентифікатор відділу' },
    'URL-safe unique key: lower-case letters and digits joined by single hyphens': {
      ru: 'Уникальный ключ для URL: строчные буквы и цифры, соединённые одиночными дефисами',
      uk: 'Унікальний ключ для URL: малі літери й цифри, з’єднані одиночними дефісами',
    },
    'Hex colour, #rgb or #rrggbb': {
      ru: 'Цвет в шестнадцатеричной записи, #rgb или #rrggbb',
      uk: 'Колір у шістнадцятковому записі, #rgb або #rrggbb',
    },
    'Free text': { ru: 'Произвольный текст', uk: 'Довільний текст' },
    'Free-form settings, at most 50 keys and 16 KB as JSON': {
      ru: 'Произвольные настройки: не более 50 ключей и 16 КБ в виде JSON',
      uk: 'Довільні налаштування: не більше 50 ключів і 16 КБ у вигляді JSON',
    },
    'Namespace of this department that answers channel messages by default': {
      ru: 'Пространство имён этого отдела, которое по умолчанию отвечает на сообщения из каналов',
      uk: 'Простір імен цього відділу, який за замовчуванням відповідає на повідомлення з каналів',
    },
    'When the department was archived': {
      ru: 'Когда отдел был архивирован',
      uk: 'Коли відділ було архівовано',
    },
    'Part of the name or slug': { ru: 'Часть названия или слага', uk: 'Частина назви або слага' },
    'Also list archived departments': {
      ru: 'Показывать также архивные отделы',
      uk: 'Показувати також архівні відділи',
    },
  },
  responses: {
    createDepartment: {
      409: {
        en: 'The slug is already taken',
        ru: 'Такой слаг уже занят',
        uk: 'Такий слаг уже зайнято',
      },
    },
  },
};
