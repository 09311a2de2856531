import { createHash, randomInt } from 'node:crypto';

/** Crockford's base32: digits and letters without I, L, O and U, so a code read aloud or retyped stays one code. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const LINK_CODE_LENGTH = 8;
/** How long a link code is valid. */
export const LINK_CODE_TTL_MS = 15 * 60_000;

/**
 * A new link code: 8 characters of Crockford's base32 with at least one
 * letter and one digit from 2 to 9, so a word typed as a message is never
 * taken for a code (channel A reads a message that is only a code as a link
 * attempt), even when 0 or 1 is typed as O, I or L. Valid as a Telegram
 * start parameter.
 */
export function generateLinkCode(): string {
  for (;;) {
    let code = '';
    for (let i = 0; i < LINK_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
    if (/[2-9]/.test(code) && /[A-Z]/.test(code)) return code;
  }
}

/**
 * The code a text is, or null: 8 characters of the code alphabet, any case,
 * with O read as 0 and I or L as 1 (Crockford's decoding), holding a letter
 * and, as typed, a digit (so no word, such as "vacation", reads as a code). Pure.
 */
export function parseLinkCode(text: string): string | null {
  const typed = text.trim().toUpperCase();
  if (typed.length !== LINK_CODE_LENGTH || !/[0-9]/.test(typed) || !/[A-Z]/.test(typed)) return null;
  const code = typed.replace(/O/g, '0').replace(/[IL]/g, '1');
  return [...code].every((c) => ALPHABET.includes(c)) ? code : null;
}

/**
 * The code a linking message carries, or null: `/start <code>` (a Telegram
 * deep link opens the chat with it; also addressed as `/start@bot`), or with
 * `bare` the message that is only a code (channel A). Whatever follows
 * `/start` is a link attempt, even when it is not a well-formed code (answered
 * as a wrong code), so `attempt` is true then. Pure.
 */
export function linkCodeOf(
  text: string,
  options: { bare: boolean },
): { attempt: boolean; code: string | null } {
  const start = /^\/start(?:@\w+)?\s+(\S+)\s*$/.exec(text.trim());
  if (start) return { attempt: true, code: parseLinkCode(start[1] ?? '') };
  if (options.bare) {
    const code = parseLinkCode(text);
    if (code) return { attempt: true, code };
  }
  return { attempt: false, code: null };
}

/** What is stored for a code: its SHA-256, never the code. */
export function hashLinkCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}
