import type { DocsArea } from './types.js';

export const meDocs: DocsArea = {
  tags: {
    me: {
      en: 'The signed-in user',
      ru: 'Текущий пользователь',
      uk: 'Поточний користувач',
    },
  },
  operations: {
    getMe: {
      en: {
        summary: 'Get the current user',
        description:
          'Returns the signed-in user with their department, profile summary, role, effective permissions and departments, and one capability flag per permission area for building a UI.',
      },
      ru: {
        summary: 'Получить текущего пользователя',
        description:
          'Возвращает вошедшего пользователя с его отделом, кратким профилем, ролью, итоговыми правами и отделами, а также флагом возможностей для каждой области прав, чтобы строить интерфейс.',
      },
      uk: {
        summary: 'Отримати поточного користувача',
        description:
          'Повертає користувача, який увійшов, з його відділом, коротким профілем, роллю, підсумковими правами й відділами, а також прапорцем можливостей для кожної області прав, щоб будувати інтерфейс.',
      },
    },
    changePassword: {
      en: {
        summary: 'Change the password',
        description:
          'Checks the current password, sets the new one and returns a fresh token. Every earlier token stops working and open WebSocket sessions are closed.',
      },
      ru: {
        summary: 'Сменить пароль',
        description:
          'Проверяет текущий пароль, устанавливает новый и возвращает свежий токен. Все прежние токены перестают действовать, открытые WebSocket-сессии закрываются.',
      },
      uk: {
        summary: 'Змінити пароль',
        description:
          'Перевіряє поточний пароль, встановлює новий і повертає свіжий токен. Усі попередні токени перестають діяти, відкриті WebSocket-сесії закриваються.',
      },
    },
    logoutAll: {
      en: {
        summary: 'Log out everywhere',
        description:
          'Invalidates every token of the current user, this one included, and closes their WebSocket sessions.',
      },
      ru: {
        summary: 'Выйти на всех устройствах',
        description:
          'Делает недействительными все токены текущего пользователя, включая этот, и закрывает его WebSocket-сессии.',
      },
      uk: {
        summary: 'Вийти на всіх пристроях',
        description:
          'Робить недійсними всі токени поточного користувача, зокрема цей, і закриває його WebSocket-сесії.',
      },
    },
    uploadAvatar: {
      en: {
        summary: 'Upload an avatar',
        description:
          'Multipart upload of one image: PNG, JPEG or WebP, at most 2 MB. The type is decided by the file content, not its name. The image is decoded in an isolated process and stored re-encoded as PNG (at most 512 px on its longest side); a file that cannot be decoded, or is over DECODER_MAX_PIXELS, answers 422. Replaces any earlier avatar; the image is served under /static/avatars/.',
      },
      ru: {
        summary: 'Загрузить аватар',
        description:
          'Загрузка одного изображения в формате multipart: PNG, JPEG или WebP, не больше 2 МБ. Тип определяется по содержимому файла, а не по имени. Изображение декодируется в отдельном процессе и сохраняется заново закодированным в PNG (не больше 512 пикселей по длинной стороне); файл, который не удаётся декодировать или который больше DECODER_MAX_PIXELS, получает 422. Заменяет прежний аватар; изображение доступно по пути /static/avatars/.',
      },
      uk: {
        summary: 'Завантажити аватар',
        description:
          'Завантаження одного зображення у форматі multipart: PNG, JPEG або WebP, не більше 2 МБ. Тип визначається за вмістом файлу, а не за назвою. Зображення декодується в окремому процесі й зберігається наново закодованим у PNG (не більше 512 пікселів за довшою стороною); файл, який не вдається декодувати або який більший за DECODER_MAX_PIXELS, отримує 422. Замінює попередній аватар; зображення доступне за шляхом /static/avatars/.',
      },
    },
    deleteAvatar: {
      en: {
        summary: 'Delete the avatar',
        description: 'Removes the current user’s avatar image. Succeeds also when there is none.',
      },
      ru: {
        summary: 'Удалить аватар',
        description: 'Удаляет аватар текущего пользователя. Выполняется успешно и тогда, когда аватара нет.',
      },
      uk: {
        summary: 'Видалити аватар',
        description: 'Видаляє аватар поточного користувача. Виконується успішно й тоді, коли аватара немає.',
      },
    },
  },
  fields: {
    'Role id': { ru: 'Идентификатор роли', uk: 'Ідентифікатор ролі' },
    'Permission name': { ru: 'Название права', uk: 'Назва права' },
    'Path of the avatar image, null when none': {
      ru: 'Путь к изображению аватара; null, если его нет',
      uk: 'Шлях до зображення аватара; null, якщо його немає',
    },
    'The role covers every department': {
      ru: 'Роль распространяется на все отделы',
      uk: 'Роль поширюється на всі відділи',
    },
    'One boolean per permission area, for showing or hiding parts of a UI': {
      ru: 'По одному логическому флагу на каждую область прав, чтобы показывать или скрывать части интерфейса',
      uk: 'По одному логічному прапорцю на кожну область прав, щоб показувати або приховувати частини інтерфейсу',
    },
    'Holds any of: canApprove, canEscalate': {
      ru: 'Есть хотя бы одно из прав: canApprove, canEscalate',
      uk: 'Має хоча б одне з прав: canApprove, canEscalate',
    },
    'Holds any of: canViewKnowledge, canUploadDocuments, canDeleteDocuments': {
      ru: 'Есть хотя бы одно из прав: canViewKnowledge, canUploadDocuments, canDeleteDocuments',
      uk: 'Має хоча б одне з прав: canViewKnowledge, canUploadDocuments, canDeleteDocuments',
    },
    'Holds any of: canManageNamespaces, canManagePlugins': {
      ru: 'Есть хотя бы одно из прав: canManageNamespaces, canManagePlugins',
      uk: 'Має хоча б одне з прав: canManageNamespaces, canManagePlugins',
    },
    'Holds any of: canManageDepartments, canArchiveDepartments': {
      ru: 'Есть хотя бы одно из прав: canManageDepartments, canArchiveDepartments',
      uk: 'Має хоча б одне з прав: canManageDepartments, canArchiveDepartments',
    },
    'Holds any of: canViewAllUsers, canCreateUsers, canManageUsers': {
      ru: 'Есть хотя бы одно из прав: canViewAllUsers, canCreateUsers, canManageUsers',
      uk: 'Має хоча б одне з прав: canViewAllUsers, canCreateUsers, canManageUsers',
    },
    'Holds any of: canManageEmployeeProfiles': {
      ru: 'Есть право canManageEmployeeProfiles',
      uk: 'Має право canManageEmployeeProfiles',
    },
    'Holds any of: canViewRoles, canManageRoles': {
      ru: 'Есть хотя бы одно из прав: canViewRoles, canManageRoles',
      uk: 'Має хоча б одне з прав: canViewRoles, canManageRoles',
    },
    'Holds any of: canViewAudit': { ru: 'Есть право canViewAudit', uk: 'Має право canViewAudit' },
    'Holds any of: canManageTemplates, canGenerateDocuments': {
      ru: 'Есть хотя бы одно из прав: canManageTemplates, canGenerateDocuments',
      uk: 'Має хоча б одне з прав: canManageTemplates, canGenerateDocuments',
    },
    'Holds any of: canEditSettings': { ru: 'Есть право canEditSettings', uk: 'Має право canEditSettings' },
    'Path of the stored avatar, with a version query for caches': {
      ru: 'Путь к сохранённому аватару с параметром версии для кэшей',
      uk: 'Шлях до збереженого аватара з параметром версії для кешів',
    },
  },
  responses: {
    changePassword: {
      401: {
        en: 'Not signed in, or the current password is wrong',
        ru: 'Вход не выполнен или текущий пароль неверен',
        uk: 'Вхід не виконано або поточний пароль неправильний',
      },
    },
    uploadAvatar: {
      413: {
        en: 'The image is larger than 2 MB',
        ru: 'Изображение больше 2 МБ',
        uk: 'Зображення більше за 2 МБ',
      },
      415: {
        en: 'The file is not a PNG, JPEG or WebP image',
        ru: 'Файл не является изображением PNG, JPEG или WebP',
        uk: 'Файл не є зображенням PNG, JPEG або WebP',
      },
      422: { en: 'No file was sent', ru: 'Файл не передан', uk: 'Файл не надіслано' },
    },
  },
};
