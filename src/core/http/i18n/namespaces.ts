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
};
