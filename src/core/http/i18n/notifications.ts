import type { DocsArea } from './types.js';

export const notificationsDocs: DocsArea = {
  tags: {
    notifications: {
      en: 'Your in-app notifications: the inbox, read state and deletion (only your own rows)',
      ru: 'Ваши уведомления в приложении: входящие, отметка о прочтении и удаление (только ваши записи)',
      uk: 'Ваші сповіщення в застосунку: вхідні, позначка про прочитання та видалення (лише ваші записи)',
    },
  },
  operations: {
    listNotifications: {
      en: {
        summary: 'List your notifications',
        description:
          'Returns your notifications, newest first, as { items, pagination: { total, limit, offset }, unreadCount }. unreadOnly=true keeps only unread rows; limit is 1 to 100 (default 20), offset from 0. unreadCount counts all your unread notifications, whatever the filter and page.',
      },
      ru: {
        summary: 'Список ваших уведомлений',
        description:
          'Возвращает ваши уведомления, начиная с новых, в виде { items, pagination: { total, limit, offset }, unreadCount }. unreadOnly=true оставляет только непрочитанные; limit от 1 до 100 (по умолчанию 20), offset от 0. unreadCount считает все ваши непрочитанные уведомления независимо от фильтра и страницы.',
      },
      uk: {
        summary: 'Список ваших сповіщень',
        description:
          'Повертає ваші сповіщення, починаючи з нових, у вигляді { items, pagination: { total, limit, offset }, unreadCount }. unreadOnly=true залишає лише непрочитані; limit від 1 до 100 (типово 20), offset від 0. unreadCount рахує всі ваші непрочитані сповіщення незалежно від фільтра та сторінки.',
      },
    },
    markNotificationRead: {
      en: {
        summary: 'Mark a notification read',
        description:
          'Sets readAt to the server time and returns the notification. Idempotent: a notification read before is returned unchanged. Another user’s notification, or an unknown id, answers 404.',
      },
      ru: {
        summary: 'Отметить уведомление прочитанным',
        description:
          'Устанавливает readAt на время сервера и возвращает уведомление. Идемпотентно: уже прочитанное уведомление возвращается без изменений. Уведомление другого пользователя или неизвестный идентификатор дают ответ 404.',
      },
      uk: {
        summary: 'Позначити сповіщення прочитаним',
        description:
          'Встановлює readAt на час сервера й повертає сповіщення. Ідемпотентно: уже прочитане сповіщення повертається без змін. Сповіщення іншого користувача або невідомий ідентифікатор дають відповідь 404.',
      },
    },
    markAllNotificationsRead: {
      en: {
        summary: 'Mark all your notifications read',
        description:
          'Marks every unread notification of yours read with the server time and answers how many changed. Rows read before keep their readAt.',
      },
      ru: {
        summary: 'Отметить все ваши уведомления прочитанными',
        description:
          'Отмечает все ваши непрочитанные уведомления прочитанными по времени сервера и возвращает, сколько изменилось. Прочитанные ранее сохраняют свой readAt.',
      },
      uk: {
        summary: 'Позначити всі ваші сповіщення прочитаними',
        description:
          'Позначає всі ваші непрочитані сповіщення прочитаними за часом сервера й повертає, скільки змінилося. Прочитані раніше зберігають свій readAt.',
      },
    },
    deleteNotification: {
      en: {
        summary: 'Delete a notification',
        description:
          'Deletes one of your notifications: it leaves the inbox and the unread count. Another user’s notification, or an unknown id, answers 404 and is left untouched.',
      },
      ru: {
        summary: 'Удалить уведомление',
        description:
          'Удаляет одно из ваших уведомлений: оно исчезает из входящих и из счётчика непрочитанных. Уведомление другого пользователя или неизвестный идентификатор дают ответ 404, и запись не меняется.',
      },
      uk: {
        summary: 'Видалити сповіщення',
        description:
          'Видаляє одне з ваших сповіщень: воно зникає з вхідних і з лічильника непрочитаних. Сповіщення іншого користувача або невідомий ідентифікатор дають відповідь 404, і запис не змінюється.',
      },
    },
  },
  fields: {
    'Notification id': { ru: 'Идентификатор уведомления', uk: 'Ідентифікатор сповіщення' },
    'The recipient: always you': { ru: 'Получатель: всегда вы', uk: 'Отримувач: завжди ви' },
    'Set by the producer: approval_pending, assistant_reply, document_ready, mention or system': {
      ru: 'Задаётся источником: approval_pending, assistant_reply, document_ready, mention или system',
      uk: 'Задається джерелом: approval_pending, assistant_reply, document_ready, mention або system',
    },
    'Short label': { ru: 'Краткий заголовок', uk: 'Короткий заголовок' },
    'Longer text, when the producer gave one': {
      ru: 'Подробный текст, если источник его указал',
      uk: 'Докладний текст, якщо джерело його вказало',
    },
    'Kind of the linked record: approval, message, document, …': {
      ru: 'Вид связанной записи: approval, message, document, …',
      uk: 'Вид пов’язаного запису: approval, message, document, …',
    },
    'Id of the linked record': {
      ru: 'Идентификатор связанной записи',
      uk: 'Ідентифікатор пов’язаного запису',
    },
    'When it was first marked read; null while unread': {
      ru: 'Когда уведомление впервые отмечено прочитанным; null, пока не прочитано',
      uk: 'Коли сповіщення вперше позначено прочитаним; null, доки не прочитано',
    },
    'Only notifications not yet read': {
      ru: 'Только ещё не прочитанные уведомления',
      uk: 'Лише ще не прочитані сповіщення',
    },
    'The rows of this page, newest first': {
      ru: 'Записи этой страницы, начиная с новых',
      uk: 'Записи цієї сторінки, починаючи з нових',
    },
    'Where this page lies in the filtered list': {
      ru: 'Положение этой страницы в отфильтрованном списке',
      uk: 'Положення цієї сторінки у відфільтрованому списку',
    },
    'Your unread notifications, whatever the filter and page': {
      ru: 'Ваши непрочитанные уведомления независимо от фильтра и страницы',
      uk: 'Ваші непрочитані сповіщення незалежно від фільтра та сторінки',
    },
    'Notifications that were unread and are now read': {
      ru: 'Уведомления, которые были непрочитанными и теперь прочитаны',
      uk: 'Сповіщення, які були непрочитаними й тепер прочитані',
    },
  },
};
