import { LANGUAGES, type Language, lang, t } from '../i18n';
import { chooseLanguage } from '../state/session';

const NAMES: Record<Language, string> = { en: 'English', uk: 'Українська', ru: 'Русский' };

/** The language choice of the sign-in and setup pages (the header has its own, compact one). */
export function LanguagePicker() {
  return (
    <label class="field inline">
      <span>{t('lang.label')}</span>
      <select value={lang.value} onChange={(e) => chooseLanguage(e.currentTarget.value as Language)}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
