import type { DocsArea } from './types.js';

export const conversationsDocs: DocsArea = {
  tags: {
    conversations: {
      en: 'Conversations with employees on every channel, and the web chat for trying the assistant',
      ru: 'Диалоги с сотрудниками во всех каналах и веб-чат, чтобы попробовать ассистента',
      uk: 'Діалоги з працівниками в усіх каналах і веб-чат, щоб спробувати асистента',
    },
  },
  operations: {
    listConversations: {
      en: {
        summary: 'List conversations',
        description:
          'Returns the conversations of your departments, the most recently active first, with limit and offset paging. Filters: departmentId, channel (web, chanA, chanB, email) and status (open, awaiting_approval, escalated, closed). A departmentId outside your departments answers 403. Requires canApprove.',
      },
      ru: {
        summary: 'Список диалогов',
        description:
          'Возвращает диалоги ваших отделов, начиная с самых недавно активных, с постраничным выводом через limit и offset. Фильтры: departmentId, channel (web, chanA, chanB, email) и status (open, awaiting_approval, escalated, closed). Чужой отдел в departmentId даёт ответ 403. Нужно право canApprove.',
      },
      uk: {
        summary: 'Список діалогів',
        description:
          'Повертає діалоги ваших відділів, починаючи з нещодавно активних, із посторінковим виведенням через limit і offset. Фільтри: departmentId, channel (web, chanA, chanB, email) і status (open, awaiting_approval, escalated, closed). Чужий відділ у departmentId дає відповідь 403. Потрібне право canApprove.',
      },
    },
    listConversationMessages: {
      en: {
        summary: 'List the messages of a conversation',
        description:
          'Returns the messages of one conversation, newest first, inbound and outbound. Page with cursor: pass the nextCursor of the previous page; nextCursor is null on the last page. A cursor that is not a message of this conversation answers 422; a conversation outside your departments answers 404. Requires canApprove.',
      },
      ru: {
        summary: 'Сообщения диалога',
        description:
          'Возвращает сообщения одного диалога, начиная с новых, входящие и исходящие. Постраничный вывод через cursor: передайте nextCursor предыдущей страницы; на последней странице nextCursor равен null. Курсор, не являющийся сообщением этого диалога, даёт ответ 422; диалог вне ваших отделов — 404. Нужно право canApprove.',
      },
      uk: {
        summary: 'Повідомлення діалогу',
        description:
          'Повертає повідомлення одного діалогу, починаючи з нових, вхідні й вихідні. Посторінкове виведення через cursor: передайте nextCursor попередньої сторінки; на останній сторінці nextCursor дорівнює null. Курсор, що не є повідомленням цього діалогу, дає відповідь 422; діалог поза вашими відділами — 404. Потрібне право canApprove.',
      },
    },
    sendWebMessage: {
      en: {
        summary: 'Send a web chat message',
        description:
          'Sends your message to the assistant of your department through the web channel, so the assistant can be tried before a messaging platform is connected. The message is stored in your open web conversation and an agent task is queued; the answer is 202 with messageId, conversationId and taskId. Follow the task on /ws/agent-tasks or read the reply with GET /conversations/web/messages. Sending a clientMessageId again answers the first message and runs nothing.',
      },
      ru: {
        summary: 'Отправить сообщение в веб-чат',
        description:
          'Отправляет ваше сообщение ассистенту вашего отдела через веб-канал, чтобы попробовать ассистента до подключения мессенджера. Сообщение сохраняется в вашем открытом веб-диалоге, и ставится в очередь задача агента; ответ 202 с messageId, conversationId и taskId. Следите за задачей через /ws/agent-tasks или читайте ответ через GET /conversations/web/messages. Повторная отправка того же clientMessageId возвращает первое сообщение и ничего не запускает.',
      },
      uk: {
        summary: 'Надіслати повідомлення у веб-чат',
        description:
          'Надсилає ваше повідомлення асистентові вашого відділу через веб-канал, щоб спробувати асистента до підключення месенджера. Повідомлення зберігається у вашому відкритому веб-діалозі, і в чергу ставиться завдання агента; відповідь 202 з messageId, conversationId і taskId. Стежте за завданням через /ws/agent-tasks або читайте відповідь через GET /conversations/web/messages. Повторне надсилання того самого clientMessageId повертає перше повідомлення й нічого не запускає.',
      },
    },
    listWebMessages: {
      en: {
        summary: 'List your web chat messages',
        description:
          'Returns the messages of your own web conversations, newest first: what you sent and the assistant’s replies with their delivery status. Page with cursor: pass the nextCursor of the previous page; nextCursor is null on the last page. A cursor that is not one of your web messages answers 422.',
      },
      ru: {
        summary: 'Ваши сообщения веб-чата',
        description:
          'Возвращает сообщения ваших веб-диалогов, начиная с новых: отправленное вами и ответы ассистента со статусом доставки. Постраничный вывод через cursor: передайте nextCursor предыдущей страницы; на последней странице nextCursor равен null. Курсор, не являющийся вашим сообщением веб-чата, даёт ответ 422.',
      },
      uk: {
        summary: 'Ваші повідомлення веб-чату',
        description:
          'Повертає повідомлення ваших веб-діалогів, починаючи з нових: надіслане вами й відповіді асистента зі статусом доставки. Посторінкове виведення через cursor: передайте nextCursor попередньої сторінки; на останній сторінці nextCursor дорівнює null. Курсор, що не є вашим повідомленням веб-чату, дає відповідь 422.',
      },
    },
  },
  fields: {
    'Conversation id': { ru: 'Идентификатор диалога', uk: 'Ідентифікатор діалогу' },
    'web, chanA, chanB or email': { ru: 'web, chanA, chanB или email', uk: 'web, chanA, chanB або email' },
    'The sender on the platform (phone number, user id)': {
      ru: 'Отправитель на платформе (номер телефона, идентификатор пользователя)',
      uk: 'Відправник на платформі (номер телефону, ідентифікатор користувача)',
    },
    'Employee the conversation is with': {
      ru: 'Сотрудник, с которым идёт диалог',
      uk: 'Працівник, з яким ведеться діалог',
    },
    'Name of that employee': { ru: 'Имя этого сотрудника', uk: 'Ім’я цього працівника' },
    'Department of the conversation': { ru: 'Отдел диалога', uk: 'Відділ діалогу' },
    'Namespace whose assistant answers': {
      ru: 'Пространство имён, чей ассистент отвечает',
      uk: 'Простір імен, чий асистент відповідає',
    },
    'open, awaiting_approval, escalated or closed': {
      ru: 'open, awaiting_approval, escalated или closed',
      uk: 'open, awaiting_approval, escalated або closed',
    },
    'When the last message came in': {
      ru: 'Когда пришло последнее сообщение',
      uk: 'Коли надійшло останнє повідомлення',
    },
    'Only conversations on this channel': {
      ru: 'Только диалоги в этом канале',
      uk: 'Лише діалоги в цьому каналі',
    },
    'Only conversations in this status': {
      ru: 'Только диалоги в этом статусе',
      uk: 'Лише діалоги в цьому статусі',
    },
    'Message id': { ru: 'Идентификатор сообщения', uk: 'Ідентифікатор повідомлення' },
    'Conversation of the message': { ru: 'Диалог сообщения', uk: 'Діалог повідомлення' },
    'inbound (from the employee) or outbound (from the assistant or a person)': {
      ru: 'inbound (от сотрудника) или outbound (от ассистента или человека)',
      uk: 'inbound (від працівника) або outbound (від асистента чи людини)',
    },
    'Text of the message': { ru: 'Текст сообщения', uk: 'Текст повідомлення' },
    'Outbound only: queued, sent, delivered, read or failed; null for inbound': {
      ru: 'Только для исходящих: queued, sent, delivered, read или failed; null для входящих',
      uk: 'Лише для вихідних: queued, sent, delivered, read або failed; null для вхідних',
    },
    'Agent task that answered (inbound) or produced (outbound) the message': {
      ru: 'Задача агента, которая ответила на сообщение (входящее) или создала его (исходящее)',
      uk: 'Завдання агента, яке відповіло на повідомлення (вхідне) або створило його (вихідне)',
    },
    'Channel of the message': { ru: 'Канал сообщения', uk: 'Канал повідомлення' },
    'Approval that released an outbound reply': {
      ru: 'Согласование, которое выпустило исходящий ответ',
      uk: 'Погодження, яке випустило вихідну відповідь',
    },
    'What the channel reported with it': {
      ru: 'Что канал сообщил вместе с ним',
      uk: 'Що канал повідомив разом із ним',
    },
    'The id the client sent with an inbound message': {
      ru: 'Идентификатор, который клиент передал с входящим сообщением',
      uk: 'Ідентифікатор, який клієнт передав із вхідним повідомленням',
    },
    'Id of the last message of the previous page': {
      ru: 'Идентификатор последнего сообщения предыдущей страницы',
      uk: 'Ідентифікатор останнього повідомлення попередньої сторінки',
    },
    'Cursor of the next page; null on the last page': {
      ru: 'Курсор следующей страницы; null на последней странице',
      uk: 'Курсор наступної сторінки; null на останній сторінці',
    },
    'Messages, newest first': { ru: 'Сообщения, начиная с новых', uk: 'Повідомлення, починаючи з нових' },
    'What you ask the assistant (1-4000 characters, not only spaces)': {
      ru: 'Что вы спрашиваете у ассистента (1–4000 символов, не только пробелы)',
      uk: 'Що ви запитуєте в асистента (1–4000 символів, не лише пробіли)',
    },
    'Your id for the message: sending it again answers the first message and runs nothing': {
      ru: 'Ваш идентификатор сообщения: повторная отправка возвращает первое сообщение и ничего не запускает',
      uk: 'Ваш ідентифікатор повідомлення: повторне надсилання повертає перше повідомлення й нічого не запускає',
    },
    'The stored inbound message': {
      ru: 'Сохранённое входящее сообщение',
      uk: 'Збережене вхідне повідомлення',
    },
    'Your web conversation': { ru: 'Ваш веб-диалог', uk: 'Ваш веб-діалог' },
    'Agent task that answers the message': {
      ru: 'Задача агента, которая отвечает на сообщение',
      uk: 'Завдання агента, яке відповідає на повідомлення',
    },
  },
};
