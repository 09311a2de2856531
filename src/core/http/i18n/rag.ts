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
};
