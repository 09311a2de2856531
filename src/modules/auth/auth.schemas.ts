import { Type } from 'typebox';
import { Uuid } from '../../core/http/schemas.js';
import { CurrentPassword, Email, NewPassword } from '../../core/http/user-fields.js';

export const AuthUser = Type.Object({
  id: Uuid('User id'),
  email: Type.String(),
  name: Type.String(),
  role: Type.String({ description: 'Role slug' }),
  departmentId: Uuid('Primary department'),
});

export const AuthResponse = Type.Object({
  token: Type.String({ description: 'JWT bearer token' }),
  user: AuthUser,
});

// Extra properties are dropped, not refused: a client-supplied `role` is ignored (registration always makes an employee).
export const RegisterBody = Type.Object(
  {
    email: Email,
    password: NewPassword('Password: 8 to 128 characters, with at least one letter and one digit'),
    name: Type.String({ minLength: 1, maxLength: 200, description: 'Display name' }),
    departmentId: Uuid('Department the user joins'),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object(
  {
    email: Type.String({ minLength: 1, maxLength: 254, description: 'Email address' }),
    password: CurrentPassword,
  },
  { additionalProperties: false },
);

export const ForgotPasswordBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 254, description: 'Email address of the account' }) },
  { additionalProperties: false },
);

export const ResetPasswordBody = Type.Object(
  {
    token: Type.String({ minLength: 16, maxLength: 200, description: 'Reset token from forgot-password' }),
    newPassword: NewPassword(),
  },
  { additionalProperties: false },
);
