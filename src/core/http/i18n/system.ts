import type { DocsArea } from './types.js';

export const systemDocs: DocsArea = {
  tags: {
    system: {
      en: 'Service health and operation',
      ru: 'Состояние и работа сервиса',
      uk: 'Стан і робота сервісу',
    },
  },
  operations: {
    getHealth: {
      en: {
        summary: 'Check service health',
        description:
          'Reports whether the database and the queue answer, the version and uptime, and whether the LLM is configured or the service runs offline. Answers 503 when the database or the queue is unreachable. No authentication.',
      },
      ru: {
        summary: 'Проверить состояние сервиса',
        description:
          'Показывает, отвечают ли база данных и очередь, версию и время работы, а также подключена ли языковая модель или сервис работает офлайн. Возвращает 503, если база данных или очередь недоступны. Аутентификация не нужна.',
      },
      uk: {
        summary: 'Перевірити стан сервісу',
        description:
          'Показує, чи відповідають база даних і черга, версію та час роботи, а також чи підключено мовну модель, чи сервіс працює офлайн. Повертає 503, якщо база даних або черга недоступні. Автентифікація не потрібна.',
      },
    },
  },
};
