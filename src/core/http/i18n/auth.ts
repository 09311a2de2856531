import type { DocsArea } from './types.js';

export const authDocs: DocsArea = {
  tags: {
    auth: {
      en: 'Registration, login and password recovery',
      ru: 'Регистрация, вход и восстановление пароля',
      uk: 'Реєстрація, вхід і відновлення пароля',
    },
  },
  operations: {
    registerUser: {
      en: {
        summary: 'Register an account',
        description:
          'Creates an account in the given department and returns a token. The role is always employee; a role in the body is ignored. Password: 8 to 128 characters with at least one letter and one digit. Rate limited per client address.',
      },
      ru: {
        summary: 'Зарегистрировать учётную запись',
        description:
          'Создаёт учётную запись в указанном отделе и возвращает токен. Роль всегда employee; роль в теле запроса игнорируется. Пароль: от 8 до 128 символов, минимум одна буква и одна цифра. Число запросов с одного адреса ограничено.',
      },
      uk: {
        summary: 'Зареєструвати обліковий запис',
        description:
          'Створює обліковий запис у вказаному відділі й повертає токен. Роль завжди employee; роль у тілі запиту ігнорується. Пароль: від 8 до 128 символів, щонайменше одна літера й одна цифра. Кількість запитів з однієї адреси обмежена.',
      },
    },
    loginUser: {
      en: {
        summary: 'Log in',
        description:
          'Exchanges email and password for a JWT bearer token. A wrong email, a wrong password and a deactivated account all answer the same 401. Rate limited per client address.',
      },
      ru: {
        summary: 'Войти',
        description:
          'Обменивает email и пароль на JWT-токен. Неверный email, неверный пароль и деактивированная учётная запись дают одинаковый ответ 401. Число запросов с одного адреса ограничено.',
      },
      uk: {
        summary: 'Увійти',
        description:
          'Обмінює email і пароль на JWT-токен. Неправильний email, неправильний пароль і деактивований обліковий запис дають однакову відповідь 401. Кількість запитів з однієї адреси обмежена.',
      },
    },
    refreshToken: {
      en: {
        summary: 'Refresh the token',
        description:
          'Takes a still-valid token in the Authorization header and returns a new one with a fresh lifetime.',
      },
      ru: {
        summary: 'Обновить токен',
        description:
          'Принимает ещё действующий токен в заголовке Authorization и возвращает новый с полным сроком действия.',
      },
      uk: {
        summary: 'Оновити токен',
        description:
          'Приймає ще чинний токен у заголовку Authorization і повертає новий із повним строком дії.',
      },
    },
    forgotPassword: {
      en: {
        summary: 'Request a password reset',
        description:
          'Always answers { ok: true }, whether or not the account exists. For an existing account a single-use reset token valid for one hour is written to the service log; mail delivery is up to the operator.',
      },
      ru: {
        summary: 'Запросить сброс пароля',
        description:
          'Всегда отвечает { ok: true }, независимо от того, существует ли учётная запись. Для существующей учётной записи одноразовый токен сброса, действующий один час, записывается в журнал сервиса; отправку письма настраивает оператор.',
      },
      uk: {
        summary: 'Запросити скидання пароля',
        description:
          'Завжди відповідає { ok: true }, незалежно від того, чи існує обліковий запис. Для наявного облікового запису одноразовий токен скидання, чинний одну годину, записується в журнал сервісу; надсилання листа налаштовує оператор.',
      },
    },
    resetPassword: {
      en: {
        summary: 'Reset the password',
        description:
          'Sets a new password with a reset token. The new password needs 8 to 128 characters with at least one letter and one digit. Every earlier token of the account stops working.',
      },
      ru: {
        summary: 'Сбросить пароль',
        description:
          'Устанавливает новый пароль по токену сброса. Новый пароль: от 8 до 128 символов, минимум одна буква и одна цифра. Все прежние токены учётной записи перестают действовать.',
      },
      uk: {
        summary: 'Скинути пароль',
        description:
          'Встановлює новий пароль за токеном скидання. Новий пароль: від 8 до 128 символів, щонайменше одна літера й одна цифра. Усі попередні токени облікового запису перестають діяти.',
      },
    },
  },
  fields: {
    'Email address': { ru: 'Адрес электронной почты', uk: 'Адреса електронної пошти' },
    'Email address of the account': {
      ru: 'Адрес электронной почты учётной записи',
      uk: 'Адреса електронної пошти облікового запису',
    },
    Password: { ru: 'Пароль', uk: 'Пароль' },
    'Password: 8 to 128 characters, with at least one letter and one digit': {
      ru: 'Пароль: от 8 до 128 символов, хотя бы одна буква и одна цифра',
      uk: 'Пароль: від 8 до 128 символів, щонайменше одна літера й одна цифра',
    },
    'New password: 8 to 128 characters, with at least one letter and one digit': {
      ru: 'Новый пароль: от 8 до 128 символов, хотя бы одна буква и одна цифра',
      uk: 'Новий пароль: від 8 до 128 символів, щонайменше одна літера й одна цифра',
    },
    'Display name': { ru: 'Отображаемое имя', uk: "Ім'я для показу" },
    'Department the user joins': {
      ru: 'Отдел, в который вступает пользователь',
      uk: 'Відділ, до якого приєднується користувач',
    },
    'User id': { ru: 'Идентификатор пользователя', uk: 'Ідентифікатор користувача' },
    'Role slug': { ru: 'Слаг роли', uk: 'Слаг ролі' },
    'Primary department': { ru: 'Основной отдел', uk: 'Основний відділ' },
    'JWT bearer token': { ru: 'JWT-токен для заголовка Bearer', uk: 'JWT-токен для заголовка Bearer' },
    'Reset token from forgot-password': {
      ru: 'Токен сброса, полученный через forgot-password',
      uk: 'Токен скидання, отриманий через forgot-password',
    },
  },
  responses: {
    loginUser: {
      401: {
        en: 'Wrong email or password, or a deactivated account (the same answer for all three)',
        ru: 'Неверный адрес почты или пароль либо деактивированная учётная запись (ответ одинаков во всех трёх случаях)',
        uk: 'Неправильна адреса пошти чи пароль або деактивований обліковий запис (відповідь однакова в усіх трьох випадках)',
      },
    },
    forgotPassword: {
      200: {
        en: 'Always { ok: true }, whether or not the account exists',
        ru: 'Всегда { ok: true }, независимо от того, существует ли учётная запись',
        uk: 'Завжди { ok: true }, незалежно від того, чи існує обліковий запис',
      },
    },
    resetPassword: {
      422: {
        en: 'The token is unknown, used or expired (details names body.token), or the new password breaks the rule',
        ru: 'Токен неизвестен, уже использован или истёк (details указывает body.token) либо новый пароль не соответствует правилу',
        uk: 'Токен невідомий, уже використаний або прострочений (details указує body.token) чи новий пароль не відповідає правилу',
      },
    },
  },
  examples: {
    loginUser: { request: { email: 'admin@example.com', password: 'Correct-horse-42' } },
    resetPassword: {
      request: {
        token: '5f2c9a0e7b4d4c1f8e6a3b2d1c0f9e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d',
        newPassword: 'Correct-horse-42',
      },
    },
  },
};
