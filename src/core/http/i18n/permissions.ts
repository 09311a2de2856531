import type { DocsArea } from './types.js';

export const permissionsDocs: DocsArea = {
  tags: {
    permissions: {
      en: 'The named permissions roles and overrides are made of',
      ru: 'Именованные права, из которых состоят роли и индивидуальные изменения',
      uk: 'Іменовані права, з яких складаються ролі та індивідуальні зміни',
    },
  },
  operations: {
    listPermissions: {
      en: {
        summary: 'List permissions',
        description:
          'All 19 permissions, grouped by area (the same areas as the capability flags of GET /me). Each has its group, key, and a label and description in English, Russian and Ukrainian. Any signed-in user.',
      },
      ru: {
        summary: 'Список прав',
        description:
          'Все 19 прав, сгруппированные по областям (тем же, что и флаги возможностей в GET /me). У каждого есть группа, ключ, название и описание на английском, русском и украинском. Доступно любому вошедшему пользователю.',
      },
      uk: {
        summary: 'Список прав',
        description:
          'Усі 19 прав, згруповані за областями (тими самими, що й прапорці можливостей у GET /me). Кожне має групу, ключ, назву й опис англійською, російською та українською. Доступно будь-якому користувачеві, що увійшов.',
      },
    },
  },
};
