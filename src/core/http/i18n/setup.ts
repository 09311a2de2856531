import type { DocsArea } from './types.js';

export const setupDocs: DocsArea = {
  tags: {
    setup: {
      en: 'The one-time setup of a new service: its first administrator',
      ru: 'Однократная настройка нового сервиса: его первый администратор',
      uk: 'Одноразове налаштування нового сервісу: його перший адміністратор',
    },
  },
  operations: {
    getSetupStatus: {
      en: {
        summary: 'Whether the setup is needed',
        description:
          'Answers needed: true while no account that can sign in exists (placeholder employees made for unknown channel senders do not count). No token needed: the console asks before anyone can sign in.',
      },
      ru: {
        summary: 'Нужна ли настройка',
        description:
          'Отвечает needed: true, пока нет ни одной учётной записи, с которой можно войти (заглушки сотрудников для неизвестных отправителей каналов не считаются). Токен не нужен: консоль спрашивает раньше, чем кто-либо может войти.',
      },
      uk: {
        summary: 'Чи потрібне налаштування',
        description:
          'Відповідає needed: true, доки немає жодного облікового запису, з яким можна увійти (заглушки працівників для невідомих відправників каналів не рахуються). Токен не потрібен: консоль питає раніше, ніж хтось може увійти.',
      },
    },
    completeSetup: {
      en: {
        summary: 'Create the first administrator',
        description:
          'Creates the first administrator (role admin, in ADMIN_DEPARTMENT) with the setup code the service printed in its start-up log, and answers what a login answers. Works once: after any account exists it answers 409. Password: 8 to 128 characters with at least one letter and one digit. Rate limited per client address like login.',
      },
      ru: {
        summary: 'Создать первого администратора',
        description:
          'Создаёт первого администратора (роль admin, в отделе ADMIN_DEPARTMENT) по коду настройки, который сервис вывел в журнал при запуске, и отвечает так же, как вход. Срабатывает один раз: когда есть хоть одна учётная запись, отвечает 409. Пароль: от 8 до 128 символов, минимум одна буква и одна цифра. Число запросов с одного адреса ограничено, как у входа.',
      },
      uk: {
        summary: 'Створити першого адміністратора',
        description:
          'Створює першого адміністратора (роль admin, у відділі ADMIN_DEPARTMENT) за кодом налаштування, який сервіс вивів у журнал під час запуску, і відповідає так само, як вхід. Спрацьовує один раз: коли є хоч один обліковий запис, відповідає 409. Пароль: від 8 до 128 символів, щонайменше одна літера й одна цифра. Кількість запитів з однієї адреси обмежена, як у входу.',
      },
    },
  },
  fields: {
    'True while no account that can sign in exists: the setup page is the way in': {
      ru: 'True, пока нет учётной записи, с которой можно войти: путь внутрь — страница настройки',
      uk: 'True, доки немає облікового запису, з яким можна увійти: шлях усередину — сторінка налаштування',
    },
    'The setup code the service printed in its log at start': {
      ru: 'Код настройки, который сервис вывел в журнал при запуске',
      uk: 'Код налаштування, який сервіс вивів у журнал під час запуску',
    },
  },
  responses: {
    completeSetup: {
      401: {
        en: 'Wrong setup code',
        ru: 'Неверный код настройки',
        uk: 'Неправильний код налаштування',
      },
      409: {
        en: 'The service is set up already: an account exists',
        ru: 'Сервис уже настроен: учётная запись существует',
        uk: 'Сервіс уже налаштовано: обліковий запис існує',
      },
    },
  },
  examples: {
    completeSetup: {
      request: {
        setupCode: 'ABCD-EFGH-JKMN',
        email: 'admin@example.com',
        password: 'correct-horse-42',
        name: 'Olena Kovalenko',
      },
    },
  },
};
