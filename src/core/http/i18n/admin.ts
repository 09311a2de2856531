import type { DocsArea } from './types.js';

export const adminDocs: DocsArea = {
  tags: {
    admin: {
      en: 'Operations: the queue dashboard at /admin/queues and the browser session that opens it',
      ru: 'Эксплуатация: панель очередей по адресу /admin/queues и браузерная сессия для входа в неё',
      uk: 'Експлуатація: панель черг за адресою /admin/queues і браузерна сесія для входу до неї',
    },
  },
  operations: {
    openQueueBoardSession: {
      en: {
        summary: 'Open the queue dashboard in a browser',
        description:
          'Sets a short-lived (15 minutes), HttpOnly, SameSite=Strict cookie for the path /admin/queues, so a browser that calls this with its bearer token can then open the queue dashboard (bull-board) there. The cookie holds a token signed for the dashboard only: it is no API token. Needs canEditSettings.',
      },
      ru: {
        summary: 'Открыть панель очередей в браузере',
        description:
          'Устанавливает недолговечный (15 минут) cookie с флагами HttpOnly и SameSite=Strict для пути /admin/queues, чтобы браузер, вызвавший этот метод со своим токеном, мог затем открыть там панель очередей (bull-board). Cookie содержит токен, подписанный только для панели: это не токен API. Требуется canEditSettings.',
      },
      uk: {
        summary: 'Відкрити панель черг у браузері',
        description:
          'Встановлює короткочасний (15 хвилин) cookie з прапорцями HttpOnly і SameSite=Strict для шляху /admin/queues, щоб браузер, який викликав цей метод зі своїм токеном, міг потім відкрити там панель черг (bull-board). Cookie містить токен, підписаний лише для панелі: це не токен API. Потрібен canEditSettings.',
      },
    },
  },
  fields: {
    'Where the dashboard is; open it in the same browser': {
      ru: 'Где находится панель; откройте её в том же браузере',
      uk: 'Де розташована панель; відкрийте її в тому самому браузері',
    },
    'When the dashboard session cookie expires': {
      ru: 'Когда истекает cookie сессии панели',
      uk: 'Коли спливає cookie сесії панелі',
    },
  },
  examples: {
    openQueueBoardSession: { response: { path: '/admin/queues', expiresAt: '2026-11-23T10:15:00.000Z' } },
  },
};
