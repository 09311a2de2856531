import { Type } from 'typebox';
import { PASSWORD_RULE } from '../auth/passwords.js';

/**
 * Fields about people that several areas share (auth, users, me): the
 * schemas of an email and of a password being set or checked, and the public
 * address of a user's avatar.
 */

export const Email = Type.String({ format: 'email', maxLength: 254, description: 'Email address' });

/** A password being set: 8 to 128 characters with a letter and a digit, enforced at validation so the 422 names the field. */
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

/** Where avatars are served from (static files, public by design: the file name is unguessable). */
export const AVATAR_URL_PREFIX = '/static/avatars/';

/** The avatar's public path, versioned by the user's last update so clients refetch a new one; null when none. */
export function avatarUrl(user: { avatarFile: string | null; updatedAt: Date }): string | null {
  return user.avatarFile ? `${AVATAR_URL_PREFIX}${user.avatarFile}?v=${user.updatedAt.getTime()}` : null;
}
