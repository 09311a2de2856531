import type { DocsArea } from './types.js';

export const pluginsDocs: DocsArea = {
  tags: {
    plugins: {
      en: 'Namespace plugins: the catalogue of plugins and their configuration per namespace',
      ru: 'Плагины пространств имён: каталог плагинов и их настройки для каждого пространства имён',
      uk: 'Плагіни просторів імен: каталог плагінів і їхні налаштування для кожного простору імен',
    },
  },
  operations: {
    listPlugins: {
      en: {
        summary: 'List plugins',
        description:
          'Returns every plugin the service knows, built-in ones first, then those loaded from PLUGINS_DIR: id, name, description, version, the pipeline hooks it uses and the JSON Schema of its configuration. Any signed-in user.',
      },
      ru: {
        summary: 'Список плагинов',
        description:
          'Возвращает все плагины, известные сервису, сначала встроенные, затем загруженные из PLUGINS_DIR: id, название, описание, версию, используемые точки конвейера и JSON Schema настроек. Любой вошедший пользователь.',
      },
      uk: {
        summary: 'Список плагінів',
        description:
          'Повертає всі плагіни, відомі сервісу, спершу вбудовані, потім завантажені з PLUGINS_DIR: id, назву, опис, версію, використані точки конвеєра та JSON Schema налаштувань. Будь-який користувач, що увійшов.',
      },
    },
    listNamespacePlugins: {
      en: {
        summary: 'List the plugins of a namespace',
        description:
          'Returns the plugins installed on a namespace, enabled or disabled, in installation order (the order they run in). Write-only settings such as a webhook secret read as [set]. A namespace outside your departments answers 404. Requires canManagePlugins or canManageNamespaces.',
      },
      ru: {
        summary: 'Плагины пространства имён',
        description:
          'Возвращает плагины, установленные в пространстве имён, включённые и выключенные, в порядке установки (в нём они и работают). Секретные настройки, например секрет вебхука, показаны как [set]. Пространство имён вне ваших отделов даёт ответ 404. Нужно право canManagePlugins или canManageNamespaces.',
      },
      uk: {
        summary: 'Плагіни простору імен',
        description:
          'Повертає плагіни, встановлені в просторі імен, увімкнені й вимкнені, у порядку встановлення (у ньому вони й працюють). Секретні налаштування, наприклад секрет вебхука, показано як [set]. Простір імен поза вашими відділами дає відповідь 404. Потрібне право canManagePlugins або canManageNamespaces.',
      },
    },
    getNamespacePlugin: {
      en: {
        summary: 'Get a plugin of a namespace',
        description:
          'Returns one plugin installation of a namespace, enabled or disabled; write-only settings read as [set]. A plugin not installed on the namespace or a namespace outside your departments answers 404. Requires canManagePlugins or canManageNamespaces.',
      },
      ru: {
        summary: 'Получить плагин пространства имён',
        description:
          'Возвращает одну установку плагина в пространстве имён, включённую или выключенную; секретные настройки показаны как [set]. Плагин, не установленный в пространстве имён, или пространство имён вне ваших отделов дают ответ 404. Нужно право canManagePlugins или canManageNamespaces.',
      },
      uk: {
        summary: 'Отримати плагін простору імен',
        description:
          'Повертає одне встановлення плагіна в просторі імен, увімкнене чи вимкнене; секретні налаштування показано як [set]. Плагін, не встановлений у просторі імен, або простір імен поза вашими відділами дають відповідь 404. Потрібне право canManagePlugins або canManageNamespaces.',
      },
    },
    installNamespacePlugin: {
      en: {
        summary: 'Install or configure a plugin on a namespace',
        description:
          "Installs the plugin on the namespace (enabled unless enabled is false) and answers 201, or replaces the configuration of an existing installation and answers 200. The config is checked against the plugin's JSON Schema: every problem is listed in a 422. A write-only setting left out keeps its stored value. An unknown plugin or a namespace outside your departments answers 404. The next task of the namespace, on any worker, runs with the new settings. Requires canManagePlugins or canManageNamespaces.",
      },
      ru: {
        summary: 'Установить или настроить плагин в пространстве имён',
        description:
          'Устанавливает плагин в пространство имён (включённым, если enabled не false) и отвечает 201, или заменяет настройки уже установленного плагина и отвечает 200. Настройки проверяются по JSON Schema плагина: все ошибки перечислены в ответе 422. Пропущенная секретная настройка сохраняет прежнее значение. Неизвестный плагин или пространство имён вне ваших отделов дают ответ 404. Следующая задача пространства имён на любом обработчике работает с новыми настройками. Нужно право canManagePlugins или canManageNamespaces.',
      },
      uk: {
        summary: 'Встановити або налаштувати плагін у просторі імен',
        description:
          'Встановлює плагін у простір імен (увімкненим, якщо enabled не false) і відповідає 201, або замінює налаштування вже встановленого плагіна й відповідає 200. Налаштування перевіряються за JSON Schema плагіна: усі помилки перелічено у відповіді 422. Пропущене секретне налаштування зберігає попереднє значення. Невідомий плагін або простір імен поза вашими відділами дають відповідь 404. Наступне завдання простору імен на будь-якому обробнику працює з новими налаштуваннями. Потрібне право canManagePlugins або canManageNamespaces.',
      },
    },
    updateNamespacePlugin: {
      en: {
        summary: 'Change a plugin of a namespace',
        description:
          "Changes an installed plugin's configuration (replaced whole and checked against the plugin's JSON Schema; a write-only setting left out keeps its value) or switches it on or off. A plugin that is not installed on the namespace, an unknown plugin or a namespace outside your departments answers 404. Requires canManagePlugins or canManageNamespaces.",
      },
      ru: {
        summary: 'Изменить плагин пространства имён',
        description:
          'Меняет настройки установленного плагина (заменяются целиком и проверяются по JSON Schema плагина; пропущенная секретная настройка сохраняет значение) или включает и выключает его. Плагин, не установленный в пространстве имён, неизвестный плагин или пространство имён вне ваших отделов дают ответ 404. Нужно право canManagePlugins или canManageNamespaces.',
      },
      uk: {
        summary: 'Змінити плагін простору імен',
        description:
          'Змінює налаштування встановленого плагіна (замінюються повністю й перевіряються за JSON Schema плагіна; пропущене секретне налаштування зберігає значення) або вмикає й вимикає його. Плагін, не встановлений у просторі імен, невідомий плагін або простір імен поза вашими відділами дають відповідь 404. Потрібне право canManagePlugins або canManageNamespaces.',
      },
    },
    disableNamespacePlugin: {
      en: {
        summary: 'Disable a plugin of a namespace',
        description:
          'Marks the plugin disabled on the namespace (its configuration is kept, so POST or PATCH can enable it again) and drops it from the runtime cache of every worker: the next task no longer runs it. Answers 204. A plugin that is not installed on the namespace or a namespace outside your departments answers 404. Requires canManagePlugins or canManageNamespaces.',
      },
      ru: {
        summary: 'Выключить плагин пространства имён',
        description:
          'Помечает плагин выключенным в пространстве имён (настройки сохраняются, и POST или PATCH могут снова его включить) и убирает его из кэша каждого обработчика: следующая задача его уже не запускает. Отвечает 204. Плагин, не установленный в пространстве имён, или пространство имён вне ваших отделов дают ответ 404. Нужно право canManagePlugins или canManageNamespaces.',
      },
      uk: {
        summary: 'Вимкнути плагін простору імен',
        description:
          'Позначає плагін вимкненим у просторі імен (налаштування зберігаються, і POST або PATCH можуть знову його ввімкнути) та прибирає його з кешу кожного обробника: наступне завдання його вже не запускає. Відповідає 204. Плагін, не встановлений у просторі імен, або простір імен поза вашими відділами дають відповідь 404. Потрібне право canManagePlugins або canManageNamespaces.',
      },
    },
  },
  fields: {
    'Plugin id: lower-case letters, digits, dot, underscore or hyphen': {
      ru: 'Идентификатор плагина: строчные латинские буквы, цифры, точка, подчёркивание или дефис',
      uk: 'Ідентифікатор плагіна: малі латинські літери, цифри, крапка, підкреслення або дефіс',
    },
    'Display name of the plugin': { ru: 'Отображаемое название плагина', uk: 'Назва плагіна для показу' },
    'What the plugin does': { ru: 'Что делает плагин', uk: 'Що робить плагін' },
    'Version of the plugin': { ru: 'Версия плагина', uk: 'Версія плагіна' },
    'builtin (shipped) or operator (loaded from PLUGINS_DIR)': {
      ru: 'builtin (поставляется с сервисом) или operator (загружен из PLUGINS_DIR)',
      uk: 'builtin (постачається із сервісом) або operator (завантажений із PLUGINS_DIR)',
    },
    'Pipeline points where the plugin acts: before_generate, after_confidence_check, after_delivery': {
      ru: 'Точки конвейера, где работает плагин: before_generate, after_confidence_check, after_delivery',
      uk: 'Точки конвеєра, де працює плагін: before_generate, after_confidence_check, after_delivery',
    },
    'JSON Schema of the plugin configuration of a namespace': {
      ru: 'JSON Schema настроек плагина для пространства имён',
      uk: 'JSON Schema налаштувань плагіна для простору імен',
    },
    'Write-only configuration keys: never answered, shown as [set]': {
      ru: 'Секретные ключи настроек: никогда не возвращаются, показаны как [set]',
      uk: 'Секретні ключі налаштувань: ніколи не повертаються, показано як [set]',
    },
    "Plugin configuration, validated against the plugin's configSchema": {
      ru: 'Настройки плагина, проверяются по его configSchema',
      uk: 'Налаштування плагіна, перевіряються за його configSchema',
    },
    'Whether the plugin runs for the namespace (default true)': {
      ru: 'Работает ли плагин для пространства имён (по умолчанию true)',
      uk: 'Чи працює плагін для простору імен (типово true)',
    },
    'Whether the plugin runs for the namespace': {
      ru: 'Работает ли плагин для пространства имён',
      uk: 'Чи працює плагін для простору імен',
    },
    'false when the plugin is no longer registered in this service (it does not run)': {
      ru: 'false, если плагин больше не зарегистрирован в сервисе (он не запускается)',
      uk: 'false, якщо плагін більше не зареєстровано в сервісі (він не запускається)',
    },
    'Plugin configuration; write-only keys read as [set]': {
      ru: 'Настройки плагина; секретные ключи показаны как [set]',
      uk: 'Налаштування плагіна; секретні ключі показано як [set]',
    },
  },
  examples: {
    installNamespacePlugin: {
      request: {
        config: {
          url: 'https://hooks.example.com/assistant',
          secret: 'a-long-random-shared-secret',
          events: ['task.routed', 'approval.decided'],
        },
        enabled: true,
      },
      response: {
        namespaceId: '3f1c2a9e-8b7d-4c6e-9a5f-1d2e3f4a5b6c',
        pluginId: 'webhook',
        name: 'Outbound webhook',
        version: '1.0.0',
        enabled: true,
        registered: true,
        config: {
          url: 'https://hooks.example.com/assistant',
          secret: '[set]',
          events: ['task.routed', 'approval.decided'],
        },
        createdAt: '2026-01-15T09:30:00.000Z',
        updatedAt: '2026-01-15T09:30:00.000Z',
      },
    },
    updateNamespacePlugin: {
      request: {
        config: {
          timeZone: 'Europe/Kyiv',
          days: ['mon', 'tue', 'wed', 'thu', 'fri'],
          from: '09:00',
          to: '18:00',
          outsideHours: 'reply',
          message: 'We are closed now; a colleague will answer in the morning.',
        },
      },
    },
  },
};
