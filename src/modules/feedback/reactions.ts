import type { Rating } from './feedback.service.js';

const THUMBS_UP = '\u{1F44D}';
const THUMBS_DOWN = '\u{1F44E}';
/** An emoji's skin-tone modifiers (U+1F3FB to U+1F3FF) and the emoji presentation selector. */
const MODIFIERS = /[\u{1F3FB}-\u{1F3FF}\uFE0F]/gu;

/**
 * What a platform reaction says about a reply: 👍 up, 👎 down (any skin tone alike), no emoji
 * (the reaction was removed) null; any other emoji `undefined`, meaning it says nothing. Pure.
 */
export function ratingOfEmoji(emoji: string | null | undefined): Rating | null | undefined {
  const bare = (emoji ?? '').replace(MODIFIERS, '').trim();
  if (bare === '') return null;
  if (bare === THUMBS_UP) return 'up';
  if (bare === THUMBS_DOWN) return 'down';
  return undefined;
}
