import { UNKNOWN_INTENT } from './intent-vote.js';
import { EXAMPLE_TEXT_MAX, INTENT_NAME_MAX } from './intents.schemas.js';

/** A checked value, or what is wrong with it. */
export type Checked = { ok: true; value: string } | { ok: false; problem: string };

/** An intent name: trimmed, 1 to 100 characters, case kept; `unknown` is the classifier's answer, so reserved. */
export function checkIntentName(raw: string): Checked {
  const value = raw.trim();
  if (value.length === 0) return { ok: false, problem: 'must not be blank' };
  if (value.length > INTENT_NAME_MAX) {
    return { ok: false, problem: `must be at most ${INTENT_NAME_MAX} characters after trimming` };
  }
  if (value.toLowerCase() === UNKNOWN_INTENT) {
    return { ok: false, problem: `"${UNKNOWN_INTENT}" is reserved for messages that match no intent` };
  }
  return { ok: true, value };
}

/** An example phrase: trimmed, 1 to 2000 characters. Stored as trimmed; compared exactly. */
export function checkPhrase(raw: string): Checked {
  const value = raw.trim();
  if (value.length === 0) return { ok: false, problem: 'must not be blank' };
  if (value.length > EXAMPLE_TEXT_MAX) {
    return { ok: false, problem: `must be at most ${EXAMPLE_TEXT_MAX} characters after trimming` };
  }
  return { ok: true, value };
}
