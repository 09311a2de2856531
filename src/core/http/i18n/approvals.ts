import type { DocsArea } from './types.js';

export const approvalsDocs: DocsArea = {
  tags: {
    approvals: {
      en: 'Replies waiting for a human: approve (optionally edited), reject or escalate them',
      ru: 'Ответы, ожидающие человека: одобрить (при необходимости с правкой), отклонить или эскалировать',
      uk: 'Відповіді, що чекають на людину: схвалити (за потреби з правкою), відхилити або ескалювати',
    },
  },
  operations: {
    listApprovals: {
      en: {
        summary: 'List approvals',
        description:
          'Returns the approvals of your departments, the one that waited longest first, with limit and offset paging. Only pending approvals unless status is given. Filters: departmentId, namespaceId, intent and reason (a HITL reason type such as low_confidence, first_interaction, not_autonomous or sampled). A departmentId outside your departments answers 403. Requires canApprove.',
      },
      ru: {
        summary: 'Список согласований',
        description:
          'Возвращает согласования ваших отделов, начиная с дольше всех ожидающего, с постраничным выводом через limit и offset. Только ожидающие (pending), если не задан status. Фильтры: departmentId, namespaceId, intent и reason (тип причины HITL, например low_confidence, first_interaction, not_autonomous или sampled). Чужой отдел в departmentId даёт ответ 403. Нужно право canApprove.',
      },
      uk: {
        summary: 'Список погоджень',
        description:
          'Повертає погодження ваших відділів, починаючи з того, що чекає найдовше, із посторінковим виведенням через limit і offset. Лише ті, що очікують (pending), якщо не задано status. Фільтри: departmentId, namespaceId, intent і reason (тип причини HITL, наприклад low_confidence, first_interaction, not_autonomous або sampled). Чужий відділ у departmentId дає відповідь 403. Потрібне право canApprove.',
      },
    },
    getApproval: {
      en: {
        summary: 'Get an approval',
        description:
          'Returns one approval with everything needed to decide it: the reply as written, the knowledge it was written from (chunk text, document id and title, score), the intent, the confidence, the conversation context, every HITL reason, the employee who asked, and the decision history taken from the audit log. An approval outside your departments answers 404. Requires canApprove.',
      },
      ru: {
        summary: 'Получить согласование',
        description:
          'Возвращает одно согласование со всем, что нужно для решения: ответ в исходном виде, знания, по которым он написан (текст фрагмента, идентификатор и название документа, оценка), интент, уверенность, контекст диалога, все причины HITL, сотрудника, задавшего вопрос, и историю решений из журнала аудита. Согласование вне ваших отделов даёт ответ 404. Нужно право canApprove.',
      },
      uk: {
        summary: 'Отримати погодження',
        description:
          'Повертає одне погодження з усім, що потрібно для рішення: відповідь у початковому вигляді, знання, за якими її написано (текст фрагмента, ідентифікатор і назва документа, оцінка), інтент, упевненість, контекст діалогу, усі причини HITL, працівника, який запитав, та історію рішень із журналу аудиту. Погодження поза вашими відділами дає відповідь 404. Потрібне право canApprove.',
      },
    },
    approveApproval: {
      en: {
        summary: 'Approve a reply',
        description:
          'Sends the reply to the employee. Without editedContent the status becomes approved and the intent earns one successful approval (autonomy at its threshold); with editedContent the edited text is sent instead, the status becomes edited and nothing is counted. An approval no longer pending answers 409; an escalated one may be decided by the user it is escalated to, by department heads and by global administrators (anyone else: 403). Requires canApprove.',
      },
      ru: {
        summary: 'Одобрить ответ',
        description:
          'Отправляет ответ сотруднику. Без editedContent статус становится approved, и интент получает одно успешное одобрение (автономность при достижении порога); с editedContent отправляется исправленный текст, статус становится edited, и ничего не засчитывается. Уже не ожидающее согласование даёт ответ 409; эскалированное может решить пользователь, которому его эскалировали, руководители отделов и глобальные администраторы (остальные: 403). Нужно право canApprove.',
      },
      uk: {
        summary: 'Схвалити відповідь',
        description:
          'Надсилає відповідь працівникові. Без editedContent статус стає approved, і інтент отримує одне успішне схвалення (автономність після досягнення порогу); з editedContent надсилається виправлений текст, статус стає edited, і нічого не зараховується. Погодження, що вже не очікує, дає відповідь 409; ескальоване може вирішити користувач, якому його ескалювали, керівники відділів і глобальні адміністратори (інші: 403). Потрібне право canApprove.',
      },
    },
    rejectApproval: {
      en: {
        summary: 'Reject a reply',
        description:
          'Marks the reply rejected with the optional reason; nothing is sent to the employee. An approval no longer pending answers 409. Requires canApprove.',
      },
      ru: {
        summary: 'Отклонить ответ',
        description:
          'Помечает ответ как отклонённый с необязательной причиной; сотруднику ничего не отправляется. Уже не ожидающее согласование даёт ответ 409. Нужно право canApprove.',
      },
      uk: {
        summary: 'Відхилити відповідь',
        description:
          'Позначає відповідь як відхилену з необов’язковою причиною; працівникові нічого не надсилається. Погодження, що вже не очікує, дає відповідь 409. Потрібне право canApprove.',
      },
    },
    escalateApproval: {
      en: {
        summary: 'Escalate a reply',
        description:
          'Hands the decision to another user, who gets an approval_pending notification. escalatedToId must be an active user other than you who holds canApprove in the conversation department, else 422. An approval no longer pending answers 409. Requires canEscalate.',
      },
      ru: {
        summary: 'Эскалировать ответ',
        description:
          'Передаёт решение другому пользователю, который получает уведомление approval_pending. escalatedToId должен быть активным пользователем (не вами) с правом canApprove в отделе диалога, иначе 422. Уже не ожидающее согласование даёт ответ 409. Нужно право canEscalate.',
      },
      uk: {
        summary: 'Ескалювати відповідь',
        description:
          'Передає рішення іншому користувачеві, який отримує сповіщення approval_pending. escalatedToId має бути активним користувачем (не вами) з правом canApprove у відділі діалогу, інакше 422. Погодження, що вже не очікує, дає відповідь 409. Потрібне право canEscalate.',
      },
    },
    batchDecideApprovals: {
      en: {
        summary: 'Decide several approvals',
        description:
          'Approves or rejects up to 50 approvals, each on its own: one failing decision does not stop or undo the others. The answer is 200 with one result per decision, status success or status error with the error name and message (for example ConflictError for an approval no longer pending). More than 50 decisions answers 422. Requires canApprove.',
      },
      ru: {
        summary: 'Решить несколько согласований',
        description:
          'Одобряет или отклоняет до 50 согласований, каждое отдельно: неудачное решение не останавливает и не отменяет остальные. Ответ 200 с результатом для каждого решения: status success или status error с названием ошибки и сообщением (например ConflictError для уже не ожидающего согласования). Больше 50 решений даёт ответ 422. Нужно право canApprove.',
      },
      uk: {
        summary: 'Вирішити кілька погоджень',
        description:
          'Схвалює або відхиляє до 50 погоджень, кожне окремо: невдале рішення не зупиняє й не скасовує інші. Відповідь 200 з результатом для кожного рішення: status success або status error з назвою помилки й повідомленням (наприклад ConflictError для погодження, що вже не очікує). Понад 50 рішень дає відповідь 422. Потрібне право canApprove.',
      },
    },
  },
  fields: {
    'pending, approved, rejected, edited or escalated': {
      ru: 'pending, approved, rejected, edited или escalated',
      uk: 'pending, approved, rejected, edited або escalated',
    },
    'The reply to send instead of the original (1-16000 characters, not only spaces)': {
      ru: 'Ответ, который отправить вместо исходного (1–16000 символов, не только пробелы)',
      uk: 'Відповідь, яку надіслати замість початкової (1–16000 символів, не лише пробіли)',
    },
    'Why, in a few words (kept with the approval and in the audit log)': {
      ru: 'Почему, в нескольких словах (хранится в согласовании и в журнале аудита)',
      uk: 'Чому, кількома словами (зберігається в погодженні та в журналі аудиту)',
    },
    'Reason type, for example low_confidence or first_interaction': {
      ru: 'Тип причины, например low_confidence или first_interaction',
      uk: 'Тип причини, наприклад low_confidence або first_interaction',
    },
    'One HITL reason with its details': {
      ru: 'Одна причина HITL с подробностями',
      uk: 'Одна причина HITL із подробицями',
    },
    'Approval id': { ru: 'Идентификатор согласования', uk: 'Ідентифікатор погодження' },
    'Namespace whose assistant wrote the reply': {
      ru: 'Пространство имён, чей ассистент написал ответ',
      uk: 'Простір імен, чий асистент написав відповідь',
    },
    'Conversation the reply belongs to': {
      ru: 'Диалог, к которому относится ответ',
      uk: 'Діалог, до якого належить відповідь',
    },
    'Agent task that wrote the reply': {
      ru: 'Задача агента, которая написала ответ',
      uk: 'Завдання агента, яке написало відповідь',
    },
    'The inbound message the reply answers': {
      ru: 'Входящее сообщение, на которое отвечает ответ',
      uk: 'Вхідне повідомлення, на яке відповідає відповідь',
    },
    'Employee who asked': { ru: 'Сотрудник, задавший вопрос', uk: 'Працівник, який запитав' },
    'The employee the reply is for': {
      ru: 'Сотрудник, которому предназначен ответ',
      uk: 'Працівник, якому призначена відповідь',
    },
    "The employee's message the reply answers; null when there is none": {
      ru: 'Сообщение сотрудника, на которое отвечает ответ; null, если его нет',
      uk: 'Повідомлення працівника, на яке відповідає відповідь; null, якщо його немає',
    },
    'The reply as the assistant wrote it': {
      ru: 'Ответ в том виде, как его написал ассистент',
      uk: 'Відповідь у тому вигляді, як її написав асистент',
    },
    'The reply as the approver edited it': {
      ru: 'Ответ в том виде, как его исправил согласующий',
      uk: 'Відповідь у тому вигляді, як її виправив погоджувач',
    },
    'Reason given with a rejection or an escalation': {
      ru: 'Причина, указанная при отклонении или эскалации',
      uk: 'Причина, зазначена під час відхилення або ескалації',
    },
    'Classified intent of the message': {
      ru: 'Определённый интент сообщения',
      uk: 'Визначений інтент повідомлення',
    },
    'Retrieval confidence, from 0 to 1': {
      ru: 'Уверенность поиска, от 0 до 1',
      uk: 'Упевненість пошуку, від 0 до 1',
    },
    'Every HITL reason that held': {
      ru: 'Все сработавшие причины HITL',
      uk: 'Усі причини HITL, що спрацювали',
    },
    'User the approval is escalated to': {
      ru: 'Пользователь, которому эскалировано согласование',
      uk: 'Користувач, якому ескальовано погодження',
    },
    'Role the approval is escalated to': {
      ru: 'Роль, которой эскалировано согласование',
      uk: 'Роль, якій ескальовано погодження',
    },
    'Who approved, edited or rejected it': {
      ru: 'Кто одобрил, исправил или отклонил',
      uk: 'Хто схвалив, виправив або відхилив',
    },
    'When it was decided': { ru: 'Когда принято решение', uk: 'Коли ухвалено рішення' },
    'Retrieved chunk': { ru: 'Найденный фрагмент', uk: 'Знайдений фрагмент' },
    'Document of the chunk': { ru: 'Документ фрагмента', uk: 'Документ фрагмента' },
    'Title of the document': { ru: 'Название документа', uk: 'Назва документа' },
    'Blended retrieval score, from 0 to 1': {
      ru: 'Смешанная оценка поиска, от 0 до 1',
      uk: 'Змішана оцінка пошуку, від 0 до 1',
    },
    'Text of the chunk; null when it was deleted since': {
      ru: 'Текст фрагмента; null, если его с тех пор удалили',
      uk: 'Текст фрагмента; null, якщо його відтоді видалили',
    },
    'approve, reject or escalate': {
      ru: 'approve, reject или escalate',
      uk: 'approve, reject або escalate',
    },
    'Who acted; null for the system (deadline escalation)': {
      ru: 'Кто действовал; null для системы (эскалация по сроку)',
      uk: 'Хто діяв; null для системи (ескалація за терміном)',
    },
    'Name of that user': { ru: 'Имя этого пользователя', uk: 'Ім’я цього користувача' },
    'What was sent with the decision: edited text, reason, target': {
      ru: 'Что передано с решением: исправленный текст, причина, адресат',
      uk: 'Що передано з рішенням: виправлений текст, причина, адресат',
    },
    'When it happened': { ru: 'Когда это произошло', uk: 'Коли це сталося' },
    'The knowledge the reply was written from': {
      ru: 'Знания, по которым написан ответ',
      uk: 'Знання, за якими написано відповідь',
    },
    'channel, language, userMessage and the conversation turns before it': {
      ru: 'channel, language, userMessage и реплики диалога перед ним',
      uk: 'channel, language, userMessage і репліки діалогу перед ним',
    },
    'Decisions on this approval, oldest first': {
      ru: 'Решения по этому согласованию, начиная со старых',
      uk: 'Рішення щодо цього погодження, починаючи зі старих',
    },
    'Only approvals in this status (default pending)': {
      ru: 'Только согласования в этом статусе (по умолчанию pending)',
      uk: 'Лише погодження в цьому статусі (типово pending)',
    },
    'Only this namespace': { ru: 'Только это пространство имён', uk: 'Лише цей простір імен' },
    'Only approvals with this HITL reason type, for example low_confidence': {
      ru: 'Только согласования с этим типом причины HITL, например low_confidence',
      uk: 'Лише погодження з цим типом причини HITL, наприклад low_confidence',
    },
    'Active user, not you, who may approve in the conversation department': {
      ru: 'Активный пользователь (не вы), который может согласовывать в отделе диалога',
      uk: 'Активний користувач (не ви), який може погоджувати у відділі діалогу',
    },
    'Approval to decide': { ru: 'Согласование для решения', uk: 'Погодження для рішення' },
    'approve or reject': { ru: 'approve или reject', uk: 'approve або reject' },
    'Decisions, each processed on its own (1-50)': {
      ru: 'Решения, каждое обрабатывается отдельно (1–50)',
      uk: 'Рішення, кожне обробляється окремо (1–50)',
    },
    'Approval decided': { ru: 'Решённое согласование', uk: 'Вирішене погодження' },
    'success, or error with the error name and message': {
      ru: 'success или error с названием ошибки и сообщением',
      uk: 'success або error з назвою помилки й повідомленням',
    },
    'Error class name, for example ConflictError': {
      ru: 'Название класса ошибки, например ConflictError',
      uk: 'Назва класу помилки, наприклад ConflictError',
    },
    'One result per decision, in the order sent': {
      ru: 'Один результат на решение, в порядке отправки',
      uk: 'Один результат на рішення, у порядку надсилання',
    },
    // The namespace config keys of the approval extensions (trust demotion, deadline).
    'Rejections or edits in a row after which an autonomous intent loses its autonomy; unset never demotes': {
      ru: 'Число отклонений или правок подряд, после которого автономный интент теряет автономность; без значения не понижается',
      uk: 'Кількість відхилень або правок поспіль, після якої автономний інтент втрачає автономність; без значення не знижується',
    },
    'Minutes a reply may wait for approval before it is escalated to the department heads; unset never escalates':
      {
        ru: 'Сколько минут ответ может ждать согласования, прежде чем его эскалируют руководителям отдела; без значения не эскалируется',
        uk: 'Скільки хвилин відповідь може чекати на погодження, перш ніж її ескалюють керівникам відділу; без значення не ескалюється',
      },
    // The namespace config's trust policy (docs/approvals.md, Trust).
    'count (default): autonomy when the grounded plain approvals reach the threshold; confidence: when the lower bound of the clean-approval rate reaches targetRate':
      {
        ru: 'count (по умолчанию): автономность, когда одобрения обоснованных черновиков без правок достигают порога; confidence: когда нижняя граница доли одобрений без правок достигает targetRate',
        uk: 'count (типово): автономність, коли схвалення обґрунтованих чернеток без правок досягають порога; confidence: коли нижня межа частки схвалень без правок досягає targetRate',
      },
    'Counted decisions the confidence mode looks back over (default 50)': {
      ru: 'Сколько последних учтённых решений рассматривает режим confidence (по умолчанию 50)',
      uk: 'Скільки останніх врахованих рішень розглядає режим confidence (типово 50)',
    },
    'Clean-approval rate the lower bound must reach for autonomy (default 0.85)': {
      ru: 'Доля одобрений без правок, которой должна достичь нижняя граница для автономности (по умолчанию 0.85)',
      uk: 'Частка схвалень без правок, якої має досягти нижня межа для автономності (типово 0.85)',
    },
    'One-sided confidence of the Wilson lower bound (default 0.95)': {
      ru: 'Односторонняя доверительная вероятность нижней границы Уилсона (по умолчанию 0.95)',
      uk: 'Одностороння довірча ймовірність нижньої межі Вілсона (типово 0.95)',
    },
    'Autonomy is taken away when the bound falls below targetRate − margin (default 0.05)': {
      ru: 'Автономность снимается, когда граница падает ниже targetRate − margin (по умолчанию 0.05)',
      uk: 'Автономність знімається, коли межа падає нижче targetRate − margin (типово 0.05)',
    },
    'How intents of this namespace earn and keep autonomy': {
      ru: 'Как интенты этого пространства имён получают и сохраняют автономность',
      uk: 'Як інтенти цього простору імен здобувають і зберігають автономність',
    },
    // An approval's trust.
    "Whether the decision counted toward the intent's trust": {
      ru: 'Учтено ли решение в доверии к интенту',
      uk: 'Чи враховано рішення в довірі до інтенту',
    },
    'Why it did not count': { ru: 'Почему не учтено', uk: 'Чому не враховано' },
    'What the decision did to trust; null until decided, and for escalations': {
      ru: 'Что решение изменило в доверии; null до решения и для эскалаций',
      uk: 'Що рішення змінило в довірі; null до рішення і для ескалацій',
    },
  },
};
