/** The channels a sender can be linked on: chanA (WhatsApp Cloud API protocol) and chanB (Telegram Bot API protocol). */
export const LINK_CHANNELS = ['chanA', 'chanB'] as const;
export type LinkChannel = (typeof LINK_CHANNELS)[number];

/** en, uk or ru: a user's language, and the language of the texts written about linking. */
export const USER_LANGUAGES = ['en', 'uk', 'ru'] as const;
export type UserLanguage = (typeof USER_LANGUAGES)[number];

/**
 * The channel user id as stored, or null when it is not one: channel A
 * takes the WhatsApp id, E.164 digits (8 to 15, a leading + is dropped);
 * channel B the Telegram numeric user id (a positive integer). Pure.
 */
export function normaliseChannelUserId(channel: LinkChannel, raw: string): string | null {
  const value = raw.trim();
  if (channel === 'chanA') {
    const digits = value.replace(/^\+/, '');
    return /^[1-9][0-9]{7,14}$/.test(digits) ? digits : null;
  }
  return /^[1-9][0-9]{0,19}$/.test(value) ? value : null;
}

/** What a channel user id must look like, for a 422's message. */
export const CHANNEL_USER_ID_RULE: Record<LinkChannel, string> = {
  chanA: 'must be a WhatsApp id: 8 to 15 digits of an E.164 number, optionally after a +',
  chanB: 'must be a Telegram user id: a positive integer',
};
