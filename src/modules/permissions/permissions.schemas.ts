import { Type } from 'typebox';
import { PermissionName } from '../roles/roles.schemas.js';

const Localized = (description: string) =>
  Type.Object({ en: Type.String(), ru: Type.String(), uk: Type.String() }, { description });

export const PermissionCatalogResponse = Type.Object({
  groups: Type.Array(
    Type.Object({
      key: Type.String({ description: 'Group key, the same as the capability areas of GET /me' }),
      label: Localized('Group name'),
      permissions: Type.Array(
        Type.Object({
          key: PermissionName,
          group: Type.String({ description: 'Key of the group' }),
          label: Localized('Short name'),
          description: Localized('What the permission allows'),
        }),
      ),
    }),
  ),
});
