import type { DocsArea } from './types.js';

export const tracesDocs: DocsArea = {
  tags: {
    traces: {
      en: 'LLM traces: one generation with its model, tokens, cost and the chunks retrieved for it',
      ru: 'Трассировки LLM: одна генерация с моделью, токенами, стоимостью и найденными для неё фрагментами',
      uk: 'Трасування LLM: одна генерація з моделлю, токенами, вартістю та знайденими для неї фрагментами',
    },
  },
  operations: {
    getTrace: {
      en: {
        summary: 'Get a trace',
        description:
          'Returns the run (trace) of one generation: provider, model, tokens, estimated cost and latency, with its retrieval hits best first (chunk id, document id, rank, blended score, vector and keyword scores). An agent task’s traceId names it. A trace outside your departments answers 404.',
      },
      ru: {
        summary: 'Получить трассировку',
        description:
          'Возвращает запуск (трассировку) одной генерации: провайдер, модель, токены, оценочную стоимость и задержку, с результатами поиска от лучшего (идентификатор фрагмента, идентификатор документа, место, общая оценка, векторная и ключевая оценки). Её называет traceId задачи агента. Трассировка вне ваших отделов даёт ответ 404.',
      },
      uk: {
        summary: 'Отримати трасування',
        description:
          'Повертає запуск (трасування) однієї генерації: провайдер, модель, токени, орієнтовну вартість і затримку, з результатами пошуку від найкращого (ідентифікатор фрагмента, ідентифікатор документа, місце, загальна оцінка, векторна й ключова оцінки). Його називає traceId завдання агента. Трасування поза вашими відділами дає відповідь 404.',
      },
    },
  },
  fields: {
    'Trace id, as an agent task’s traceId gives it': {
      ru: 'Идентификатор трассировки, как его даёт traceId задачи агента',
      uk: 'Ідентифікатор трасування, як його дає traceId завдання агента',
    },
    'Hit id': { ru: 'Идентификатор результата', uk: 'Ідентифікатор результату' },
    'Retrieved chunk; null when the chunk was deleted since': {
      ru: 'Найденный фрагмент; null, если он с тех пор удалён',
      uk: 'Знайдений фрагмент; null, якщо його відтоді видалено',
    },
    'Document of the chunk; null when deleted since': {
      ru: 'Документ фрагмента; null, если он с тех пор удалён',
      uk: 'Документ фрагмента; null, якщо його відтоді видалено',
    },
    'Position in the results, from 1': { ru: 'Место в результатах, с 1', uk: 'Місце в результатах, з 1' },
    'Blended score of vector and keyword similarity': {
      ru: 'Общая оценка векторного и ключевого сходства',
      uk: 'Загальна оцінка векторної та ключової подібності',
    },
    'Cosine similarity part of the score': {
      ru: 'Часть оценки по косинусному сходству',
      uk: 'Частина оцінки за косинусною подібністю',
    },
    'Keyword part of the score, normalised to 0-1': {
      ru: 'Ключевая часть оценки, нормированная к 0–1',
      uk: 'Ключова частина оцінки, нормована до 0–1',
    },
    'Run id': { ru: 'Идентификатор запуска', uk: 'Ідентифікатор запуску' },
    'Trace id': { ru: 'Идентификатор трассировки', uk: 'Ідентифікатор трасування' },
    'Agent task the generation belongs to': {
      ru: 'Задача агента, к которой относится генерация',
      uk: 'Завдання агента, до якого належить генерація',
    },
    'Department of the task': { ru: 'Отдел задачи', uk: 'Відділ завдання' },
    'Namespace of the task': { ru: 'Пространство имён задачи', uk: 'Простір імен завдання' },
    'Provider that generated the reply': {
      ru: 'Провайдер, создавший ответ',
      uk: 'Провайдер, що створив відповідь',
    },
    'Model that generated the reply': { ru: 'Модель, создавшая ответ', uk: 'Модель, що створила відповідь' },
    'How long the model call took, in milliseconds': {
      ru: 'Сколько длился вызов модели, в миллисекундах',
      uk: 'Скільки тривав виклик моделі, у мілісекундах',
    },
    'Chunks retrieved for the generation, best first': {
      ru: 'Фрагменты, найденные для генерации, начиная с лучшего',
      uk: 'Фрагменти, знайдені для генерації, починаючи з найкращого',
    },
  },
};
