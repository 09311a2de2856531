import type { DocsArea } from './types.js';

export const namespacesDocs: DocsArea = {
  tags: {
    namespaces: {
      en: 'Assistant configurations of a department: system prompt, persona, knowledge and agent runner',
      ru: 'Настройки ассистента отдела: системный промпт, персона, база знаний и исполнитель агента',
      uk: 'Налаштування асистента відділу: системний промпт, персона, база знань і виконавець агента',
    },
  },
  operations: {
    listNamespaces: {
      en: {
        summary: 'List namespaces',
        description:
          'Returns the namespaces of your departments, newest first, with limit and offset paging. A departmentId filter narrows the list to one department; naming a department outside yours answers 403.',
      },
      ru: {
        summary: 'Список пространств имён',
        description:
          'Возвращает пространства имён ваших отделов, начиная с новых, с постраничным выводом через limit и offset. Фильтр departmentId сужает список до одного отдела; чужой отдел в фильтре даёт ответ 403.',
      },
      uk: {
        summary: 'Список просторів імен',
        description:
          'Повертає простори імен ваших відділів, починаючи з нових, із посторінковим виведенням через limit і offset. Фільтр departmentId звужує список до одного відділу; чужий відділ у фільтрі дає відповідь 403.',
      },
    },
    getNamespace: {
      en: {
        summary: 'Get a namespace',
        description:
          'Returns one namespace with its system prompt, persona and config. A namespace outside your departments answers 404.',
      },
      ru: {
        summary: 'Получить пространство имён',
        description:
          'Возвращает одно пространство имён с системным промптом, персоной и настройками. Пространство имён вне ваших отделов даёт ответ 404.',
      },
      uk: {
        summary: 'Отримати простір імен',
        description:
          'Повертає один простір імен із системним промптом, персоною та налаштуваннями. Простір імен поза вашими відділами дає відповідь 404.',
      },
    },
    createNamespace: {
      en: {
        summary: 'Create a namespace',
        description:
          'Creates an assistant configuration in one of your departments. persona.style.formality is a number from 0 to 1, persona.escalateToRole must be an existing role slug, config.agentRunner.activeAdapter must be a known adapter, and config.knowledgeBaseIds must be knowledge bases of the same department. Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Создать пространство имён',
        description:
          'Создаёт настройки ассистента в одном из ваших отделов. persona.style.formality — число от 0 до 1, persona.escalateToRole — слаг существующей роли, config.agentRunner.activeAdapter — известный адаптер, а config.knowledgeBaseIds — базы знаний того же отдела. Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Створити простір імен',
        description:
          'Створює налаштування асистента в одному з ваших відділів. persona.style.formality — число від 0 до 1, persona.escalateToRole — слаг наявної ролі, config.agentRunner.activeAdapter — відомий адаптер, а config.knowledgeBaseIds — бази знань того самого відділу. Потрібне право canManageNamespaces.',
      },
    },
    updateNamespace: {
      en: {
        summary: 'Update a namespace',
        description:
          'Changes the name, system prompt, persona or config of a namespace; persona and config are replaced as a whole and validated as on create. Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Изменить пространство имён',
        description:
          'Меняет название, системный промпт, персону или настройки пространства имён; персона и настройки заменяются целиком и проверяются так же, как при создании. Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Змінити простір імен',
        description:
          'Змінює назву, системний промпт, персону або налаштування простору імен; персона й налаштування замінюються повністю та перевіряються так само, як під час створення. Потрібне право canManageNamespaces.',
      },
    },
    deleteNamespace: {
      en: {
        summary: 'Delete a namespace',
        description:
          'Deletes a namespace together with its intent examples, trust records, plugins and templates, and clears it as its department’s default. Past agent tasks and conversations are kept. Requires canManageNamespaces.',
      },
      ru: {
        summary: 'Удалить пространство имён',
        description:
          'Удаляет пространство имён вместе с примерами интентов, записями доверия, плагинами и шаблонами и снимает его с роли пространства по умолчанию для отдела. Прошлые задачи агента и диалоги сохраняются. Нужно право canManageNamespaces.',
      },
      uk: {
        summary: 'Видалити простір імен',
        description:
          'Видаляє простір імен разом із прикладами інтентів, записами довіри, плагінами й шаблонами та знімає його з ролі простору за замовчуванням для відділу. Минулі завдання агента й діалоги зберігаються. Потрібне право canManageNamespaces.',
      },
    },
  },
  fields: {
    'Namespace id': { ru: 'Идентификатор пространства имён', uk: 'Ідентифікатор простору імен' },
    'Department that owns the namespace': {
      ru: 'Отдел, которому принадлежит пространство имён',
      uk: 'Відділ, якому належить простір імен',
    },
    'Department that will own the namespace (one of yours)': {
      ru: 'Отдел, которому будет принадлежать пространство имён (один из ваших)',
      uk: 'Відділ, якому належатиме простір імен (один із ваших)',
    },
    'Instructions given to the model before every conversation': {
      ru: 'Инструкции, которые модель получает перед каждым диалогом',
      uk: 'Інструкції, які модель отримує перед кожним діалогом',
    },
    'How the assistant speaks and what it refuses': {
      ru: 'Как говорит ассистент и от чего он отказывается',
      uk: 'Як говорить асистент і від чого він відмовляється',
    },
    'Language the assistant answers in, as a BCP 47 tag (uk, ru, en-GB)': {
      ru: 'Язык ответов ассистента в виде тега BCP 47 (uk, ru, en-GB)',
      uk: 'Мова відповідей асистента у вигляді тегу BCP 47 (uk, ru, en-GB)',
    },
    'From 0 (casual) to 1 (formal)': {
      ru: 'От 0 (непринуждённо) до 1 (официально)',
      uk: 'Від 0 (невимушено) до 1 (офіційно)',
    },
    'Free description of the tone': {
      ru: 'Свободное описание тона',
      uk: 'Довільний опис тону',
    },
    'Topics the assistant must not handle; a message on one is escalated': {
      ru: 'Темы, которыми ассистент не должен заниматься; сообщение на такую тему эскалируется',
      uk: 'Теми, якими асистент не повинен займатися; повідомлення на таку тему ескалюється',
    },
    'Slug of the role boundary escalations go to (an existing role; default dept_head)': {
      ru: 'Слаг роли, которой передаются эскалации по запретным темам (существующая роль; по умолчанию dept_head)',
      uk: 'Слаг ролі, якій передаються ескалації через заборонені теми (наявна роль; за замовчуванням dept_head)',
    },
    'Adapter that runs the pipeline: api, claude_code, codex_cli, gemini_cli': {
      ru: 'Адаптер, который выполняет конвейер: api, claude_code, codex_cli, gemini_cli',
      uk: 'Адаптер, який виконує конвеєр: api, claude_code, codex_cli, gemini_cli',
    },
    'Knowledge base of the namespace department': {
      ru: 'База знаний отдела этого пространства имён',
      uk: 'База знань відділу цього простору імен',
    },
    "Knowledge bases the assistant searches; unset means every base of the namespace's department": {
      ru: 'Базы знаний, в которых ищет ассистент; если не задано — все базы отдела пространства имён',
      uk: 'Бази знань, у яких шукає асистент; якщо не задано — усі бази відділу простору імен',
    },
    'language, style.formality, boundaries, escalateToRole': {
      ru: 'Поля language, style.formality, boundaries и escalateToRole',
      uk: 'Поля language, style.formality, boundaries і escalateToRole',
    },
    'agentRunner.activeAdapter, knowledgeBaseIds, trust, analytics, approvalSlaMinutes, holdingReply': {
      ru: 'Поля agentRunner.activeAdapter, knowledgeBaseIds, trust, analytics, approvalSlaMinutes и holdingReply',
      uk: 'Поля agentRunner.activeAdapter, knowledgeBaseIds, trust, analytics, approvalSlaMinutes і holdingReply',
    },
    // config.holdingReply (docs/approvals.md, Holding reply).
    'A message sent once to the employee while their reply waits for approval; null or unset sends none': {
      ru: 'Сообщение, которое сотрудник получает один раз, пока ответ ему ждёт согласования; null или без значения — не отправляется',
      uk: 'Повідомлення, яке працівник отримує один раз, поки відповідь йому чекає на погодження; null або без значення — не надсилається',
    },
    'Minutes a reply waits for approval before the employee is told a colleague is checking it': {
      ru: 'Сколько минут ответ ждёт согласования, прежде чем сотруднику сообщат, что его проверяет коллега',
      uk: 'Скільки хвилин відповідь чекає на погодження, перш ніж працівникові повідомлять, що її перевіряє колега',
    },
    'The wait the message promises, in minutes ({minutes}); unset uses approvalSlaMinutes': {
      ru: 'Обещанное в сообщении время ожидания в минутах ({minutes}); без значения берётся approvalSlaMinutes',
      uk: 'Обіцяний у повідомленні час очікування у хвилинах ({minutes}); без значення береться approvalSlaMinutes',
    },
    'The message per language, {minutes} standing for the promised wait; a language left out uses the default text':
      {
        ru: 'Текст сообщения для каждого языка, {minutes} заменяется обещанным временем ожидания; для языка без текста используется текст по умолчанию',
        uk: 'Текст повідомлення для кожної мови, {minutes} замінюється обіцяним часом очікування; для мови без тексту використовується типовий текст',
      },
    'The message in English': { ru: 'Сообщение на английском', uk: 'Повідомлення англійською' },
    'The message in Ukrainian': { ru: 'Сообщение на украинском', uk: 'Повідомлення українською' },
    'The message in Russian': { ru: 'Сообщение на русском', uk: 'Повідомлення російською' },
  },
  examples: {
    createNamespace: {
      request: {
        name: 'Customer support',
        departmentId: '48ea9081-5657-426a-80ea-12c82fbab599',
        systemPrompt: 'You answer customer questions politely, only from the knowledge base.',
        persona: {
          language: 'uk',
          style: { formality: 0.6, tone: 'Friendly and brief' },
          boundaries: ['Legal advice'],
          escalateToRole: 'dept_head',
        },
        config: { agentRunner: { activeAdapter: 'api' } },
      },
    },
    updateNamespace: {
      request: {
        config: {
          agentRunner: { activeAdapter: 'api' },
          approvalSlaMinutes: 60,
          holdingReply: {
            afterMinutes: 10,
            text: {
              en: 'A colleague is checking the answer to your question. Expect it within {minutes} minutes.',
              uk: 'Колега перевіряє відповідь на ваше запитання. Очікуйте її протягом {minutes} хв.',
              ru: 'Коллега проверяет ответ на ваш вопрос. Ожидайте его в течение {minutes} мин.',
            },
          },
        },
      },
    },
  },
};
