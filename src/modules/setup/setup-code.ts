import { createHash, randomInt } from 'node:crypto';

/** Letters and digits a person cannot misread (no 0/O, 1/I/L), for a code copied from a log. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const GROUPS = 3;
const GROUP_LENGTH = 4;

/** A fresh setup code, `XXXX-XXXX-XXXX` (about 59 bits), from the system's cryptographic source. */
export function newSetupCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/**
 * What is stored for a code: its SHA-256 over the normalised form, so a code
 * typed in lower case or without dashes still matches and the store never
 * holds the code itself.
 */
export function setupCodeHash(code: string): string {
  const normalised = code.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return createHash('sha256').update(normalised).digest('hex');
}
