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
  fields: {
    'Group key, the same as the capability areas of GET /me': {
      ru: 'Ключ группы, совпадает с областями флагов capabilities в GET /me',
      uk: 'Ключ групи, збігається з областями прапорців capabilities у GET /me',
    },
    'Group name': { ru: 'Название группы', uk: 'Назва групи' },
    'Key of the group': { ru: 'Ключ группы', uk: 'Ключ групи' },
    'Short name': { ru: 'Краткое название', uk: 'Коротка назва' },
    'What the permission allows': { ru: 'Что разрешает это право', uk: 'Що дозволяє це право' },
  },
  examples: {
    listPermissions: {
      response: {
        groups: [
          {
            key: 'approvals',
            label: { en: 'Approvals', ru: 'Утверждения', uk: 'Затвердження' },
            permissions: [
              {
                key: 'canApprove',
                group: 'approvals',
                label: { en: 'Approve replies', ru: 'Утверждать ответы', uk: 'Затверджувати відповіді' },
                description: {
                  en: 'Approve or reject assistant replies waiting for review',
                  ru: 'Утверждать или отклонять ответы ассистента, ожидающие проверки',
                  uk: 'Затверджувати або відхиляти відповіді асистента, що чекають на перевірку',
                },
              },
            ],
          },
        ],
      },
    },
  },
};
