import type { Language } from './types.js';

type Text = Record<Language, string>;

/** What each status means, the default description of a response with that status. */
export const STATUS_TEXTS: Record<number, Text> = {
  200: { en: 'Success', ru: 'Успешно', uk: 'Успішно' },
  201: { en: 'Created', ru: 'Создано', uk: 'Створено' },
  202: { en: 'Accepted for processing', ru: 'Принято в обработку', uk: 'Прийнято до обробки' },
  204: {
    en: 'No content: done, nothing to return',
    ru: 'Нет содержимого: выполнено, возвращать нечего',
    uk: 'Немає вмісту: виконано, повертати нічого',
  },
  400: {
    en: 'Malformed request: the body is not valid JSON or the URL is broken',
    ru: 'Некорректный запрос: тело не является правильным JSON или адрес повреждён',
    uk: 'Некоректний запит: тіло не є правильним JSON або адресу пошкоджено',
  },
  401: {
    en: 'Not signed in: the token is missing, invalid, expired or revoked',
    ru: 'Вход не выполнен: токен отсутствует, неверен, истёк или отозван',
    uk: 'Вхід не виконано: токен відсутній, недійсний, прострочений або відкликаний',
  },
  403: {
    en: 'Forbidden: a required permission is missing, or the department is not one of yours',
    ru: 'Запрещено: нет нужного права или отдел не входит в ваши',
    uk: 'Заборонено: немає потрібного права або відділ не належить до ваших',
  },
  404: {
    en: 'Not found, or outside your departments',
    ru: 'Не найдено или находится вне ваших отделов',
    uk: 'Не знайдено або перебуває поза вашими відділами',
  },
  409: {
    en: 'Conflict with the current state, for example a name or email already taken',
    ru: 'Конфликт с текущим состоянием, например имя или адрес почты уже заняты',
    uk: 'Конфлікт із поточним станом, наприклад назву чи адресу пошти вже зайнято',
  },
  413: {
    en: 'Payload too large: the body or the file is over the limit',
    ru: 'Слишком большой запрос: тело или файл превышают лимит',
    uk: 'Завеликий запит: тіло або файл перевищують ліміт',
  },
  415: {
    en: 'Unsupported media type: this content type or file type is not accepted',
    ru: 'Неподдерживаемый тип данных: такой тип содержимого или файла не принимается',
    uk: 'Непідтримуваний тип даних: такий тип вмісту або файлу не приймається',
  },
  422: {
    en: 'Validation failed: details lists each field and what is wrong with it',
    ru: 'Ошибка проверки: в details перечислены поля и что с ними не так',
    uk: 'Помилка перевірки: у details перелічено поля й що з ними не так',
  },
  429: {
    en: 'Too many requests: wait the number of seconds in Retry-After',
    ru: 'Слишком много запросов: подождите столько секунд, сколько указано в Retry-After',
    uk: 'Забагато запитів: зачекайте стільки секунд, скільки зазначено в Retry-After',
  },
  500: {
    en: 'Internal error: quote requestId when reporting it',
    ru: 'Внутренняя ошибка: укажите requestId, сообщая о ней',
    uk: 'Внутрішня помилка: зазначте requestId, повідомляючи про неї',
  },
  501: {
    en: 'Not implemented in this version',
    ru: 'Не реализовано в этой версии',
    uk: 'Не реалізовано в цій версії',
  },
  503: {
    en: 'Service unavailable: the database or the queue does not answer',
    ru: 'Сервис недоступен: база данных или очередь не отвечают',
    uk: 'Сервіс недоступний: база даних або черга не відповідають',
  },
};

/** Fallbacks by status class, for a status the table above does not name. */
const CLASS_TEXTS: Record<string, Text> = {
  '2': { en: 'Success', ru: 'Успешно', uk: 'Успішно' },
  '3': { en: 'Redirect', ru: 'Перенаправление', uk: 'Перенаправлення' },
  '4': { en: 'Request refused', ru: 'Запрос отклонён', uk: 'Запит відхилено' },
  '5': { en: 'Server error', ru: 'Ошибка сервера', uk: 'Помилка сервера' },
};

/** The default description of `status` in `lang`. */
export function statusText(status: number | string, lang: Language): string {
  const text = STATUS_TEXTS[Number(status)] ?? CLASS_TEXTS[String(status).charAt(0)] ?? CLASS_TEXTS['2'];
  return (text as Text)[lang];
}

interface ErrorExample {
  error: string;
  message: string;
  statusCode: number;
  details?: unknown;
  requestId?: string;
}

/** The example body of an error response: the envelope as the error handler writes it. */
export const ERROR_EXAMPLES: Record<number, ErrorExample> = {
  400: { error: 'BadRequestError', message: 'Body is not valid JSON', statusCode: 400 },
  401: { error: 'UnauthorizedError', message: 'Authentication required', statusCode: 401 },
  403: { error: 'ForbiddenError', message: 'You do not have permission to do this', statusCode: 403 },
  404: {
    error: 'NotFoundError',
    message: 'Department 3fa85f64-5717-4562-b3fc-2c963f66afa6 not found',
    statusCode: 404,
  },
  409: { error: 'ConflictError', message: 'The slug "support" is already taken', statusCode: 409 },
  413: { error: 'PayloadTooLargeError', message: 'Request body is too large', statusCode: 413 },
  415: { error: 'UnsupportedMediaTypeError', message: 'Unsupported content type', statusCode: 415 },
  422: {
    error: 'ValidationError',
    message: 'Request validation failed',
    statusCode: 422,
    details: [{ field: 'body.email', message: 'must match format "email"' }],
  },
  429: {
    error: 'TooManyRequestsError',
    message: 'Too many requests; at most 10 a minute from one address',
    statusCode: 429,
  },
  500: {
    error: 'InternalServerError',
    message: 'An unexpected error occurred. Quote request id req-1a2b3c when reporting it.',
    statusCode: 500,
    requestId: 'req-1a2b3c',
  },
  501: { error: 'NotImplementedError', message: 'Not implemented in this version', statusCode: 501 },
  503: { error: 'ServiceUnavailableError', message: 'The database does not answer', statusCode: 503 },
};
