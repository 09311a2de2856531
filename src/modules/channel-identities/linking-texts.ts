import type { UserLanguage } from './channel-user-id.js';

/** What the service writes to a sender about linking, without the assistant. */
export type LinkingText =
  | 'linked'
  | 'already_linked'
  | 'invalid_code'
  | 'held'
  | 'throttled'
  | 'instructions';

const TEXTS: Record<LinkingText, Record<UserLanguage, string>> = {
  linked: {
    en: 'Done: this account is now linked to your employee account. Write your question as a message.',
    uk: 'Готово: цей обліковий запис тепер пов’язано з вашим обліковим записом працівника. Напишіть своє запитання повідомленням.',
    ru: 'Готово: эта учётная запись теперь связана с вашей учётной записью сотрудника. Напишите свой вопрос сообщением.',
  },
  already_linked: {
    en: 'This account is already linked to your employee account. Write your question as a message.',
    uk: 'Цей обліковий запис уже пов’язано з вашим обліковим записом працівника. Напишіть своє запитання повідомленням.',
    ru: 'Эта учётная запись уже связана с вашей учётной записью сотрудника. Напишите свой вопрос сообщением.',
  },
  invalid_code: {
    en: 'This link code is wrong, expired or already used. Create a new code in the console (your profile) and send it within 15 minutes.',
    uk: 'Цей код прив’язки неправильний, прострочений або вже використаний. Створіть новий код у консолі (ваш профіль) і надішліть його протягом 15 хвилин.',
    ru: 'Этот код привязки неверный, просрочен или уже использован. Создайте новый код в консоли (ваш профиль) и отправьте его в течение 15 минут.',
  },
  held: {
    en: 'This account is linked to another employee. Ask an administrator to change the link.',
    uk: 'Цей обліковий запис пов’язано з іншим працівником. Попросіть адміністратора змінити прив’язку.',
    ru: 'Эта учётная запись связана с другим сотрудником. Попросите администратора изменить привязку.',
  },
  throttled: {
    en: 'Too many wrong link codes. Please try again later.',
    uk: 'Забагато неправильних кодів прив’язки. Спробуйте пізніше.',
    ru: 'Слишком много неверных кодов привязки. Попробуйте позже.',
  },
  instructions: {
    en: 'This assistant answers employees only, and this account is not linked to one yet. Sign in to the company console, open your profile, create a link code for this messenger and send the code here (or open the link shown beside it). An administrator can also link this account for you.',
    uk: 'Цей асистент відповідає лише працівникам, а цей обліковий запис ще не пов’язано з працівником. Увійдіть у консоль компанії, відкрийте свій профіль, створіть код прив’язки для цього месенджера й надішліть код сюди (або відкрийте посилання поруч із ним). Адміністратор також може пов’язати цей обліковий запис за вас.',
    ru: 'Этот ассистент отвечает только сотрудникам, а эта учётная запись ещё не связана с сотрудником. Войдите в консоль компании, откройте свой профиль, создайте код привязки для этого мессенджера и отправьте код сюда (или откройте ссылку рядом с ним). Администратор также может связать эту учётную запись за вас.',
  },
};

/** The text in the language given (plain text, valid as the Markdown replies are written in). */
export function linkingText(text: LinkingText, language: UserLanguage): string {
  return TEXTS[text][language];
}
