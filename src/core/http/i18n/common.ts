import type { DocsArea, Language } from './types.js';

/** `info.description` of the served document. */
export const API_DESCRIPTION: Record<Language, string> = {
  en: 'Back end for company assistants: channel messages in, knowledge-grounded replies out, with people approving replies until the assistant has earned trust. Sign in with POST /auth/login and send the token as "Authorization: Bearer <token>" (the Authorize button keeps it across reloads). Every error answers { error, message, statusCode, details? }. The same description is served in English, Russian and Ukrainian: /docs/json?lang=en, ru or uk.',
  ru: 'Бэкенд корпоративных ассистентов: сообщения из каналов на входе, ответы на основе базы знаний на выходе; люди утверждают ответы, пока ассистент не заслужит доверие. Войдите через POST /auth/login и передавайте токен в заголовке «Authorization: Bearer <токен>» (кнопка Authorize сохраняет его между перезагрузками). Любая ошибка приходит в виде { error, message, statusCode, details? }. Это же описание доступно на английском, русском и украинском: /docs/json?lang=en, ru или uk.',
  uk: 'Бекенд корпоративних асистентів: повідомлення з каналів на вході, відповіді на основі бази знань на виході; люди затверджують відповіді, доки асистент не заслужить довіри. Увійдіть через POST /auth/login і передавайте токен у заголовку «Authorization: Bearer <токен>» (кнопка Authorize зберігає його між перезавантаженнями). Будь-яка помилка надходить у вигляді { error, message, statusCode, details? }. Цей самий опис доступний англійською, російською та українською: /docs/json?lang=en, ru або uk.',
};

/**
 * Description strings that read the same in every language (bare names and
 * identifiers). Keep this list short: anything a person reads gets translated.
 */
export const LANGUAGE_NEUTRAL: readonly string[] = ['UUID', 'E.164'];

/** Texts of the shared schemas in core/http/schemas.ts and of the document itself. */
export const commonDocs: DocsArea = {
  tags: {},
  operations: {},
  fields: {
    [API_DESCRIPTION.en]: { ru: API_DESCRIPTION.ru, uk: API_DESCRIPTION.uk },
    'Identifier (UUID)': { ru: 'Идентификатор (UUID)', uk: 'Ідентифікатор (UUID)' },
    'ISO 8601 timestamp (UTC)': { ru: 'Время в формате ISO 8601 (UTC)', uk: 'Час у форматі ISO 8601 (UTC)' },
    'Error class name, for example ValidationError': {
      ru: 'Имя класса ошибки, например ValidationError',
      uk: 'Назва класу помилки, наприклад ValidationError',
    },
    'What went wrong, for people': {
      ru: 'Что пошло не так, понятным языком',
      uk: 'Що пішло не так, зрозумілою мовою',
    },
    'HTTP status': { ru: 'HTTP-статус', uk: 'HTTP-статус' },
    'Structured diagnostics, for example failing fields': {
      ru: 'Структурированные подробности, например поля с ошибками',
      uk: 'Структуровані подробиці, наприклад поля з помилками',
    },
    'Present on 500 responses; quote it when reporting': {
      ru: 'Есть в ответах 500; укажите его, сообщая о проблеме',
      uk: 'Є у відповідях 500; зазначте його, повідомляючи про проблему',
    },
    'Page size (1-100)': { ru: 'Размер страницы (1–100)', uk: 'Розмір сторінки (1–100)' },
    'Rows to skip': { ru: 'Сколько записей пропустить', uk: 'Скільки записів пропустити' },
    'Rows matching the filters': {
      ru: 'Число записей, подходящих под фильтры',
      uk: 'Кількість записів, що відповідають фільтрам',
    },
    'Rows on one page': { ru: 'Записей на странице', uk: 'Записів на сторінці' },
    'Rows skipped before this page': {
      ru: 'Сколько записей пропущено перед этой страницей',
      uk: 'Скільки записів пропущено перед цією сторінкою',
    },
    'The rows of this page': { ru: 'Записи этой страницы', uk: 'Записи цієї сторінки' },
    'true when the action was done': { ru: 'true, если действие выполнено', uk: 'true, якщо дію виконано' },
  },
};
