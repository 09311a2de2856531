import { Type } from 'typebox';
import { DateTime } from '../../core/http/schemas.js';

export const QueueBoardSession = Type.Object({
  path: Type.String({ description: 'Where the dashboard is; open it in the same browser' }),
  expiresAt: DateTime('When the dashboard session cookie expires'),
});
