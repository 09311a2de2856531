import { Type } from 'typebox';
import { PASSWORD_RULE } from '../../core/auth/passwords.js';
import { Uuid } from '../../core/http/schemas.js';

export const Email = Type.String({ format: 'email', maxLength: 254, description: 'Email address' });

/** A password being set: DECISIONS.md's rule, enforced at validation so the 422 names the field. */
export const NewPassword = (description = `New password: ${PASSWORD_RULE.description}`) =>
  Type.String({
    minLength: PASSWORD_RULE.minLength,
    maxLength: PASSWORD_RULE.maxLength,
    pattern: PASSWORD_RULE.pattern,
    description,
    errorMessage: `must be ${PASSWORD_RULE.minLength} to ${PASSWORD_RULE.maxLength} characters with at least one letter and one digit`,
  });

/** A password being checked: any length the rule allows setting, no pattern (older passwords still log in). */
export const CurrentPassword = Type.String({
  minLength: 1,
  maxLength: PASSWORD_RULE.maxLength,
  description: 'Password',
});

export const AuthUser = Type.Object({
  id: Uuid('User id'),
  email: Type.String(),
  name: Type.String(),
  role: Type.String({ description: 'Role slug' }),
  departmentId: Uuid('Primary department'),
});

export const TokenResponse = Type.Object({ token: Type.String({ description: 'JWT bearer token' }) });

export const AuthResponse = Type.Object({
  token: Type.String({ description: 'JWT bearer token' }),
  user: AuthUser,
});

// Extra properties are dropped, not refused: a client-supplied `role` is ignored (SPEC.md, register).
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
