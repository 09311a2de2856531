import type { DocsArea } from './types.js';

export const learningDocs: DocsArea = {
  tags: {
    learning: {
      en: 'What reviewers’ edits teach: suggested intent examples and knowledge-base answers to accept or dismiss',
      ru: 'Чему учат правки проверяющих: предложенные примеры интентов и ответы для базы знаний, которые можно принять или отклонить',
      uk: 'Чого навчають правки тих, хто перевіряє: запропоновані приклади інтентів і відповіді для бази знань, які можна прийняти або відхилити',
    },
  },
  operations: {
    listLearningSuggestions: {
      en: {
        summary: 'List learning suggestions',
        description:
          'Returns the suggestions that edited approvals of the namespace yielded: `example` (the employee’s question as a new example of the approval’s intent) and `answer` (the question with the approved edited text). Near-identical questions fold into one suggestion with a count. Filter by type and status (default `open`); the most asked first, with limit and offset paging. Requires canManageNamespaces; a namespace outside your departments answers 404.',
      },
      ru: {
        summary: 'Список предложений обучения',
        description:
          'Возвращает предложения, полученные из исправленных согласований пространства имён: `example` (вопрос сотрудника как новый пример интента согласования) и `answer` (вопрос с одобренным исправленным текстом). Почти одинаковые вопросы объединяются в одно предложение со счётчиком. Фильтры по типу и статусу (по умолчанию `open`); сначала самые частые, с постраничным выводом через limit и offset. Нужно право canManageNamespaces; пространство имён вне ваших отделов даёт ответ 404.',
      },
      uk: {
        summary: 'Список пропозицій навчання',
        description:
          'Повертає пропозиції, отримані з виправлених погоджень простору імен: `example` (питання працівника як новий приклад інтенту погодження) і `answer` (питання зі схваленим виправленим текстом). Майже однакові питання об’єднуються в одну пропозицію з лічильником. Фільтри за типом і статусом (типово `open`); спершу найчастіші, із посторінковим виведенням через limit і offset. Потрібне право canManageNamespaces; простір імен поза вашими відділами дає відповідь 404.',
      },
    },
    acceptLearningSuggestion: {
      en: {
        summary: 'Accept a learning suggestion',
        description:
          'Accepts an open suggestion. An `example` is added to its intent with its embedding (as `POST /intents/examples` does). An `answer` is written as a question-and-answer document into `knowledgeBaseId`, which must be a knowledge base the namespace searches (else 422), and queued for ingestion; afterwards the same question retrieves that answer. Answers the suggestion, now `accepted`. A suggestion that is not open answers 409. Requires canManageNamespaces; a suggestion of another department answers 404.',
      },
      ru: {
        summary: 'Принять предложение обучения',
        description:
          'Принимает открытое предложение. `example` добавляется к своему интенту вместе с эмбеддингом (как это делает `POST /intents/examples`). `answer` записывается как документ «вопрос — ответ» в `knowledgeBaseId`, это должна быть база знаний, в которой ищет пространство имён (иначе 422), и ставится в очередь на обработку; после этого тот же вопрос находит этот ответ. Возвращает предложение в статусе `accepted`. Не открытое предложение даёт ответ 409. Нужно право canManageNamespaces; предложение другого отдела даёт ответ 404.',
      },
      uk: {
        summary: 'Прийняти пропозицію навчання',
        description:
          'Приймає відкриту пропозицію. `example` додається до свого інтенту разом з ембедингом (як це робить `POST /intents/examples`). `answer` записується як документ «питання — відповідь» у `knowledgeBaseId`, це має бути база знань, у якій шукає простір імен (інакше 422), і ставиться в чергу на обробку; після цього те саме питання знаходить цю відповідь. Повертає пропозицію в статусі `accepted`. Не відкрита пропозиція дає відповідь 409. Потрібне право canManageNamespaces; пропозиція іншого відділу дає відповідь 404.',
      },
    },
    dismissLearningSuggestion: {
      en: {
        summary: 'Dismiss a learning suggestion',
        description:
          'Dismisses an open suggestion; nothing else changes (no example, no document). A suggestion that is not open answers 409. Requires canManageNamespaces; a suggestion of another department answers 404.',
      },
      ru: {
        summary: 'Отклонить предложение обучения',
        description:
          'Отклоняет открытое предложение; больше ничего не меняется (ни примера, ни документа). Не открытое предложение даёт ответ 409. Нужно право canManageNamespaces; предложение другого отдела даёт ответ 404.',
      },
      uk: {
        summary: 'Відхилити пропозицію навчання',
        description:
          'Відхиляє відкриту пропозицію; більше нічого не змінюється (ні прикладу, ні документа). Не відкрита пропозиція дає відповідь 409. Потрібне право canManageNamespaces; пропозиція іншого відділу дає відповідь 404.',
      },
    },
  },
  fields: {
    'example (the question as an example of its intent) or answer (the question with the edited reply)': {
      ru: 'example (вопрос как пример своего интента) или answer (вопрос с исправленным ответом)',
      uk: 'example (питання як приклад свого інтенту) або answer (питання з виправленою відповіддю)',
    },
    'open, accepted or dismissed': {
      ru: 'open, accepted или dismissed',
      uk: 'open, accepted або dismissed',
    },
    'Learning suggestion': { ru: 'Предложение обучения', uk: 'Пропозиція навчання' },
    'Namespace whose suggestions are listed': {
      ru: 'Пространство имён, чьи предложения перечисляются',
      uk: 'Простір імен, чиї пропозиції перелічуються',
    },
    'Only suggestions in this status (default open: the queue still to review)': {
      ru: 'Только предложения в этом статусе (по умолчанию open: ещё не просмотренные)',
      uk: 'Лише пропозиції в цьому статусі (типово open: ще не переглянуті)',
    },
    'Knowledge base an answer suggestion is written to; required for answers, one the namespace searches': {
      ru: 'База знаний, в которую записывается предложение-ответ; обязательна для ответов, одна из тех, где ищет пространство имён',
      uk: 'База знань, до якої записується пропозиція-відповідь; обов’язкова для відповідей, одна з тих, де шукає простір імен',
    },
    'Namespace the edited approvals belong to': {
      ru: 'Пространство имён исправленных согласований',
      uk: 'Простір імен виправлених погоджень',
    },
    'The approvals’ intent (the intent an example is for)': {
      ru: 'Интент согласований (интент, для которого пример)',
      uk: 'Інтент погоджень (інтент, для якого приклад)',
    },
    'The employee’s question as first asked': {
      ru: 'Вопрос сотрудника в том виде, в каком его задали впервые',
      uk: 'Питання працівника в тому вигляді, в якому його поставили вперше',
    },
    'answer only: the approved edited text of the latest edit': {
      ru: 'только answer: одобренный исправленный текст последней правки',
      uk: 'лише answer: схвалений виправлений текст останньої правки',
    },
    'Edited approvals folded into the suggestion': {
      ru: 'Исправленные согласования, объединённые в предложение',
      uk: 'Виправлені погодження, об’єднані в пропозицію',
    },
    'Edited approval': { ru: 'Исправленное согласование', uk: 'Виправлене погодження' },
    'The edited approvals folded into it, oldest first': {
      ru: 'Объединённые в него исправленные согласования, начиная со старых',
      uk: 'Об’єднані в неї виправлені погодження, починаючи зі старих',
    },
    'Knowledge base an accepted answer was written to': {
      ru: 'База знаний, в которую записан принятый ответ',
      uk: 'База знань, до якої записано прийняту відповідь',
    },
    'Document an accepted answer was written as': {
      ru: 'Документ, которым стал принятый ответ',
      uk: 'Документ, яким стала прийнята відповідь',
    },
    'User who accepted or dismissed it': {
      ru: 'Пользователь, который принял или отклонил его',
      uk: 'Користувач, який прийняв або відхилив її',
    },
    'When it was accepted or dismissed': {
      ru: 'Когда его приняли или отклонили',
      uk: 'Коли її прийняли або відхилили',
    },
    'When it was last folded or decided': {
      ru: 'Когда в него последний раз объединили правку или приняли решение',
      uk: 'Коли до неї востаннє об’єднали правку або ухвалили рішення',
    },
  },
  responses: {
    acceptLearningSuggestion: {
      409: {
        en: 'The suggestion is not open, or its question is already an example of another intent',
        ru: 'Предложение не открыто, или его вопрос уже пример другого интента',
        uk: 'Пропозиція не відкрита, або її питання вже приклад іншого інтенту',
      },
    },
    dismissLearningSuggestion: {
      409: {
        en: 'The suggestion is not open',
        ru: 'Предложение не открыто',
        uk: 'Пропозиція не відкрита',
      },
    },
  },
};
