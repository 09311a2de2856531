import type { DocsArea } from './types.js';

export const documentTemplatesDocs: DocsArea = {
  tags: {
    'document-templates': {
      en: 'Document templates (contracts, letters, offers) and documents generated from them as Markdown, HTML or DOCX, with the generation history',
      ru: 'Шаблоны документов (договоры, письма, предложения) и документы по ним в Markdown, HTML или DOCX, с историей создания',
      uk: 'Шаблони документів (договори, листи, пропозиції) і документи за ними в Markdown, HTML або DOCX, з історією створення',
    },
  },
  operations: {
    listDocumentTemplates: {
      en: {
        summary: 'List document templates',
        description:
          'Returns the templates of your departments and the shared ones (departmentId null), newest first, with limit and offset paging. category narrows the list; a departmentId filter shows that department’s templates only, and a department outside yours answers 403.',
      },
      ru: {
        summary: 'Список шаблонов документов',
        description:
          'Возвращает шаблоны ваших отделов и общие шаблоны (departmentId null), начиная с новых, с постраничным выводом через limit и offset. category сужает список; фильтр departmentId показывает только шаблоны этого отдела, а чужой отдел даёт ответ 403.',
      },
      uk: {
        summary: 'Список шаблонів документів',
        description:
          'Повертає шаблони ваших відділів і спільні шаблони (departmentId null), починаючи з нових, із посторінковим виведенням через limit і offset. category звужує список; фільтр departmentId показує лише шаблони цього відділу, а чужий відділ дає відповідь 403.',
      },
    },
    getDocumentTemplate: {
      en: {
        summary: 'Get a document template',
        description:
          'Returns one template with its body and declared variables. A template of a department outside yours answers 404.',
      },
      ru: {
        summary: 'Получить шаблон документа',
        description:
          'Возвращает один шаблон с текстом и объявленными переменными. Шаблон отдела вне ваших отделов даёт ответ 404.',
      },
      uk: {
        summary: 'Отримати шаблон документа',
        description:
          'Повертає один шаблон із текстом і оголошеними змінними. Шаблон відділу поза вашими відділами дає відповідь 404.',
      },
    },
    createDocumentTemplate: {
      en: {
        summary: 'Create a document template',
        description:
          'Creates a template in a namespace of your departments. The body is Markdown with Mustache tags ({{name}}, sections {{#flag}}…{{/flag}} and {{^flag}}…{{/flag}}); every tag must name a declared variable, and partials and unescaped output ({{{name}}}) are refused with 422. departmentId defaults to the namespace’s department; null shares the template with every department. Requires canManageTemplates.',
      },
      ru: {
        summary: 'Создать шаблон документа',
        description:
          'Создаёт шаблон в пространстве имён вашего отдела. Текст — Markdown с тегами Mustache ({{name}}, секции {{#flag}}…{{/flag}} и {{^flag}}…{{/flag}}); каждый тег должен называть объявленную переменную, а частичные шаблоны и неэкранированный вывод ({{{name}}}) отклоняются с ответом 422. departmentId по умолчанию — отдел пространства имён; null делает шаблон общим для всех отделов. Нужно право canManageTemplates.',
      },
      uk: {
        summary: 'Створити шаблон документа',
        description:
          'Створює шаблон у просторі імен вашого відділу. Текст — Markdown із тегами Mustache ({{name}}, секції {{#flag}}…{{/flag}} і {{^flag}}…{{/flag}}); кожен тег має називати оголошену змінну, а часткові шаблони й неекранований вивід ({{{name}}}) відхиляються з відповіддю 422. departmentId за замовчуванням — відділ простору імен; null робить шаблон спільним для всіх відділів. Потрібне право canManageTemplates.',
      },
    },
    updateDocumentTemplate: {
      en: {
        summary: 'Update a document template',
        description:
          'Changes a template’s fields; variables are replaced as a whole, and body and variables are checked together as on create. A shared template can only be changed from its namespace’s department (403 otherwise). Requires canManageTemplates.',
      },
      ru: {
        summary: 'Изменить шаблон документа',
        description:
          'Меняет поля шаблона; переменные заменяются целиком, а текст и переменные проверяются вместе, как при создании. Общий шаблон может изменить только отдел его пространства имён (иначе 403). Нужно право canManageTemplates.',
      },
      uk: {
        summary: 'Змінити шаблон документа',
        description:
          'Змінює поля шаблону; змінні замінюються повністю, а текст і змінні перевіряються разом, як під час створення. Спільний шаблон може змінити лише відділ його простору імен (інакше 403). Потрібне право canManageTemplates.',
      },
    },
    deleteDocumentTemplate: {
      en: {
        summary: 'Delete a document template',
        description:
          'Deletes a template. Its generation history is kept, with the template’s name. Requires canManageTemplates.',
      },
      ru: {
        summary: 'Удалить шаблон документа',
        description:
          'Удаляет шаблон. История созданных по нему документов сохраняется вместе с названием шаблона. Нужно право canManageTemplates.',
      },
      uk: {
        summary: 'Видалити шаблон документа',
        description:
          'Видаляє шаблон. Історія створених за ним документів зберігається разом із назвою шаблону. Потрібне право canManageTemplates.',
      },
    },
    generateDocument: {
      en: {
        summary: 'Generate a document from a template',
        description:
          'Fills the template with input (checked against the declared variables: a missing required value or a wrong type answers 422 with details) and answers the document: md as text/markdown, html as a sanitised text/html page, docx as a file download; pdf answers 501. preview: true only renders. Otherwise the generation is written to the history (X-Generation-Id header), and saveToKnowledgeBaseId (needs canUploadDocuments) stores the result as a knowledge document (X-Document-Id header) whose ingestion ends with a document_ready notification. Requires canGenerateDocuments.',
      },
      ru: {
        summary: 'Создать документ по шаблону',
        description:
          'Заполняет шаблон значениями input (они проверяются по объявленным переменным: нет обязательного значения или неверный тип — ответ 422 с подробностями) и возвращает документ: md как text/markdown, html как очищенную страницу text/html, docx как файл для скачивания; pdf даёт ответ 501. preview: true только показывает результат. Иначе создание записывается в историю (заголовок X-Generation-Id), а saveToKnowledgeBaseId (нужно право canUploadDocuments) сохраняет результат как документ базы знаний (заголовок X-Document-Id); после его обработки приходит уведомление document_ready. Нужно право canGenerateDocuments.',
      },
      uk: {
        summary: 'Створити документ за шаблоном',
        description:
          'Заповнює шаблон значеннями input (вони перевіряються за оголошеними змінними: немає обовʼязкового значення або хибний тип — відповідь 422 з подробицями) і повертає документ: md як text/markdown, html як очищену сторінку text/html, docx як файл для завантаження; pdf дає відповідь 501. preview: true лише показує результат. Інакше створення записується в історію (заголовок X-Generation-Id), а saveToKnowledgeBaseId (потрібне право canUploadDocuments) зберігає результат як документ бази знань (заголовок X-Document-Id); після його обробки надходить сповіщення document_ready. Потрібне право canGenerateDocuments.',
      },
    },
    listDocumentGenerations: {
      en: {
        summary: 'List document generations',
        description:
          'Returns the generation history, newest first: your own generations, and with canManageTemplates every generation of your departments. userId and templateId narrow the list.',
      },
      ru: {
        summary: 'История созданных документов',
        description:
          'Возвращает историю создания документов, начиная с новых: ваши собственные записи, а с правом canManageTemplates — все записи ваших отделов. userId и templateId сужают список.',
      },
      uk: {
        summary: 'Історія створених документів',
        description:
          'Повертає історію створення документів, починаючи з нових: ваші власні записи, а з правом canManageTemplates — усі записи ваших відділів. userId і templateId звужують список.',
      },
    },
    getDocumentGeneration: {
      en: {
        summary: 'Get a document generation',
        description:
          'Returns one history row with the rendered Markdown. Visible by the rule of the list; any other row answers 404.',
      },
      ru: {
        summary: 'Получить запись о создании документа',
        description:
          'Возвращает одну запись истории с готовым текстом в Markdown. Видимость — по правилу списка; любая другая запись даёт ответ 404.',
      },
      uk: {
        summary: 'Отримати запис про створення документа',
        description:
          'Повертає один запис історії з готовим текстом у Markdown. Видимість — за правилом списку; будь-який інший запис дає відповідь 404.',
      },
    },
  },
  fields: {
    'Kind of document: contract, proposal, letter, invoice or custom': {
      ru: 'Вид документа: contract, proposal, letter, invoice или custom',
      uk: 'Вид документа: contract, proposal, letter, invoice або custom',
    },
    'md, html or docx; pdf is reserved and answers 501': {
      ru: 'md, html или docx; pdf зарезервирован и даёт ответ 501',
      uk: 'md, html або docx; pdf зарезервовано, він дає відповідь 501',
    },
    'Value used when the input leaves the variable out': {
      ru: 'Значение, если во входных данных переменной нет',
      uk: 'Значення, якщо у вхідних даних змінної немає',
    },
    'Name used in the body as {{name}}: a letter, then letters, digits and underscores': {
      ru: 'Имя для текста шаблона в виде {{name}}: буква, затем буквы, цифры и подчёркивания',
      uk: 'Імʼя для тексту шаблону у вигляді {{name}}: літера, далі літери, цифри й підкреслення',
    },
    'What a form shows for the variable; the name when empty': {
      ru: 'Что форма показывает для переменной; если пусто — имя',
      uk: 'Що форма показує для змінної; якщо порожньо — імʼя',
    },
    'string, number, date (YYYY-MM-DD) or boolean': {
      ru: 'string, number, date (YYYY-MM-DD) или boolean',
      uk: 'string, number, date (YYYY-MM-DD) або boolean',
    },
    'Generation without a value (and without a default) answers 422': {
      ru: 'Создание без значения (и без значения по умолчанию) даёт ответ 422',
      uk: 'Створення без значення (і без значення за замовчуванням) дає відповідь 422',
    },
    'Name used in the body as {{name}}': {
      ru: 'Имя для текста шаблона в виде {{name}}',
      uk: 'Імʼя для тексту шаблону у вигляді {{name}}',
    },
    'What a form shows for the variable': {
      ru: 'Что форма показывает для переменной',
      uk: 'Що форма показує для змінної',
    },
    'Whether generation needs a value': {
      ru: 'Нужно ли значение для создания документа',
      uk: 'Чи потрібне значення для створення документа',
    },
    'Name of the template': { ru: 'Название шаблона', uk: 'Назва шаблону' },
    'What the template is for': { ru: 'Для чего шаблон', uk: 'Для чого шаблон' },
    'Markdown with Mustache tags: {{name}}, {{#flag}}…{{/flag}}, {{^flag}}…{{/flag}}': {
      ru: 'Markdown с тегами Mustache: {{name}}, {{#flag}}…{{/flag}}, {{^flag}}…{{/flag}}',
      uk: 'Markdown із тегами Mustache: {{name}}, {{#flag}}…{{/flag}}, {{^flag}}…{{/flag}}',
    },
    'The variables the body may use': {
      ru: 'Переменные, которые может использовать текст',
      uk: 'Змінні, які може використовувати текст',
    },
    'The namespace’s department (the default), or null to share the template with every department': {
      ru: 'Отдел пространства имён (по умолчанию) или null, чтобы шаблон был общим для всех отделов',
      uk: 'Відділ простору імен (за замовчуванням) або null, щоб шаблон був спільним для всіх відділів',
    },
    'Template id': { ru: 'Идентификатор шаблона', uk: 'Ідентифікатор шаблону' },
    'Namespace the template belongs to': {
      ru: 'Пространство имён шаблона',
      uk: 'Простір імен шаблону',
    },
    'Department that uses the template; null when shared with every department': {
      ru: 'Отдел, который пользуется шаблоном; null, если шаблон общий для всех отделов',
      uk: 'Відділ, який користується шаблоном; null, якщо шаблон спільний для всіх відділів',
    },
    'Markdown with Mustache tags': { ru: 'Markdown с тегами Mustache', uk: 'Markdown із тегами Mustache' },
    'Default output format: md, html, docx or pdf': {
      ru: 'Формат результата по умолчанию: md, html, docx или pdf',
      uk: 'Формат результату за замовчуванням: md, html, docx або pdf',
    },
    'User who created the template': {
      ru: 'Пользователь, создавший шаблон',
      uk: 'Користувач, який створив шаблон',
    },
    'Namespace the template belongs to (one of your departments)': {
      ru: 'Пространство имён шаблона (одного из ваших отделов)',
      uk: 'Простір імен шаблону (одного з ваших відділів)',
    },
    'Only templates of this department (one of yours)': {
      ru: 'Только шаблоны этого отдела (одного из ваших)',
      uk: 'Лише шаблони цього відділу (одного з ваших)',
    },
    'Values of the template variables by name; checked against their declared types': {
      ru: 'Значения переменных шаблона по именам; проверяются по объявленным типам',
      uk: 'Значення змінних шаблону за іменами; перевіряються за оголошеними типами',
    },
    'true renders only: no history row, nothing saved to a knowledge base': {
      ru: 'true — только показать результат: без записи в историю и без сохранения в базу знаний',
      uk: 'true — лише показати результат: без запису в історію й без збереження в базу знань',
    },
    'Knowledge base (one of yours) that receives the result as a document; needs canUploadDocuments': {
      ru: 'База знаний (одна из ваших), куда результат сохраняется как документ; нужно право canUploadDocuments',
      uk: 'База знань (одна з ваших), куди результат зберігається як документ; потрібне право canUploadDocuments',
    },
    'The document as Markdown (UTF-8)': {
      ru: 'Документ в Markdown (UTF-8)',
      uk: 'Документ у Markdown (UTF-8)',
    },
    'The document as a sanitised HTML page (UTF-8)': {
      ru: 'Документ как очищенная HTML-страница (UTF-8)',
      uk: 'Документ як очищена HTML-сторінка (UTF-8)',
    },
    'The document as a DOCX file': { ru: 'Документ как файл DOCX', uk: 'Документ як файл DOCX' },
    'Generation id': { ru: 'Идентификатор записи о создании', uk: 'Ідентифікатор запису про створення' },
    'Template used; null once the template is deleted': {
      ru: 'Использованный шаблон; null, если шаблон удалён',
      uk: 'Використаний шаблон; null, якщо шаблон видалено',
    },
    'Name of the template when the document was generated': {
      ru: 'Название шаблона на момент создания документа',
      uk: 'Назва шаблону на момент створення документа',
    },
    'User who generated the document': {
      ru: 'Пользователь, создавший документ',
      uk: 'Користувач, який створив документ',
    },
    'Department the generation counts for': {
      ru: 'Отдел, к которому относится запись',
      uk: 'Відділ, до якого належить запис',
    },
    'The values rendered, defaults included': {
      ru: 'Подставленные значения, включая значения по умолчанию',
      uk: 'Підставлені значення, зокрема значення за замовчуванням',
    },
    'md, html or docx': { ru: 'md, html или docx', uk: 'md, html або docx' },
    'Size of the generated file in bytes': {
      ru: 'Размер созданного файла в байтах',
      uk: 'Розмір створеного файлу в байтах',
    },
    'Knowledge base the result was saved to': {
      ru: 'База знаний, куда сохранён результат',
      uk: 'База знань, куди збережено результат',
    },
    'Knowledge document made from the result': {
      ru: 'Документ базы знаний, созданный из результата',
      uk: 'Документ бази знань, створений із результату',
    },
    'The rendered Markdown every format is built from': {
      ru: 'Готовый Markdown, из которого строится каждый формат',
      uk: 'Готовий Markdown, з якого будується кожен формат',
    },
    'Only generations of this user': {
      ru: 'Только записи этого пользователя',
      uk: 'Лише записи цього користувача',
    },
    'Only generations of this template': {
      ru: 'Только записи этого шаблона',
      uk: 'Лише записи цього шаблону',
    },
  },
  responses: {
    generateDocument: {
      200: {
        en: 'The generated document. Headers: X-Generation-Id (the history row; absent for a preview), X-Document-Id (the knowledge document, when saved)',
        ru: 'Созданный документ. Заголовки: X-Generation-Id (запись истории; нет для предпросмотра), X-Document-Id (документ базы знаний, если сохранён)',
        uk: 'Створений документ. Заголовки: X-Generation-Id (запис історії; немає для попереднього перегляду), X-Document-Id (документ бази знань, якщо збережено)',
      },
      501: {
        en: 'outputFormat pdf: PDF output is not implemented',
        ru: 'outputFormat pdf: вывод в PDF не реализован',
        uk: 'outputFormat pdf: вивід у PDF не реалізовано',
      },
    },
  },
  examples: {
    createDocumentTemplate: {
      request: {
        namespaceId: '3f0c8a52-8d1e-4a4b-9a51-2b1c7d0e9f11',
        name: 'Job offer',
        description: 'Offer letter for a new hire',
        category: 'letter',
        templateBody:
          '# Job offer\n\nDear {{candidate}},\n\nWe offer you the position of **{{position}}** from {{startDate}} at a monthly salary of {{salary}}.\n\n{{#remote}}You may work remotely.{{/remote}}',
        variables: [
          { name: 'candidate', label: 'Candidate', type: 'string', required: true },
          { name: 'position', label: 'Position', type: 'string', required: true },
          { name: 'startDate', label: 'Start date', type: 'date', required: true },
          { name: 'salary', label: 'Monthly salary', type: 'number', required: true },
          { name: 'remote', label: 'Remote work', type: 'boolean', default: false },
        ],
        outputFormat: 'docx',
      },
    },
    updateDocumentTemplate: {
      request: { name: 'Job offer (2027)', outputFormat: 'md' },
    },
    generateDocument: {
      request: {
        input: {
          candidate: 'Olena Kovalenko',
          position: 'Accountant',
          startDate: '2027-01-10',
          salary: 2500,
          remote: true,
        },
        outputFormat: 'docx',
      },
    },
  },
};
