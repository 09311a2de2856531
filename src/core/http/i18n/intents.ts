import type { DocsArea } from './types.js';

export const intentsDocs: DocsArea = {
  tags: {
    intents: {
      en: 'Intent examples of a namespace, intent classification and the trust matrix that grants autonomy per intent',
      ru: 'Примеры интентов пространства имён, классификация интентов и матрица доверия, дающая автономность по каждому интенту',
      uk: 'Приклади інтентів простору імен, класифікація інтентів і матриця довіри, що надає автономність для кожного інтенту',
    },
  },
  operations: {
    listIntents: {
      en: {
        summary: 'List intents',
        description:
          'Returns the intent names of a namespace with the number of example phrases of each, by name, with limit and offset paging. Any user whose departments include the namespace’s department may read it; another department’s namespace answers 404.',
      },
      ru: {
        summary: 'Список интентов',
        description:
          'Возвращает названия интентов пространства имён с числом примеров фраз для каждого, по алфавиту, с постраничным выводом через limit и offset. Читать может любой пользователь, чьи отделы включают отдел пространства имён; пространство имён чужого отдела даёт ответ 404.',
      },
      uk: {
        summary: 'Список інтентів',
        description:
          'Повертає назви інтентів простору імен із кількістю прикладів фраз для кожного, за абеткою, із посторінковим виведенням через limit і offset. Читати може будь-який користувач, чиї відділи містять відділ простору імен; простір імен чужого відділу дає відповідь 404.',
      },
    },
    listIntentExamples: {
      en: {
        summary: 'List intent examples',
        description:
          'Returns the example phrases of a namespace, newest first, optionally of one intent, with limit and offset paging. Requires canManageNamespaces; another department’s namespace answers 404.',
      },
      ru: {
        summary: 'Список примеров интентов',
        description:
          'Возвращает примеры фраз пространства имён, начиная с новых, при желании только одного интента, с постраничным выводом через limit и offset. Нужно право canManageNamespaces; пространство имён чужого отдела даёт ответ 404.',
      },
      uk: {
        summary: 'Список прикладів інтентів',
        description:
          'Повертає приклади фраз простору імен, починаючи з нових, за бажання лише одного інтенту, із посторінковим виведенням через limit і offset. Потрібне право canManageNamespaces; простір імен чужого відділу дає відповідь 404.',
      },
    },
    createIntentExample: {
      en: {
        summary: 'Add an intent example',
        description:
          'Adds an example phrase to an intent of a namespace and stores its embedding. The phrase may be sent as exampleText or as phrase (both: they must be the same text). The same phrase again for the same intent answers the stored example with 200 instead of 201; a phrase already stored for another intent answers 409. The first example of an intent also creates its trust record with the defaults. Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Добавить пример интента',
        description:
          'Добавляет пример фразы к интенту пространства имён и сохраняет её эмбеддинг. Фразу можно передать в поле exampleText или phrase (если в обоих, текст должен совпадать). Та же фраза для того же интента повторно возвращает сохранённый пример с кодом 200 вместо 201; фраза, уже сохранённая для другого интента, даёт ответ 409. Первый пример интента также создаёт его запись доверия со значениями по умолчанию. Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Додати приклад інтенту',
        description:
          'Додає приклад фрази до інтенту простору імен і зберігає її ембединг. Фразу можна передати в полі exampleText або phrase (якщо в обох, текст має збігатися). Та сама фраза для того самого інтенту повторно повертає збережений приклад із кодом 200 замість 201; фраза, вже збережена для іншого інтенту, дає відповідь 409. Перший приклад інтенту також створює його запис довіри зі значеннями за замовчуванням. Потрібне право canManageNamespaces.',
      },
    },
    deleteIntentExample: {
      en: {
        summary: 'Delete an intent example',
        description:
          'Deletes one example phrase. The intent’s trust record is kept, even when this was its last example. Requires canManageNamespaces; an example of another department’s namespace answers 404.',
      },
      ru: {
        summary: 'Удалить пример интента',
        description:
          'Удаляет один пример фразы. Запись доверия интента сохраняется, даже если это был его последний пример. Нужно право canManageNamespaces; пример из пространства имён чужого отдела даёт ответ 404.',
      },
      uk: {
        summary: 'Видалити приклад інтенту',
        description:
          'Видаляє один приклад фрази. Запис довіри інтенту зберігається, навіть якщо це був його останній приклад. Потрібне право canManageNamespaces; приклад із простору імен чужого відділу дає відповідь 404.',
      },
    },
    classifyIntent: {
      en: {
        summary: 'Classify a message',
        description:
          'Finds the five stored examples of the namespace nearest to the message by cosine similarity and lets them vote, each with its similarity squared; an intent’s confidence is its share of the votes times its best similarity. Below 0.5 the intent is "unknown"; a namespace without examples answers "unknown" with confidence 0. Any user whose departments include the namespace’s department may call it.',
      },
      ru: {
        summary: 'Классифицировать сообщение',
        description:
          'Находит пять сохранённых примеров пространства имён, ближайших к сообщению по косинусному сходству, и даёт им проголосовать, каждому с весом, равным квадрату сходства; уверенность интента — его доля голосов, умноженная на его лучшее сходство. Ниже 0,5 интент равен "unknown"; пространство имён без примеров отвечает "unknown" с уверенностью 0. Вызывать может любой пользователь, чьи отделы включают отдел пространства имён.',
      },
      uk: {
        summary: 'Класифікувати повідомлення',
        description:
          'Знаходить п’ять збережених прикладів простору імен, найближчих до повідомлення за косинусною подібністю, і дає їм проголосувати, кожному з вагою, що дорівнює квадрату подібності; впевненість інтенту — його частка голосів, помножена на його найкращу подібність. Нижче 0,5 інтент дорівнює "unknown"; простір імен без прикладів відповідає "unknown" із впевненістю 0. Викликати може будь-який користувач, чиї відділи містять відділ простору імен.',
      },
    },
    listIntentTrust: {
      en: {
        summary: 'List intent trust records',
        description:
          'Returns the trust record of every intent of a namespace (approvals counted, threshold, autonomy, sampling rate), by intent name, with limit and offset paging. Requires canManageNamespaces; another department’s namespace answers 404.',
      },
      ru: {
        summary: 'Список записей доверия интентов',
        description:
          'Возвращает запись доверия каждого интента пространства имён (число одобрений, порог, автономность, доля выборочной проверки) по названию интента, с постраничным выводом через limit и offset. Нужно право canManageNamespaces; пространство имён чужого отдела даёт ответ 404.',
      },
      uk: {
        summary: 'Список записів довіри інтентів',
        description:
          'Повертає запис довіри кожного інтенту простору імен (кількість схвалень, поріг, автономність, частка вибіркової перевірки) за назвою інтенту, із посторінковим виведенням через limit і offset. Потрібне право canManageNamespaces; простір імен чужого відділу дає відповідь 404.',
      },
    },
    updateIntentTrust: {
      en: {
        summary: 'Tune an intent’s trust',
        description:
          'Sets the sampling rate (0 to 1: the share of autonomous replies still sent to a person) and/or the threshold (1 to 1000 approvals for autonomy). A threshold at or below the approvals already counted makes the intent autonomous at once; raising it never takes autonomy away, and no endpoint resets it. Requires canManageNamespaces; a record of another department’s namespace answers 404.',
      },
      ru: {
        summary: 'Настроить доверие интента',
        description:
          'Задаёт долю выборочной проверки (от 0 до 1: доля автономных ответов, которые всё равно уходят человеку) и/или порог (от 1 до 1000 одобрений для автономности). Порог, не превышающий уже подсчитанных одобрений, сразу делает интент автономным; повышение порога автономность не отнимает, и ни один эндпоинт её не сбрасывает. Нужно право canManageNamespaces; запись пространства имён чужого отдела даёт ответ 404.',
      },
      uk: {
        summary: 'Налаштувати довіру інтенту',
        description:
          'Задає частку вибіркової перевірки (від 0 до 1: частка автономних відповідей, які однаково йдуть людині) та/або поріг (від 1 до 1000 схвалень для автономності). Поріг, що не перевищує вже підрахованих схвалень, одразу робить інтент автономним; підвищення порогу автономності не відбирає, і жоден ендпоінт її не скидає. Потрібне право canManageNamespaces; запис простору імен чужого відділу дає відповідь 404.',
      },
    },
  },
  fields: {
    'Namespace the intents belong to (of one of your departments)': {
      ru: 'Пространство имён, к которому относятся интенты (одного из ваших отделов)',
      uk: 'Простір імен, до якого належать інтенти (одного з ваших відділів)',
    },
    'Intent name; trimmed, then 1 to 100 characters, case kept; "unknown" is reserved': {
      ru: 'Название интента; пробелы по краям убираются, затем от 1 до 100 символов, регистр сохраняется; "unknown" зарезервировано',
      uk: 'Назва інтенту; пробіли з країв прибираються, далі від 1 до 100 символів, регістр зберігається; "unknown" зарезервовано',
    },
    'Example id': { ru: 'Идентификатор примера', uk: 'Ідентифікатор прикладу' },
    'Namespace of the example': { ru: 'Пространство имён примера', uk: 'Простір імен прикладу' },
    'Intent the phrase is an example of': {
      ru: 'Интент, примером которого является фраза',
      uk: 'Інтент, прикладом якого є фраза',
    },
    'The phrase': { ru: 'Фраза', uk: 'Фраза' },
    'The phrase; trimmed, then 1 to 2000 characters. Required unless phrase is given': {
      ru: 'Фраза; пробелы по краям убираются, затем от 1 до 2000 символов. Обязательна, если не передано поле phrase',
      uk: 'Фраза; пробіли з країв прибираються, далі від 1 до 2000 символів. Обов’язкова, якщо не передано поле phrase',
    },
    'Another name for exampleText; when both are given they must be the same text': {
      ru: 'Другое имя поля exampleText; если переданы оба, текст должен совпадать',
      uk: 'Інша назва поля exampleText; якщо передано обидва, текст має збігатися',
    },
    'Only this intent': { ru: 'Только этот интент', uk: 'Лише цей інтент' },
    'Intent name': { ru: 'Название интента', uk: 'Назва інтенту' },
    'Example phrases stored for the intent': {
      ru: 'Сохранённые примеры фраз интента',
      uk: 'Збережені приклади фраз інтенту',
    },
    'The message to classify': { ru: 'Сообщение для классификации', uk: 'Повідомлення для класифікації' },
    'From 0 to 1': { ru: 'От 0 до 1', uk: 'Від 0 до 1' },
    'The best intent, or "unknown" when its confidence is below 0.5': {
      ru: 'Лучший интент или "unknown", если его уверенность ниже 0,5',
      uk: 'Найкращий інтент або "unknown", якщо його впевненість нижче 0,5',
    },
    'Confidence of the best intent (also when the answer is "unknown"); 0 without examples': {
      ru: 'Уверенность лучшего интента (и когда ответ "unknown"); 0, если примеров нет',
      uk: 'Впевненість найкращого інтенту (і коли відповідь "unknown"); 0, якщо прикладів немає',
    },
    'The other intents among the nearest examples, best first': {
      ru: 'Другие интенты среди ближайших примеров, начиная с лучшего',
      uk: 'Інші інтенти серед найближчих прикладів, починаючи з найкращого',
    },
    'Trust record id': { ru: 'Идентификатор записи доверия', uk: 'Ідентифікатор запису довіри' },
    'Namespace of the intent': { ru: 'Пространство имён интента', uk: 'Простір імен інтенту' },
    'Plain approvals of replies for this intent so far': {
      ru: 'Одобрения ответов по этому интенту без правок на данный момент',
      uk: 'Схвалення відповідей для цього інтенту без правок на цей момент',
    },
    'Approvals needed for autonomy': {
      ru: 'Число одобрений, нужное для автономности',
      uk: 'Кількість схвалень, потрібна для автономності',
    },
    'Replies may be sent without a human, subject to samplingRate': {
      ru: 'Ответы могут уходить без участия человека, с учётом samplingRate',
      uk: 'Відповіді можуть надсилатися без участі людини, з урахуванням samplingRate',
    },
    'Fraction of autonomous replies still sent to a human': {
      ru: 'Доля автономных ответов, которые всё равно уходят человеку',
      uk: 'Частка автономних відповідей, які однаково йдуть людині',
    },
    'Fraction of autonomous replies still sent to a human, 0 to 1': {
      ru: 'Доля автономных ответов, которые всё равно уходят человеку, от 0 до 1',
      uk: 'Частка автономних відповідей, які однаково йдуть людині, від 0 до 1',
    },
    'Approvals needed for autonomy, 1 to 1000': {
      ru: 'Число одобрений, нужное для автономности, от 1 до 1000',
      uk: 'Кількість схвалень, потрібна для автономності, від 1 до 1000',
    },
    // The trust record's evidence (docs/approvals.md, Trust).
    "The namespace's trust mode (config.trust.policy.mode)": {
      ru: 'Режим доверия пространства имён (config.trust.policy.mode)',
      uk: 'Режим довіри простору імен (config.trust.policy.mode)',
    },
    'Counted decisions considered (confidence mode: the last `window`; count mode: all)': {
      ru: 'Учтённые решения, которые рассматриваются (режим confidence: последние `window`; режим count: все)',
      uk: 'Враховані рішення, що розглядаються (режим confidence: останні `window`; режим count: усі)',
    },
    'Plain approvals of grounded drafts among them': {
      ru: 'Из них одобрения обоснованных черновиков без правок',
      uk: 'З них схвалення обґрунтованих чернеток без правок',
    },
    'Approvals with edits among them': {
      ru: 'Из них одобрения с правками',
      uk: 'З них схвалення з правками',
    },
    'Rejections among them (confidence mode: also "down" ratings of auto-sent replies)': {
      ru: 'Из них отклонения (режим confidence: также оценки «вниз» автоматически отправленных ответов)',
      uk: 'З них відхилення (режим confidence: також оцінки «вниз» автоматично надісланих відповідей)',
    },
    'Plain approvals of ungrounded drafts, never counted': {
      ru: 'Одобрения необоснованных черновиков без правок, никогда не учитываются',
      uk: 'Схвалення необґрунтованих чернеток без правок, ніколи не враховуються',
    },
    'Wilson lower bound of the clean-approval rate; null before any decision': {
      ru: 'Нижняя граница Уилсона доли одобрений без правок; null до первого решения',
      uk: 'Нижня межа Вілсона частки схвалень без правок; null до першого рішення',
    },
    'Clean approvals in a row that would make the intent autonomous now; 0 when it is': {
      ru: 'Сколько одобрений без правок подряд сделали бы интент автономным сейчас; 0, если он уже автономен',
      uk: 'Скільки схвалень без правок поспіль зробили б інтент автономним зараз; 0, якщо він уже автономний',
    },
    'What the trust rests on (docs/approvals.md)': {
      ru: 'На чём основано доверие (docs/approvals.md)',
      uk: 'На чому ґрунтується довіра (docs/approvals.md)',
    },
  },
};
