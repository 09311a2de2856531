/**
 * One screen's labels in the three languages, kept together in its own file
 * (`areas/<area>.ts`): English decides the keys, and Ukrainian and Russian
 * must have each of them (the type says so). en.ts, uk.ts and ru.ts merge
 * every area into their dictionary.
 */
export interface AreaMessages<E extends Record<string, string>> {
  en: E;
  uk: Record<keyof E, string>;
  ru: Record<keyof E, string>;
}

export function area<E extends Record<string, string>>(messages: AreaMessages<E>): AreaMessages<E> {
  return messages;
}
