import type { DocsArea } from './types.js';

export const agentTasksDocs: DocsArea = {
  tags: {
    'agent-tasks': {
      en: 'The agent-task monitor: each inbound message’s pipeline run, its steps and statistics',
      ru: 'Монитор задач агента: обработка каждого входящего сообщения конвейером, её шаги и статистика',
      uk: 'Монітор завдань агента: обробка кожного вхідного повідомлення конвеєром, її кроки та статистика',
    },
  },
  operations: {
    listAgentTasks: {
      en: {
        summary: 'List agent tasks',
        description:
          'Returns the agent tasks of your departments, newest first, with limit and offset paging. Filters: namespaceId, departmentId, status (queued, running, done, failed, timeout), adapterType, and a creation window from (inclusive) to (exclusive). A departmentId outside your departments answers 403; from must be before to.',
      },
      ru: {
        summary: 'Список задач агента',
        description:
          'Возвращает задачи агента ваших отделов, начиная с новых, с постраничным выводом через limit и offset. Фильтры: namespaceId, departmentId, status (queued, running, done, failed, timeout), adapterType и окно создания from (включительно) — to (не включая). Чужой отдел в departmentId даёт ответ 403; from должен быть раньше to.',
      },
      uk: {
        summary: 'Список завдань агента',
        description:
          'Повертає завдання агента ваших відділів, починаючи з нових, із посторінковим виведенням через limit і offset. Фільтри: namespaceId, departmentId, status (queued, running, done, failed, timeout), adapterType і вікно створення from (включно) — to (не включно). Чужий відділ у departmentId дає відповідь 403; from має бути раніше за to.',
      },
    },
    getAgentTask: {
      en: {
        summary: 'Get an agent task',
        description:
          'Returns one agent task with its output and its tool calls (inject_profile, rag_search, generate, confidence_check) in step order, each with its input, output, duration and error. A task outside your departments answers 404.',
      },
      ru: {
        summary: 'Получить задачу агента',
        description:
          'Возвращает одну задачу агента с результатом и вызовами инструментов (inject_profile, rag_search, generate, confidence_check) в порядке шагов, каждый со входом, выходом, длительностью и ошибкой. Задача вне ваших отделов даёт ответ 404.',
      },
      uk: {
        summary: 'Отримати завдання агента',
        description:
          'Повертає одне завдання агента з результатом і викликами інструментів (inject_profile, rag_search, generate, confidence_check) у порядку кроків, кожен із входом, виходом, тривалістю та помилкою. Завдання поза вашими відділами дає відповідь 404.',
      },
    },
    getAgentTaskStats: {
      en: {
        summary: 'Agent task statistics',
        description:
          'Groups the agent tasks of your departments by adapter and namespace: total, success rate (done over finished tasks), mean duration and cost of finished tasks, and counts per status. Takes the list filters except status; a departmentId outside your departments answers 403.',
      },
      ru: {
        summary: 'Статистика задач агента',
        description:
          'Группирует задачи агента ваших отделов по адаптеру и пространству имён: всего, доля успешных (done среди завершённых), средние длительность и стоимость завершённых задач и число задач по статусам. Принимает фильтры списка, кроме status; чужой отдел в departmentId даёт ответ 403.',
      },
      uk: {
        summary: 'Статистика завдань агента',
        description:
          'Групує завдання агента ваших відділів за адаптером і простором імен: усього, частка успішних (done серед завершених), середні тривалість і вартість завершених завдань і кількість завдань за статусами. Приймає фільтри списку, крім status; чужий відділ у departmentId дає відповідь 403.',
      },
    },
  },
  fields: {
    'queued, running, done, failed or timeout': {
      ru: 'queued, running, done, failed или timeout',
      uk: 'queued, running, done, failed або timeout',
    },
    'Only tasks in this status': { ru: 'Только задачи в этом статусе', uk: 'Лише завдання в цьому статусі' },
    'Adapter that processed the task: api or a local runner': {
      ru: 'Адаптер, обработавший задачу: api или локальный исполнитель',
      uk: 'Адаптер, що обробив завдання: api або локальний виконавець',
    },
    'Task id': { ru: 'Идентификатор задачи', uk: 'Ідентифікатор завдання' },
    'Id of the queue job that runs the task': {
      ru: 'Идентификатор задания очереди, которое выполняет задачу',
      uk: 'Ідентифікатор завдання черги, яке виконує завдання агента',
    },
    'Namespace whose assistant answered; null when none was configured': {
      ru: 'Пространство имён, чей ассистент ответил; null, если оно не настроено',
      uk: 'Простір імен, чий асистент відповів; null, якщо його не налаштовано',
    },
    'Department the conversation belongs to': {
      ru: 'Отдел, которому принадлежит диалог',
      uk: 'Відділ, якому належить діалог',
    },
    'Conversation of the inbound message': {
      ru: 'Диалог входящего сообщения',
      uk: 'Діалог вхідного повідомлення',
    },
    'The inbound message the task answers': {
      ru: 'Входящее сообщение, на которое отвечает задача',
      uk: 'Вхідне повідомлення, на яке відповідає завдання',
    },
    'Trace of the generation (GET /traces/{trace_id})': {
      ru: 'Трассировка генерации (GET /traces/{trace_id})',
      uk: 'Трасування генерації (GET /traces/{trace_id})',
    },
    'Why the task failed or timed out': {
      ru: 'Почему задача завершилась ошибкой или по тайм-ауту',
      uk: 'Чому завдання завершилося помилкою або за тайм-аутом',
    },
    'Prompt tokens of the generation': { ru: 'Токены запроса генерации', uk: 'Токени запиту генерації' },
    'Completion tokens of the generation': {
      ru: 'Токены ответа генерации',
      uk: 'Токени відповіді генерації',
    },
    'Prompt and completion tokens together': {
      ru: 'Токены запроса и ответа вместе',
      uk: 'Токени запиту й відповіді разом',
    },
    'Estimated cost in US dollars': {
      ru: 'Оценочная стоимость в долларах США',
      uk: 'Орієнтовна вартість у доларах США',
    },
    'False when the model server reported no token usage: the token counts and the cost are then 0 because they are unknown':
      {
        ru: 'false, когда сервер модели не сообщил расход токенов: счётчики токенов и стоимость тогда равны 0, потому что неизвестны',
        uk: 'false, коли сервер моделі не повідомив витрату токенів: лічильники токенів і вартість тоді дорівнюють 0, бо невідомі',
      },
    'End-to-end processing time in milliseconds; null until finished': {
      ru: 'Полное время обработки в миллисекундах; null до завершения',
      uk: 'Повний час обробки в мілісекундах; null до завершення',
    },
    'When a worker picked the task up': {
      ru: 'Когда обработчик взял задачу',
      uk: 'Коли обробник узяв завдання',
    },
    'When the task finished': { ru: 'Когда задача завершилась', uk: 'Коли завдання завершилося' },
    'Tool call id': { ru: 'Идентификатор вызова инструмента', uk: 'Ідентифікатор виклику інструмента' },
    'inject_profile, rag_search, generate, confidence_check, or an adapter call': {
      ru: 'inject_profile, rag_search, generate, confidence_check или вызов адаптера',
      uk: 'inject_profile, rag_search, generate, confidence_check або виклик адаптера',
    },
    'done, failed or timeout': { ru: 'done, failed или timeout', uk: 'done, failed або timeout' },
    'What the step was given; null for a caller who may not read the task’s message': {
      ru: 'Что получил шаг; null для вызывающего, которому не видно сообщение задачи',
      uk: 'Що отримав крок; null для викликача, якому не видно повідомлення завдання',
    },
    'What the step produced; null when it failed or for a caller who may not read the task’s message': {
      ru: 'Что выдал шаг; null, если он не удался, или для вызывающего, которому не видно сообщение задачи',
      uk: 'Що видав крок; null, якщо він не вдався, або для викликача, якому не видно повідомлення завдання',
    },
    'How long the step ran, in milliseconds': {
      ru: 'Сколько длился шаг, в миллисекундах',
      uk: 'Скільки тривав крок, у мілісекундах',
    },
    'Why the step failed': { ru: 'Почему шаг завершился ошибкой', uk: 'Чому крок завершився помилкою' },
    'Result of a finished task: reply, route, intent, confidence, approval or message id': {
      ru: 'Результат завершённой задачи: ответ, маршрут, интент, уверенность, идентификатор согласования или сообщения',
      uk: 'Результат завершеного завдання: відповідь, маршрут, інтент, упевненість, ідентифікатор погодження або повідомлення',
    },
    'The persisted pipeline steps, in step order': {
      ru: 'Сохранённые шаги конвейера в порядке выполнения',
      uk: 'Збережені кроки конвеєра в порядку виконання',
    },
    'Only tasks of this namespace': {
      ru: 'Только задачи этого пространства имён',
      uk: 'Лише завдання цього простору імен',
    },
    'Only tasks of this department (one of yours)': {
      ru: 'Только задачи этого отдела (одного из ваших)',
      uk: 'Лише завдання цього відділу (одного з ваших)',
    },
    'Only tasks of this adapter': { ru: 'Только задачи этого адаптера', uk: 'Лише завдання цього адаптера' },
    'Tasks created at or after this time': {
      ru: 'Задачи, созданные в это время или позже',
      uk: 'Завдання, створені в цей час або пізніше',
    },
    'Tasks created before this time': {
      ru: 'Задачи, созданные раньше этого времени',
      uk: 'Завдання, створені раніше за цей час',
    },
    'Namespace of the group; null for tasks without one': {
      ru: 'Пространство имён группы; null для задач без него',
      uk: 'Простір імен групи; null для завдань без нього',
    },
    'Tasks in the group': { ru: 'Задач в группе', uk: 'Завдань у групі' },
    'Share of finished tasks that ended done (0 when none finished)': {
      ru: 'Доля завершённых задач со статусом done (0, если завершённых нет)',
      uk: 'Частка завершених завдань зі статусом done (0, якщо завершених немає)',
    },
    'Mean duration of finished tasks in milliseconds; null when none': {
      ru: 'Средняя длительность завершённых задач в миллисекундах; null, если их нет',
      uk: 'Середня тривалість завершених завдань у мілісекундах; null, якщо їх немає',
    },
    'Mean estimated cost of finished tasks in US dollars; null when none': {
      ru: 'Средняя оценочная стоимость завершённых задач в долларах США; null, если их нет',
      uk: 'Середня орієнтовна вартість завершених завдань у доларах США; null, якщо їх немає',
    },
    'Tasks waiting for a worker': {
      ru: 'Задачи, ждущие обработчика',
      uk: 'Завдання, що чекають на обробника',
    },
    'Tasks being processed': { ru: 'Задачи в обработке', uk: 'Завдання в обробці' },
    'Tasks that finished with a reply': {
      ru: 'Задачи, завершившиеся ответом',
      uk: 'Завдання, що завершилися відповіддю',
    },
    'Tasks that failed': { ru: 'Задачи, завершившиеся ошибкой', uk: 'Завдання, що завершилися помилкою' },
    'Tasks that timed out': {
      ru: 'Задачи, завершившиеся по тайм-ауту',
      uk: 'Завдання, що завершилися за тайм-аутом',
    },
    'Tasks of the group per status': { ru: 'Задачи группы по статусам', uk: 'Завдання групи за статусами' },
    'One entry per adapter and namespace, the busiest first': {
      ru: 'Одна запись на адаптер и пространство имён, начиная с самых загруженных',
      uk: 'Один запис на адаптер і простір імен, починаючи з найзавантаженіших',
    },
    'Text of the inbound message, cut to 500 characters; null when the task has none, or for a caller who is not its sender and holds neither canApprove nor canViewAllUsers':
      {
        ru: 'Текст входящего сообщения, обрезанный до 500 символов; null, если его нет или если вызывающий не его отправитель и не имеет ни canApprove, ни canViewAllUsers',
        uk: 'Текст вхідного повідомлення, обрізаний до 500 символів; null, якщо його немає або якщо викликач не його відправник і не має ні canApprove, ні canViewAllUsers',
      },
    'Channel of the conversation: web, chanA, chanB or email; null when none': {
      ru: 'Канал беседы: web, chanA, chanB или email; null, если беседы нет',
      uk: 'Канал розмови: web, chanA, chanB або email; null, якщо розмови немає',
    },
    'Employee who sent the message': {
      ru: 'Сотрудник, отправивший сообщение',
      uk: 'Працівник, який надіслав повідомлення',
    },
    'The employee whose message the task answers; null when the task has no conversation, or hidden as messageText is':
      {
        ru: 'Сотрудник, на чьё сообщение отвечает задача; null, если у задачи нет беседы или если скрыт, как messageText',
        uk: 'Працівник, на чиє повідомлення відповідає завдання; null, якщо в завдання немає розмови або якщо прихований, як messageText',
      },
  },
};
