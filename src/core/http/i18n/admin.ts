import type { DocsArea } from './types.js';

export const adminDocs: DocsArea = {
  tags: {
    admin: {
      en: 'Operations: the queue dashboard at /admin/queues, the browser session that opens it, and backups',
      ru: 'Эксплуатация: панель очередей по адресу /admin/queues, браузерная сессия для входа в неё и резервные копии',
      uk: 'Експлуатація: панель черг за адресою /admin/queues, браузерна сесія для входу до неї та резервні копії',
    },
  },
  operations: {
    createBackup: {
      en: {
        summary: 'Download a backup of the embedded service',
        description:
          'Answers a tar file with everything the embedded service stores: a consistent snapshot of its database (taken between transactions, holding every commit made before the call) and the files under DATA_DIR (uploaded documents, avatars, the generated JWT secret). `npm run backup` calls this while the service runs; `npm run restore` puts it back into an empty DATA_DIR. The archive holds password hashes and secrets: keep it as you keep the server. Needs canEditSettings and access to every department. With PostgreSQL (DATABASE_URL) it answers 409: `npm run backup` runs pg_dump there.',
      },
      ru: {
        summary: 'Скачать резервную копию встроенного сервиса',
        description:
          'Возвращает tar-файл со всем, что хранит встроенный сервис: согласованный снимок его базы данных (снятый между транзакциями, со всеми изменениями, зафиксированными до вызова) и файлы в DATA_DIR (загруженные документы, аватары, сгенерированный секрет JWT). `npm run backup` вызывает этот метод, пока сервис работает; `npm run restore` возвращает копию в пустой DATA_DIR. Архив содержит хеши паролей и секреты: храните его так же, как сервер. Требуются canEditSettings и доступ ко всем отделам. С PostgreSQL (DATABASE_URL) ответ 409: там `npm run backup` запускает pg_dump.',
      },
      uk: {
        summary: 'Завантажити резервну копію вбудованого сервісу',
        description:
          'Повертає tar-файл з усім, що зберігає вбудований сервіс: узгоджений знімок його бази даних (знятий між транзакціями, з усіма змінами, зафіксованими до виклику) і файли в DATA_DIR (завантажені документи, аватари, згенерований секрет JWT). `npm run backup` викликає цей метод, поки сервіс працює; `npm run restore` повертає копію в порожній DATA_DIR. Архів містить хеші паролів і секрети: зберігайте його так само, як сервер. Потрібні canEditSettings і доступ до всіх відділів. З PostgreSQL (DATABASE_URL) відповідь 409: там `npm run backup` запускає pg_dump.',
      },
    },
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
    'The backup: a tar file (manifest.json, database/pgdata.tar, files/…)': {
      ru: 'Резервная копия: tar-файл (manifest.json, database/pgdata.tar, files/…)',
      uk: 'Резервна копія: tar-файл (manifest.json, database/pgdata.tar, files/…)',
    },
    'The backup archive, to restore with `npm run restore`': {
      ru: 'Архив резервной копии; восстанавливается командой `npm run restore`',
      uk: 'Архів резервної копії; відновлюється командою `npm run restore`',
    },
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
