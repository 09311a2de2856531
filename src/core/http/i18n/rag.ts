import type { DocsArea } from './types.js';

export const ragDocs: DocsArea = {
  tags: {
    rag: {
      en: 'Answers drafted from the knowledge bases (retrieval-augmented generation)',
      ru: 'Ответы, составленные по базам знаний (генерация с опорой на поиск)',
      uk: 'Відповіді, складені за базами знань (генерація з опорою на пошук)',
    },
  },
  operations: {
    draftAnswer: {
      en: {
        summary: 'Draft an answer from the knowledge bases',
        description:
          'Searches every knowledge base of the given department (hybrid search: vector similarity blended with keyword match by each base’s ragWeights) and drafts an answer from the best passages, with the language model or, offline, from the passages themselves. Answers the sources used, a confidence (the best passage score) and whether a prompt injection was found. A message that is itself an injection gets a fixed refusal and reaches no model; retrieved passages carrying an injection are left out. The department must be one of yours (403 otherwise).',
      },
      ru: {
        summary: 'Составить ответ по базам знаний',
        description:
          'Ищет во всех базах знаний указанного отдела (гибридный поиск: векторное сходство, смешанное с совпадением по ключевым словам в пропорции ragWeights каждой базы) и составляет ответ по лучшим фрагментам — языковой моделью или, без неё, из самих фрагментов. Возвращает использованные источники, уверенность (оценку лучшего фрагмента) и признак найденной промпт-инъекции. На сообщение, которое само является инъекцией, приходит фиксированный отказ, и модель его не видит; найденные фрагменты с инъекцией отбрасываются. Отдел должен входить в ваши отделы (иначе 403).',
      },
      uk: {
        summary: 'Скласти відповідь за базами знань',
        description:
          'Шукає в усіх базах знань зазначеного відділу (гібридний пошук: векторна подібність, змішана зі збігом за ключовими словами в пропорції ragWeights кожної бази) і складає відповідь за найкращими фрагментами — мовною моделлю або, без неї, із самих фрагментів. Повертає використані джерела, впевненість (оцінку найкращого фрагмента) і ознаку знайденої промпт-ін’єкції. На повідомлення, яке саме є ін’єкцією, надходить фіксована відмова, і модель його не бачить; знайдені фрагменти з ін’єкцією відкидаються. Відділ має бути серед ваших відділів (інакше 403).',
      },
    },
  },
  fields: {
    'Passages to retrieve and answer as sources, best first (1-50, default 5)': {
      ru: 'Сколько фрагментов найти и вернуть как источники, начиная с лучших (1–50, по умолчанию 5)',
      uk: 'Скільки фрагментів знайти й повернути як джерела, починаючи з найкращих (1–50, за замовчуванням 5)',
    },
    'Blended retrieval score, by which sources are ranked': {
      ru: 'Итоговая оценка поиска, по которой упорядочены источники',
      uk: 'Підсумкова оцінка пошуку, за якою впорядковано джерела',
    },
    'How well the passage matches the message: the blended vector and keyword score with the knowledge base weights, at least 0.9 when the message repeats one of its sentences word for word':
      {
        ru: 'Насколько фрагмент соответствует сообщению: смесь векторной и ключевой оценки с весами базы знаний, не меньше 0.9, если сообщение дословно повторяет одно из его предложений',
        uk: 'Наскільки фрагмент відповідає повідомленню: суміш векторної та ключової оцінки з вагами бази знань, не менше 0.9, якщо повідомлення дослівно повторює одне з його речень',
      },
    'Passages the answer was built from, best first (at most limit)': {
      ru: 'Фрагменты, из которых составлен ответ, начиная с лучших (не больше limit)',
      uk: 'Фрагменти, з яких складено відповідь, починаючи з найкращих (не більше limit)',
    },
    'The best source confidence (0 when nothing was found); below 0.7 the answer is not trusted without a human':
      {
        ru: 'Уверенность лучшего источника (0, если ничего не найдено); ниже 0.7 ответу не доверяют без человека',
        uk: 'Впевненість найкращого джерела (0, якщо нічого не знайдено); нижче 0.7 відповіді не довіряють без людини',
      },
    'Chunk left out': {
      ru: 'Отброшенный фрагмент',
      uk: 'Відкинутий фрагмент',
    },
    'Title of that document': {
      ru: 'Название этого документа',
      uk: 'Назва цього документа',
    },
    'Knowledge base of that document': {
      ru: 'База знаний этого документа',
      uk: 'База знань цього документа',
    },
    'What the injection check found: the rule and the matched text': {
      ru: 'Что нашла проверка на инъекции: правило и совпавший текст',
      uk: 'Що знайшла перевірка на ін’єкції: правило й збіжний текст',
    },
    'Kind of injection (for example override), when the detector names one': {
      ru: 'Вид инъекции (например, override), если детектор его называет',
      uk: 'Вид ін’єкції (наприклад, override), якщо детектор його називає',
    },
    'Detector score, when the detector gives one': {
      ru: 'Оценка детектора, если он её даёт',
      uk: 'Оцінка детектора, якщо він її дає',
    },
    'Retrieved passages left out because they carry a prompt injection, best ranked first': {
      ru: 'Найденные фрагменты, отброшенные из-за промпт-инъекции, начиная с лучших по рангу',
      uk: 'Знайдені фрагменти, відкинуті через промпт-ін’єкцію, починаючи з найкращих за рангом',
    },
    'Department whose knowledge bases are searched; must be one of yours': {
      ru: 'Отдел, в базах знаний которого идёт поиск; должен быть одним из ваших',
      uk: 'Відділ, у базах знань якого відбувається пошук; має бути одним із ваших',
    },
    'The message to answer': {
      ru: 'Сообщение, на которое нужно ответить',
      uk: 'Повідомлення, на яке треба відповісти',
    },
    'The drafted reply': { ru: 'Черновик ответа', uk: 'Чернетка відповіді' },
    'Chunk used': { ru: 'Использованный фрагмент', uk: 'Використаний фрагмент' },
    'Its document': { ru: 'Документ этого фрагмента', uk: 'Документ цього фрагмента' },
    'Document title': { ru: 'Название документа', uk: 'Назва документа' },
    'Blended retrieval score': {
      ru: 'Итоговая оценка поиска (смесь векторной и ключевой)',
      uk: 'Підсумкова оцінка пошуку (суміш векторної та ключової)',
    },
    'Passages the answer was built from, best first': {
      ru: 'Фрагменты, из которых составлен ответ, начиная с лучших',
      uk: 'Фрагменти, з яких складено відповідь, починаючи з найкращих',
    },
    'The best passage score (0 when nothing was found)': {
      ru: 'Оценка лучшего фрагмента (0, если ничего не найдено)',
      uk: 'Оцінка найкращого фрагмента (0, якщо нічого не знайдено)',
    },
    'A prompt injection was found in the message or in a retrieved passage': {
      ru: 'В сообщении или в найденном фрагменте обнаружена промпт-инъекция',
      uk: 'У повідомленні або в знайденому фрагменті виявлено промпт-ін’єкцію',
    },
    'Which rule matched, and where': {
      ru: 'Какое правило сработало и где',
      uk: 'Яке правило спрацювало і де',
    },
  },
  examples: {
    draftAnswer: {
      response: {
        answer: 'Refunds reach your card within 14 days of the return.',
        sources: [
          {
            chunkId: '7d29d97c-93e0-4e4c-89ba-d6f5d0f9a4c5',
            documentId: 'edde58ba-b594-484e-87d1-65cfb634575d',
            title: 'Refund policy',
            score: 0.82,
            confidence: 0.82,
          },
        ],
        confidence: 0.82,
        injectionDetected: false,
        flaggedSources: [],
      },
    },
  },
};
