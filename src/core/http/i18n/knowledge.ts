import type { DocsArea } from './types.js';

export const knowledgeDocs: DocsArea = {
  tags: {
    knowledge: {
      en: 'Knowledge bases and their documents: upload, URL pages, ingestion status and chunks',
      ru: 'Базы знаний и их документы: загрузка, веб-страницы, статус обработки и фрагменты',
      uk: 'Бази знань та їхні документи: завантаження, вебсторінки, статус обробки й фрагменти',
    },
  },
  operations: {
    listKnowledgeBases: {
      en: {
        summary: 'List knowledge bases',
        description:
          'Returns the knowledge bases of your departments, newest first, with their document counts and limit/offset paging. A departmentId outside your departments answers 403.',
      },
      ru: {
        summary: 'Список баз знаний',
        description:
          'Возвращает базы знаний ваших отделов, начиная с новых, с количеством документов и постраничным выводом через limit и offset. Чужой departmentId в фильтре даёт ответ 403.',
      },
      uk: {
        summary: 'Список баз знань',
        description:
          'Повертає бази знань ваших відділів, починаючи з нових, із кількістю документів і посторінковим виведенням через limit та offset. Чужий departmentId у фільтрі дає відповідь 403.',
      },
    },
    getKnowledgeBase: {
      en: {
        summary: 'Get a knowledge base',
        description:
          'Returns one knowledge base with its retrieval weights and document count. A base outside your departments answers 404.',
      },
      ru: {
        summary: 'Получить базу знаний',
        description:
          'Возвращает одну базу знаний с весами поиска и количеством документов. База вне ваших отделов даёт ответ 404.',
      },
      uk: {
        summary: 'Отримати базу знань',
        description:
          'Повертає одну базу знань із вагами пошуку та кількістю документів. База поза вашими відділами дає відповідь 404.',
      },
    },
    createKnowledgeBase: {
      en: {
        summary: 'Create a knowledge base',
        description:
          'Creates a knowledge base in one of your departments with the default retrieval weights (vector 0.7, keyword 0.3). A department outside yours answers 403.',
      },
      ru: {
        summary: 'Создать базу знаний',
        description:
          'Создаёт базу знаний в одном из ваших отделов с весами поиска по умолчанию (векторный 0,7, ключевые слова 0,3). Чужой отдел даёт ответ 403.',
      },
      uk: {
        summary: 'Створити базу знань',
        description:
          'Створює базу знань в одному з ваших відділів із типовими вагами пошуку (векторний 0,7, ключові слова 0,3). Чужий відділ дає відповідь 403.',
      },
    },
    updateKnowledgeBase: {
      en: {
        summary: 'Update a knowledge base',
        description: 'Changes the name or description of a knowledge base in one of your departments.',
      },
      ru: {
        summary: 'Изменить базу знаний',
        description: 'Меняет название или описание базы знаний в одном из ваших отделов.',
      },
      uk: {
        summary: 'Змінити базу знань',
        description: 'Змінює назву або опис бази знань в одному з ваших відділів.',
      },
    },
    configureKnowledgeBase: {
      en: {
        summary: 'Set retrieval weights',
        description:
          'Sets how retrieval blends vector similarity and keyword relevance for this base: score = (vector·cosine + keyword·keyword score) / (vector + keyword). Weights are non-negative and not both zero. Requires canUploadDocuments.',
      },
      ru: {
        summary: 'Задать веса поиска',
        description:
          'Задаёт, как поиск по этой базе сочетает векторное сходство и релевантность по ключевым словам: оценка = (vector·косинус + keyword·оценка по словам) / (vector + keyword). Веса неотрицательны и не могут оба быть нулевыми. Нужно право canUploadDocuments.',
      },
      uk: {
        summary: 'Задати ваги пошуку',
        description:
          'Задає, як пошук у цій базі поєднує векторну подібність і релевантність за ключовими словами: оцінка = (vector·косинус + keyword·оцінка за словами) / (vector + keyword). Ваги невідʼємні й не можуть обидві дорівнювати нулю. Потрібне право canUploadDocuments.',
      },
    },
    deleteKnowledgeBase: {
      en: {
        summary: 'Delete a knowledge base',
        description:
          'Deletes a knowledge base with all its documents, chunks and stored files, and removes it from namespaces that listed it. Requires canDeleteDocuments.',
      },
      ru: {
        summary: 'Удалить базу знаний',
        description:
          'Удаляет базу знаний со всеми документами, фрагментами и сохранёнными файлами и убирает её из пространств имён, где она была указана. Нужно право canDeleteDocuments.',
      },
      uk: {
        summary: 'Видалити базу знань',
        description:
          'Видаляє базу знань з усіма документами, фрагментами та збереженими файлами й прибирає її з просторів імен, де її було вказано. Потрібне право canDeleteDocuments.',
      },
    },
    listDocuments: {
      en: {
        summary: 'List documents',
        description:
          'Returns documents of your departments, newest first, filtered by knowledgeBaseId, departmentId, status (pending, processing, ready, failed) and type, with limit/offset paging.',
      },
      ru: {
        summary: 'Список документов',
        description:
          'Возвращает документы ваших отделов, начиная с новых, с фильтрами knowledgeBaseId, departmentId, status (pending, processing, ready, failed) и type и постраничным выводом через limit и offset.',
      },
      uk: {
        summary: 'Список документів',
        description:
          'Повертає документи ваших відділів, починаючи з нових, із фільтрами knowledgeBaseId, departmentId, status (pending, processing, ready, failed) і type та посторінковим виведенням через limit і offset.',
      },
    },
    uploadDocument: {
      en: {
        summary: 'Upload a document',
        description:
          'Multipart form with file, knowledgeBaseId and title. Accepts PDF, DOCX, TXT, Markdown, PNG and JPEG, recognised by content (and by name for text); anything else answers 415, a file over the upload limit 413. The document starts as pending and is ingested in the background: text extraction (OCR for images and scanned pages), chunking and embedding.',
      },
      ru: {
        summary: 'Загрузить документ',
        description:
          'Форма multipart с полями file, knowledgeBaseId и title. Принимает PDF, DOCX, TXT, Markdown, PNG и JPEG; формат определяется по содержимому (а для текста — по имени), на всё остальное ответ 415, на файл больше лимита — 413. Документ создаётся в статусе pending и обрабатывается в фоне: извлечение текста (OCR для изображений и сканов), разбиение на фрагменты и построение эмбеддингов.',
      },
      uk: {
        summary: 'Завантажити документ',
        description:
          'Форма multipart із полями file, knowledgeBaseId і title. Приймає PDF, DOCX, TXT, Markdown, PNG і JPEG; формат визначається за вмістом (а для тексту — за назвою), на все інше відповідь 415, на файл, більший за ліміт, — 413. Документ створюється в статусі pending і обробляється у фоні: видобування тексту (OCR для зображень і сканів), поділ на фрагменти та побудова ембедингів.',
      },
    },
    createUrlDocument: {
      en: {
        summary: 'Add a web page',
        description:
          'Adds a URL document to a knowledge base. The worker fetches it (with a timeout, a size limit and at most 5 redirects; private, loopback and link-local addresses are refused unless the server allows them), keeps the main text of HTML pages and ingests it like an upload.',
      },
      ru: {
        summary: 'Добавить веб-страницу',
        description:
          'Добавляет в базу знаний документ-ссылку. Обработчик загружает страницу (с тайм-аутом, ограничением размера и не более чем 5 перенаправлениями; частные, локальные и link-local адреса отклоняются, если сервер их не разрешает), оставляет основной текст HTML-страниц и обрабатывает его так же, как загруженный файл.',
      },
      uk: {
        summary: 'Додати вебсторінку',
        description:
          'Додає до бази знань документ-посилання. Обробник завантажує сторінку (з тайм-аутом, обмеженням розміру й не більше ніж 5 переспрямуваннями; приватні, локальні та link-local адреси відхиляються, якщо сервер їх не дозволяє), залишає основний текст HTML-сторінок і обробляє його так само, як завантажений файл.',
      },
    },
    getDocument: {
      en: {
        summary: 'Get a document',
        description:
          'Returns a document with its status, metadata (metadata.error says why ingestion failed) and chunk count; holders of canViewKnowledge also get a page of its chunks (chunkLimit, chunkOffset) with heading path and page number.',
      },
      ru: {
        summary: 'Получить документ',
        description:
          'Возвращает документ со статусом, метаданными (metadata.error объясняет, почему обработка не удалась) и количеством фрагментов; обладатели права canViewKnowledge получают также страницу фрагментов (chunkLimit, chunkOffset) с путём заголовков и номером страницы.',
      },
      uk: {
        summary: 'Отримати документ',
        description:
          'Повертає документ зі статусом, метаданими (metadata.error пояснює, чому обробка не вдалася) і кількістю фрагментів; власники права canViewKnowledge отримують також сторінку фрагментів (chunkLimit, chunkOffset) зі шляхом заголовків і номером сторінки.',
      },
    },
    updateDocument: {
      en: {
        summary: 'Update a document',
        description:
          'Changes the title, the source URL or your own metadata keys (error, ingestion and fileName are kept by the service). Changing the address of a URL document fetches it again.',
      },
      ru: {
        summary: 'Изменить документ',
        description:
          'Меняет название, адрес источника или ваши собственные ключи метаданных (error, ingestion и fileName ведёт сервис). Смена адреса у документа-ссылки запускает повторную загрузку.',
      },
      uk: {
        summary: 'Змінити документ',
        description:
          'Змінює назву, адресу джерела або ваші власні ключі метаданих (error, ingestion і fileName веде сервіс). Зміна адреси в документа-посилання запускає повторне завантаження.',
      },
    },
    reprocessDocument: {
      en: {
        summary: 'Reprocess a document',
        description:
          'Puts a document in any status back to pending and queues its ingestion again; its chunks are replaced when the new run finishes.',
      },
      ru: {
        summary: 'Обработать документ заново',
        description:
          'Возвращает документ в любом статусе в pending и снова ставит его в очередь обработки; фрагменты заменяются, когда новый прогон завершится.',
      },
      uk: {
        summary: 'Обробити документ повторно',
        description:
          'Повертає документ у будь-якому статусі до pending і знову ставить його в чергу обробки; фрагменти замінюються, коли новий прогін завершиться.',
      },
    },
    deleteDocument: {
      en: {
        summary: 'Delete a document',
        description: 'Deletes a document with its chunks and stored file. Requires canDeleteDocuments.',
      },
      ru: {
        summary: 'Удалить документ',
        description:
          'Удаляет документ вместе с фрагментами и сохранённым файлом. Нужно право canDeleteDocuments.',
      },
      uk: {
        summary: 'Видалити документ',
        description:
          'Видаляє документ разом із фрагментами та збереженим файлом. Потрібне право canDeleteDocuments.',
      },
    },
  },
  fields: {
    'Whether ingestion generates likely questions per chunk, and how many': {
      ru: 'Создаёт ли обработка вероятные вопросы к каждому фрагменту и сколько',
      uk: 'Чи створює обробка ймовірні запитання до кожного фрагмента і скільки',
    },
    'Generate likely questions per chunk at ingestion and index them with the chunk. Needs a configured LLM (LLM_API_KEY); without one the option is kept but does nothing.':
      {
        ru: 'Создавать при обработке вероятные вопросы к каждому фрагменту и индексировать их вместе с ним. Нужна настроенная языковая модель (LLM_API_KEY); без неё настройка сохраняется, но ничего не делает.',
        uk: 'Створювати під час обробки ймовірні запитання до кожного фрагмента й індексувати їх разом із ним. Потрібна налаштована мовна модель (LLM_API_KEY); без неї налаштування зберігається, але нічого не робить.',
      },
    'Questions per chunk, 1 to 5 (default 3; an update without it keeps the current value)': {
      ru: 'Вопросов на фрагмент, от 1 до 5 (по умолчанию 3; изменение без этого поля сохраняет текущее значение)',
      uk: 'Запитань на фрагмент, від 1 до 5 (за замовчуванням 3; зміна без цього поля зберігає поточне значення)',
    },
    'Synthetic questions (off by default). Applies to documents ingested or reprocessed after the change.': {
      ru: 'Синтетические вопросы (по умолчанию выключены). Действуют для документов, обработанных или переобработанных после изменения.',
      uk: 'Синтетичні запитання (за замовчуванням вимкнені). Діють для документів, оброблених або перероблених після зміни.',
    },
    'Chunks held back from retrieval because the ingestion-time scan found a prompt injection': {
      ru: 'Фрагменты, исключённые из поиска, потому что проверка при обработке нашла промпт-инъекцию',
      uk: 'Фрагменти, виключені з пошуку, бо перевірка під час обробки знайшла промпт-ін’єкцію',
    },
    'Chunks stored for the document, held-back ones included': {
      ru: 'Фрагменты документа, включая исключённые',
      uk: 'Фрагменти документа, включно з виключеними',
    },
    'Chunk kept out of retrieval': {
      ru: 'Фрагмент, исключённый из поиска',
      uk: 'Фрагмент, виключений з пошуку',
    },
    'Kind of injection found (for example override), when known': {
      ru: 'Вид найденной инъекции (например, override), если известен',
      uk: 'Вид знайденої ін’єкції (наприклад, override), якщо відомий',
    },
    'What the scan found, and where': {
      ru: 'Что нашла проверка и где',
      uk: 'Що знайшла перевірка і де',
    },
    'Detector score from 0 to 1, when known': {
      ru: 'Оценка детектора от 0 до 1, если известна',
      uk: 'Оцінка детектора від 0 до 1, якщо відома',
    },
    "text: the chunk's own text; hidden-html: text the web page hides from its readers": {
      ru: 'text: собственный текст фрагмента; hidden-html: текст, который веб-страница скрывает от читателей',
      uk: 'text: власний текст фрагмента; hidden-html: текст, який вебсторінка приховує від читачів',
    },
    'Up to 200 characters of the chunk, around the match': {
      ru: 'До 200 символов фрагмента вокруг совпадения',
      uk: 'До 200 символів фрагмента навколо збігу',
    },
    "Chunks kept out of retrieval with the scan's reasons, in reading order (the first 100); present when you hold canViewKnowledge":
      {
        ru: 'Фрагменты, исключённые из поиска, с причинами проверки, в порядке чтения (первые 100); есть, если у вас есть canViewKnowledge',
        uk: 'Фрагменти, виключені з пошуку, з причинами перевірки, у порядку читання (перші 100); є, якщо у вас є canViewKnowledge',
      },
    'Kept out of retrieval (see heldBackChunks for why)': {
      ru: 'Исключён из поиска (причина — в heldBackChunks)',
      uk: 'Виключений з пошуку (причина — у heldBackChunks)',
    },
    'Knowledge base id': { ru: 'Идентификатор базы знаний', uk: 'Ідентифікатор бази знань' },
    'Department that owns the knowledge base': {
      ru: 'Отдел, которому принадлежит база знаний',
      uk: 'Відділ, якому належить база знань',
    },
    'Department that will own the knowledge base (one of yours)': {
      ru: 'Отдел, которому будет принадлежать база знаний (один из ваших)',
      uk: 'Відділ, якому належатиме база знань (один із ваших)',
    },
    'Documents in the knowledge base, in any status': {
      ru: 'Число документов в базе знаний в любом статусе',
      uk: 'Кількість документів у базі знань у будь-якому статусі',
    },
    'How retrieval blends its two scores: (vector·cosine + keyword·keyword score) / (vector + keyword). Relative weights; not both zero.':
      {
        ru: 'Как поиск смешивает две оценки: (vector·косинус + keyword·оценка по ключевым словам) / (vector + keyword). Веса относительные; оба нулю равняться не могут.',
        uk: 'Як пошук змішує дві оцінки: (vector·косинус + keyword·оцінка за ключовими словами) / (vector + keyword). Ваги відносні; обидві не можуть дорівнювати нулю.',
      },
    'Weight of keyword (full-text) relevance, 0 to 100': {
      ru: 'Вес релевантности по ключевым словам (полнотекстовой), от 0 до 100',
      uk: 'Вага релевантності за ключовими словами (повнотекстової), від 0 до 100',
    },
    'Weight of vector (cosine) similarity, 0 to 100': {
      ru: 'Вес векторного (косинусного) сходства, от 0 до 100',
      uk: 'Вага векторної (косинусної) подібності, від 0 до 100',
    },
    'What the knowledge base holds': {
      ru: 'Что хранится в базе знаний',
      uk: 'Що зберігається в базі знань',
    },
    'Name shown to users': {
      ru: 'Название, которое видят пользователи',
      uk: 'Назва, яку бачать користувачі',
    },
    'Only this department (one of yours)': {
      ru: 'Только этот отдел (один из ваших)',
      uk: 'Лише цей відділ (один із ваших)',
    },
    'Document id': { ru: 'Идентификатор документа', uk: 'Ідентифікатор документа' },
    'Knowledge base the document belongs to': {
      ru: 'База знаний, к которой относится документ',
      uk: 'База знань, до якої належить документ',
    },
    "The knowledge base's department": { ru: 'Отдел базы знаний', uk: 'Відділ бази знань' },
    'Title shown to users': {
      ru: 'Заголовок, который видят пользователи',
      uk: 'Заголовок, який бачать користувачі',
    },
    'pdf, docx, txt, md, png, jpg or url': {
      ru: 'pdf, docx, txt, md, png, jpg или url',
      uk: 'pdf, docx, txt, md, png, jpg або url',
    },
    'pdf, docx, txt, md, png, jpg, or url for fetched pages': {
      ru: 'pdf, docx, txt, md, png, jpg или url для загруженных по адресу страниц',
      uk: 'pdf, docx, txt, md, png, jpg або url для сторінок, завантажених за адресою',
    },
    'Fetched address (url documents) or a source link': {
      ru: 'Загруженный адрес (для документов url) или ссылка на источник',
      uk: 'Завантажена адреса (для документів url) або посилання на джерело',
    },
    'Size of the uploaded file': { ru: 'Размер загруженного файла', uk: 'Розмір завантаженого файлу' },
    'pending, processing, ready or failed': {
      ru: 'pending (ожидает), processing (обрабатывается), ready (готов) или failed (ошибка)',
      uk: 'pending (очікує), processing (обробляється), ready (готовий) або failed (помилка)',
    },
    'pending → processing → ready, or failed (metadata.error says why)': {
      ru: 'pending → processing → ready или failed (причина в metadata.error)',
      uk: 'pending → processing → ready або failed (причина в metadata.error)',
    },
    'Your keys, plus error (why ingestion failed), ingestion (what the last run found) and fileName (of an upload)':
      {
        ru: 'Ваши ключи, а также error (почему обработка не удалась), ingestion (что нашёл последний запуск) и fileName (имя загруженного файла)',
        uk: 'Ваші ключі, а також error (чому обробка не вдалася), ingestion (що знайшов останній запуск) і fileName (ім’я завантаженого файлу)',
      },
    'Your own keys (at most 50, 16384 bytes as JSON); error, ingestion and fileName are kept by the service':
      {
        ru: 'Ваши собственные ключи (не более 50 и 16384 байт в виде JSON); error, ingestion и fileName ведёт сервис',
        uk: 'Ваші власні ключі (не більше 50 і 16384 байтів у вигляді JSON); error, ingestion і fileName веде сервіс',
      },
    'Who added the document': { ru: 'Кто добавил документ', uk: 'Хто додав документ' },
    'Chunk id': { ru: 'Идентификатор фрагмента', uk: 'Ідентифікатор фрагмента' },
    'Position in the document, from 0': {
      ru: 'Позиция в документе, начиная с 0',
      uk: 'Позиція в документі, починаючи з 0',
    },
    'Estimated tokens': { ru: 'Оценка числа токенов', uk: 'Орієнтовна кількість токенів' },
    'headingPath (headings above the chunk) and page (PDF) where known': {
      ru: 'headingPath (заголовки над фрагментом) и page (страница PDF), если известны',
      uk: 'headingPath (заголовки над фрагментом) і page (сторінка PDF), якщо відомі',
    },
    'Chunks stored for the document': {
      ru: 'Число сохранённых фрагментов документа',
      uk: 'Кількість збережених фрагментів документа',
    },
    'A page of chunks; present when you hold canViewKnowledge': {
      ru: 'Страница фрагментов; есть, если у вас есть право canViewKnowledge',
      uk: 'Сторінка фрагментів; є, якщо у вас є право canViewKnowledge',
    },
    'Only this knowledge base': { ru: 'Только эта база знаний', uk: 'Лише ця база знань' },
    'Chunks to include (0-500)': {
      ru: 'Сколько фрагментов включить (0–500)',
      uk: 'Скільки фрагментів включити (0–500)',
    },
    'Chunks to skip': { ru: 'Сколько фрагментов пропустить', uk: 'Скільки фрагментів пропустити' },
    'Knowledge base to add the page to': {
      ru: 'База знаний, в которую добавляется страница',
      uk: 'База знань, до якої додається сторінка',
    },
    'Always url: files go through /knowledge/upload': {
      ru: 'Всегда url: файлы загружаются через /knowledge/upload',
      uk: 'Завжди url: файли завантажуються через /knowledge/upload',
    },
    'An http or https address': { ru: 'Адрес http или https', uk: 'Адреса http або https' },
  },
  responses: {
    uploadDocument: {
      413: {
        en: 'The file is over the upload limit',
        ru: 'Файл превышает лимит загрузки',
        uk: 'Файл перевищує ліміт завантаження',
      },
      415: {
        en: 'The file is not a PDF, DOCX, TXT, Markdown, PNG or JPEG',
        ru: 'Файл не является PDF, DOCX, TXT, Markdown, PNG или JPEG',
        uk: 'Файл не є PDF, DOCX, TXT, Markdown, PNG або JPEG',
      },
    },
  },
  examples: {
    configureKnowledgeBase: { request: { ragWeights: { vector: 0.7, keyword: 0.3 } } },
  },
};
