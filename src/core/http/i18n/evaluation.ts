import type { DocsArea } from './types.js';

export const evaluationDocs: DocsArea = {
  tags: {
    evaluation: {
      en: 'Golden questions per namespace and background runs that draft and judge their answers, sending nothing',
      ru: 'Эталонные вопросы пространства имён и фоновые прогоны, которые готовят и оценивают ответы, ничего не отправляя',
      uk: 'Еталонні питання простору імен і фонові прогони, що готують та оцінюють відповіді, нічого не надсилаючи',
    },
  },
  operations: {
    createEvalCase: {
      en: {
        summary: 'Add an evaluation case',
        description:
          'Adds a golden question to the namespace, optionally with a phrase the answer must hold, the document whose passage should rank first (a document of a knowledge base the namespace searches, else 422) and the expected intent. At most 500 cases per namespace (409). Requires canManageNamespaces; a namespace outside your departments answers 404.',
      },
      ru: {
        summary: 'Добавить контрольный вопрос',
        description:
          'Добавляет эталонный вопрос в пространство имён, при желании с фразой, которую должен содержать ответ, документом, чей фрагмент должен быть первым (документ базы знаний, в которой ищет пространство имён, иначе 422), и ожидаемым намерением. Не более 500 вопросов на пространство имён (409). Нужно право canManageNamespaces; пространство имён вне ваших отделов даёт ответ 404.',
      },
      uk: {
        summary: 'Додати контрольне питання',
        description:
          'Додає еталонне питання до простору імен, за бажанням із фразою, яку має містити відповідь, документом, чий фрагмент має бути першим (документ бази знань, у якій шукає простір імен, інакше 422), і очікуваним наміром. Не більше 500 питань на простір імен (409). Потрібне право canManageNamespaces; простір імен поза вашими відділами дає відповідь 404.',
      },
    },
    listEvalCases: {
      en: {
        summary: 'List evaluation cases',
        description:
          'Returns the namespace’s golden questions, oldest first (the order a run evaluates them in), with limit and offset paging. Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Список контрольных вопросов',
        description:
          'Возвращает эталонные вопросы пространства имён, начиная со старых (в этом порядке их оценивает прогон), с постраничным выводом через limit и offset. Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Список контрольних питань',
        description:
          'Повертає еталонні питання простору імен, починаючи зі старих (у цьому порядку їх оцінює прогін), із посторінковим виведенням через limit і offset. Потрібне право canManageNamespaces.',
      },
    },
    deleteEvalCase: {
      en: {
        summary: 'Delete an evaluation case',
        description:
          'Deletes one golden question of the namespace; finished runs keep its result. Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Удалить контрольный вопрос',
        description:
          'Удаляет один эталонный вопрос пространства имён; завершённые прогоны сохраняют его результат. Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Видалити контрольне питання',
        description:
          'Видаляє одне еталонне питання простору імен; завершені прогони зберігають його результат. Потрібне право canManageNamespaces.',
      },
    },
    startEvalRun: {
      en: {
        summary: 'Start an evaluation run',
        description:
          'Queues a run over every case of the namespace and answers 202 with the run. In the background each question is drafted (retrieval and the responder) and classified, then judged; nothing is sent and no conversation, message, approval, trust or analytics record is written. One run per namespace at a time, and the namespace must have cases (409). Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Запустить прогон оценки',
        description:
          'Ставит в очередь прогон по всем вопросам пространства имён и отвечает 202 с прогоном. В фоне для каждого вопроса готовится черновик ответа (поиск и генератор ответа) и определяется намерение, затем результат оценивается; ничего не отправляется, не создаются разговоры, сообщения, согласования, записи доверия или аналитики. Одновременно один прогон на пространство имён, и в нём должны быть вопросы (409). Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Запустити прогін оцінювання',
        description:
          'Ставить у чергу прогін по всіх питаннях простору імен і відповідає 202 із прогоном. У фоні для кожного питання готується чернетка відповіді (пошук і генератор відповіді) та визначається намір, потім результат оцінюється; нічого не надсилається, не створюються розмови, повідомлення, погодження, записи довіри чи аналітики. Одночасно один прогін на простір імен, і в ньому мають бути питання (409). Потрібне право canManageNamespaces.',
      },
    },
    listEvalRuns: {
      en: {
        summary: 'List evaluation runs',
        description:
          'Returns the namespace’s runs, newest first, with their status and totals but without per-case results, with limit and offset paging. Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Список прогонов оценки',
        description:
          'Возвращает прогоны пространства имён, начиная с новых, с состоянием и итогами, но без результатов по вопросам, с постраничным выводом через limit и offset. Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Список прогонів оцінювання',
        description:
          'Повертає прогони простору імен, починаючи з нових, зі станом і підсумками, але без результатів за питаннями, із посторінковим виведенням через limit і offset. Потрібне право canManageNamespaces.',
      },
    },
    getEvalRun: {
      en: {
        summary: 'Get an evaluation run',
        description:
          'Returns one run: its status (queued, running, completed or failed), progress, per-case results (draft, confidence, top sources, predicted intent, each check) and totals (correct, top-1 source accuracy, intent accuracy, fallbacks). Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Получить прогон оценки',
        description:
          'Возвращает один прогон: состояние (queued, running, completed или failed), ход выполнения, результаты по вопросам (черновик, уверенность, лучшие источники, определённое намерение, каждая проверка) и итоги (верные ответы, точность первого источника, точность намерений, отказы). Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Отримати прогін оцінювання',
        description:
          'Повертає один прогін: стан (queued, running, completed або failed), хід виконання, результати за питаннями (чернетка, впевненість, найкращі джерела, визначений намір, кожна перевірка) і підсумки (правильні відповіді, точність першого джерела, точність намірів, відмови). Потрібне право canManageNamespaces.',
      },
    },
  },
  fields: {
    'The question as an employee would ask it': {
      ru: 'Вопрос так, как его задал бы сотрудник',
      uk: 'Питання так, як його поставив би працівник',
    },
    'A phrase a correct draft contains (case and spacing ignored)': {
      ru: 'Фраза, которую содержит верный черновик (регистр и пробелы не важны)',
      uk: 'Фраза, яку містить правильна чернетка (регістр і пропуски не важливі)',
    },
    'Document whose passage should rank first; a document of a knowledge base the namespace searches': {
      ru: 'Документ, чей фрагмент должен быть первым; документ базы знаний, в которой ищет пространство имён',
      uk: 'Документ, чий фрагмент має бути першим; документ бази знань, у якій шукає простір імен',
    },
    'Intent the classifier should answer': {
      ru: 'Намерение, которое должен определить классификатор',
      uk: 'Намір, який має визначити класифікатор',
    },
    'Evaluation case': { ru: 'Контрольный вопрос', uk: 'Контрольне питання' },
    Namespace: { ru: 'Пространство имён', uk: 'Простір імен' },
    'A phrase a correct draft contains': {
      ru: 'Фраза, которую содержит верный черновик',
      uk: 'Фраза, яку містить правильна чернетка',
    },
    'Document whose passage should rank first': {
      ru: 'Документ, чей фрагмент должен быть первым',
      uk: 'Документ, чий фрагмент має бути першим',
    },
    'User who added the case': {
      ru: 'Пользователь, добавивший вопрос',
      uk: 'Користувач, який додав питання',
    },
    'The drafted reply (never sent)': {
      ru: 'Подготовленный ответ (никогда не отправляется)',
      uk: 'Підготовлена відповідь (ніколи не надсилається)',
    },
    'The draft confidence in [0, 1]': {
      ru: 'Уверенность черновика в [0, 1]',
      uk: 'Впевненість чернетки в [0, 1]',
    },
    'Document of the passage': { ru: 'Документ фрагмента', uk: 'Документ фрагмента' },
    'The passage score in [0, 1]': { ru: 'Оценка фрагмента в [0, 1]', uk: 'Оцінка фрагмента в [0, 1]' },
    'The best sources, best first (at most 3)': {
      ru: 'Лучшие источники, начиная с лучшего (не более 3)',
      uk: 'Найкращі джерела, починаючи з найкращого (не більше 3)',
    },
    'The intent the classifier answered (unknown when none)': {
      ru: 'Намерение, определённое классификатором (unknown, если нет)',
      uk: 'Намір, визначений класифікатором (unknown, якщо немає)',
    },
    'The classifier confidence in [0, 1]': {
      ru: 'Уверенность классификатора в [0, 1]',
      uk: 'Впевненість класифікатора в [0, 1]',
    },
    'The draft stayed under the confidence line (0.7)': {
      ru: 'Черновик остался ниже порога уверенности (0.7)',
      uk: 'Чернетка залишилася нижче порогу впевненості (0.7)',
    },
    'The draft holds the expected answer; null when none': {
      ru: 'Черновик содержит ожидаемый ответ; null, если он не задан',
      uk: 'Чернетка містить очікувану відповідь; null, якщо її не задано',
    },
    'The top source is the expected document; null when none': {
      ru: 'Первый источник — ожидаемый документ; null, если он не задан',
      uk: 'Перше джерело — очікуваний документ; null, якщо його не задано',
    },
    'The expected document is among the draft sources; null when none': {
      ru: 'Ожидаемый документ среди источников черновика; null, если он не задан',
      uk: 'Очікуваний документ серед джерел чернетки; null, якщо його не задано',
    },
    'The predicted intent is the expected one; null when none': {
      ru: 'Определённое намерение совпадает с ожидаемым; null, если оно не задано',
      uk: 'Визначений намір збігається з очікуваним; null, якщо його не задано',
    },
    'Every expectation of the case holds and the draft is not a fallback': {
      ru: 'Все ожидания вопроса выполнены, и черновик не является отказом',
      uk: 'Усі очікування питання виконано, і чернетка не є відмовою',
    },
    'Why the case could not be evaluated': {
      ru: 'Почему вопрос не удалось оценить',
      uk: 'Чому питання не вдалося оцінити',
    },
    'Evaluation run': { ru: 'Прогон оценки', uk: 'Прогін оцінювання' },
    'queued, running, completed or failed': {
      ru: 'queued, running, completed или failed',
      uk: 'queued, running, completed або failed',
    },
    'Cases the run evaluates': { ru: 'Вопросы, которые оценивает прогон', uk: 'Питання, які оцінює прогін' },
    'Cases evaluated so far': {
      ru: 'Вопросы, оценённые на данный момент',
      uk: 'Питання, оцінені на цей момент',
    },
    'Cases evaluated': { ru: 'Оценённые вопросы', uk: 'Оцінені питання' },
    'Cases answered correctly': { ru: 'Вопросы с верным ответом', uk: 'Питання з правильною відповіддю' },
    'correct / cases; null without cases': {
      ru: 'верные / все вопросы; null, если вопросов нет',
      uk: 'правильні / усі питання; null, якщо питань немає',
    },
    'Cases that name an expected document': {
      ru: 'Вопросы с ожидаемым документом',
      uk: 'Питання з очікуваним документом',
    },
    'Share of those whose top source is the expected document; null when none': {
      ru: 'Доля тех из них, у кого первый источник — ожидаемый документ; null, если таких нет',
      uk: 'Частка тих із них, у кого перше джерело — очікуваний документ; null, якщо таких немає',
    },
    'Cases that name an expected intent': {
      ru: 'Вопросы с ожидаемым намерением',
      uk: 'Питання з очікуваним наміром',
    },
    'Share of those whose predicted intent is the expected one; null when none': {
      ru: 'Доля тех из них, у кого определённое намерение совпадает с ожидаемым; null, если таких нет',
      uk: 'Частка тих із них, у кого визначений намір збігається з очікуваним; null, якщо таких немає',
    },
    'Cases whose draft stayed under the confidence line': {
      ru: 'Вопросы, чей черновик остался ниже порога уверенности',
      uk: 'Питання, чия чернетка залишилася нижче порогу впевненості',
    },
    'Cases that could not be evaluated (a model call failed)': {
      ru: 'Вопросы, которые не удалось оценить (вызов модели не удался)',
      uk: 'Питання, які не вдалося оцінити (виклик моделі не вдався)',
    },
    'Why the run failed': { ru: 'Почему прогон завершился ошибкой', uk: 'Чому прогін завершився помилкою' },
    'User who started the run': {
      ru: 'Пользователь, запустивший прогон',
      uk: 'Користувач, який запустив прогін',
    },
    'Per-case results, in case order; empty until completed': {
      ru: 'Результаты по вопросам, в порядке вопросов; пусто до завершения',
      uk: 'Результати за питаннями, у порядку питань; порожньо до завершення',
    },
  },
  responses: {
    startEvalRun: {
      409: {
        en: 'A run of the namespace is still queued or running, or the namespace has no cases',
        ru: 'Прогон этого пространства имён ещё в очереди или выполняется, или в нём нет вопросов',
        uk: 'Прогін цього простору імен ще в черзі чи виконується, або в ньому немає питань',
      },
    },
    createEvalCase: {
      409: {
        en: 'The namespace already has 500 cases',
        ru: 'В пространстве имён уже 500 вопросов',
        uk: 'У просторі імен уже 500 питань',
      },
    },
  },
};
