import { signal } from '@preact/signals';
import { en, type MessageKey, type Messages } from './en';

export type { MessageKey };

import { ru } from './ru';
import { uk } from './uk';

export const LANGUAGES = ['en', 'uk', 'ru'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'console.lang';
const dictionaries: Record<Language, Messages> = { en, uk, ru };

const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The remembered choice, else the browser's language when we have it, else English. */
function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  const browser = navigator.language.slice(0, 2);
  return isLanguage(browser) ? browser : 'en';
}

export const lang = signal<Language>(initialLanguage());

export function setLanguage(next: Language): void {
  lang.value = next;
  localStorage.setItem(STORAGE_KEY, next);
}

/** The label `key` in the current language, with `{name}` placeholders filled from `vars`. */
export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  const text = dictionaries[lang.value][key] ?? en[key];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => String(vars[name] ?? whole));
}

/** A label for a value the API sends (a reason type, a status) when there is one; else `fallback`. */
export function label(prefix: string, value: string, fallback = value): string {
  const key = `${prefix}.${value}` as MessageKey;
  return key in en ? t(key) : fallback;
}

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(lang.value, { dateStyle: 'short', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

export function formatNumber(value: number, digits = 2): string {
  return new Intl.NumberFormat(lang.value, { maximumFractionDigits: digits }).format(value);
}

export function formatPercent(value: number): string {
  return new Intl.NumberFormat(lang.value, { style: 'percent', maximumFractionDigits: 0 }).format(value);
}

/** How long something has waited, in its largest whole unit: `45 sec`, `12 min`, `3 hr`, `2 days`. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const [value, unit] =
    seconds < 60
      ? [seconds, 'second']
      : seconds < 3600
        ? [Math.floor(seconds / 60), 'minute']
        : seconds < 86_400
          ? [Math.floor(seconds / 3600), 'hour']
          : [Math.floor(seconds / 86_400), 'day'];
  return new Intl.NumberFormat(lang.value, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
}
