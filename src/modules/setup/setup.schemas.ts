import { Type } from 'typebox';
import { Email, NewPassword } from '../../core/http/user-fields.js';

export const SetupStatus = Type.Object({
  needed: Type.Boolean({
    description: 'True while no account that can sign in exists: the setup page is the way in',
  }),
});

export const SetupBody = Type.Object(
  {
    setupCode: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The setup code the service printed in its log at start',
    }),
    email: Email,
    password: NewPassword('Password: 8 to 128 characters, with at least one letter and one digit'),
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Display name' }),
  },
  { additionalProperties: false },
);
