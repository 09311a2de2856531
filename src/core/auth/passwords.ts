import { hash, verify } from '@node-rs/argon2';

/** 8 to 128 characters with at least one letter and one digit, everywhere a password is set. */
export const PASSWORD_RULE = {
  minLength: 8,
  maxLength: 128,
  /** Any Unicode letter, then any digit, in either order. */
  pattern: '^(?=.*\\p{L})(?=.*\\p{Nd}).*$',
  description: '8 to 128 characters, with at least one letter and one digit',
} as const;

const passwordPattern = new RegExp(PASSWORD_RULE.pattern, 'u');

export function isAcceptablePassword(password: string): boolean {
  return (
    password.length >= PASSWORD_RULE.minLength &&
    password.length <= PASSWORD_RULE.maxLength &&
    passwordPattern.test(password)
  );
}

/** argon2id with the library's defaults (argon2id is its default algorithm). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** A missing hash (a user created from a channel) never verifies. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
