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
  fields: {
    'ok, or down': { ru: 'ok или down (не отвечает)', uk: 'ok або down (не відповідає)' },
    'ok (the provider answered), offline (no LLM_API_KEY: local embedder and extractive replies), unreachable, unauthorized (the key is refused) or error (the provider answers 5xx)':
      {
        ru: 'ok (провайдер ответил), offline (LLM_API_KEY не задан: локальный эмбеддер и ответы из найденных фрагментов), unreachable (недоступен), unauthorized (ключ отклонён) или error (провайдер отвечает 5xx)',
        uk: 'ok (провайдер відповів), offline (LLM_API_KEY не задано: локальний ембедер і відповіді зі знайдених фрагментів), unreachable (недоступний), unauthorized (ключ відхилено) або error (провайдер відповідає 5xx)',
      },
    'Why the status is degraded; absent when it is ok': {
      ru: 'Почему состояние ухудшено; отсутствует, когда всё в порядке',
      uk: 'Чому стан погіршено; відсутнє, коли все гаразд',
    },
  },
  responses: {
    getHealth: {
      503: {
        en: 'The database or the queue is down; the body still reports every check',
        ru: 'База данных или очередь недоступны; тело ответа всё равно содержит результат каждой проверки',
        uk: 'База даних або черга недоступні; тіло відповіді все одно містить результат кожної перевірки',
      },
    },
  },
  examples: {
    getHealth: {
      response: {
        status: 'ok',
        version: '0.1.0',
        uptimeSec: 3600,
        checks: { database: 'ok', queue: 'ok', llm: 'ok' },
      },
    },
  },
};
