import { type NotificationLanguage, notificationLanguage } from '../notifications/notification-texts.js';

export type ChatLanguage = NotificationLanguage;
export { notificationLanguage as chatLanguage };

/** Short words for each reason a reply went to a human (the pipeline's HITL triggers). */
const REASONS: Record<string, Record<ChatLanguage, string>> = {
  low_confidence: { en: 'low confidence', uk: 'низька впевненість', ru: 'низкая уверенность' },
  trigger_word: { en: 'trigger word', uk: 'слово-тригер', ru: 'слово-триггер' },
  first_interaction: { en: 'first question', uk: 'перше запитання', ru: 'первый вопрос' },
  unknown_intent: { en: 'unknown topic', uk: 'невідома тема', ru: 'неизвестная тема' },
  not_autonomous: { en: 'trust not earned yet', uk: 'довіру ще не здобуто', ru: 'доверие ещё не заработано' },
  sampled: { en: 'spot check', uk: 'вибіркова перевірка', ru: 'выборочная проверка' },
  injection: { en: 'suspected injection', uk: 'підозра на ін’єкцію', ru: 'подозрение на инъекцию' },
  persona_boundary: { en: 'off-limits topic', uk: 'заборонена тема', ru: 'запретная тема' },
  plugin: { en: 'held by a plugin', uk: 'затримано плагіном', ru: 'задержано плагином' },
};

/** At most this much of the question and of the draft goes into a request (the platforms' limits). */
const QUOTE_LIMIT = 700;

function quote(text: string): string {
  const flat = text.trim();
  return flat.length > QUOTE_LIMIT ? `${flat.slice(0, QUOTE_LIMIT - 1)}…` : flat;
}

/** `10:42` in UTC: the chat texts name no time zone the platforms would convert. */
function clock(date: Date): string {
  return `${date.toISOString().slice(11, 16)} UTC`;
}

const T = {
  en: {
    request: 'Approval needed',
    from: 'From',
    question: 'Question',
    draft: 'Draft reply',
    reasons: 'Why',
    confidence: 'Confidence',
    approve: 'Approve',
    edit: 'Edit',
    reject: 'Reject',
    escalate: 'Escalate',
    more: 'More…',
    choose: 'Choose',
    moreText: 'What would you like to do with this reply?',
    escalateTo: 'Escalate to whom?',
    nobodyToEscalate: 'No other approver of this department can take it.',
    askEdit: 'Send the new text of the reply as your next message (within 15 minutes). /cancel to stop.',
    askReason:
      'Send the reason for rejecting as your next message (within 15 minutes), /skip to reject without one, /cancel to stop.',
    cancelled: 'Cancelled. The request is still open.',
    approved: (by: string, at: Date) => `✅ Approved by ${by} at ${clock(at)}`,
    edited: (by: string, at: Date) => `✏️ Approved with edits by ${by} at ${clock(at)}`,
    rejected: (by: string, at: Date) => `❌ Rejected by ${by} at ${clock(at)}`,
    escalated: (to: string) => `↗️ Escalated to ${to}`,
    alreadyDecided: (outcome: string) => `Already decided: ${outcome}`,
    someone: 'someone',
    invalid: 'This button is not valid.',
    gone: 'This approval no longer exists.',
    foreign: 'This request was sent to someone else.',
    notAllowed: 'You may no longer decide this approval.',
    failed: 'That did not work; try again or use the console.',
    digest: (count: number, link: string | null) =>
      `${count} more ${count === 1 ? 'reply waits' : 'replies wait'} for your approval.${link ? ` Open the console: ${link}` : ' Open the console to decide them.'}`,
  },
  uk: {
    request: 'Потрібне погодження',
    from: 'Від',
    question: 'Запитання',
    draft: 'Чернетка відповіді',
    reasons: 'Чому',
    confidence: 'Впевненість',
    approve: 'Погодити',
    edit: 'Змінити',
    reject: 'Відхилити',
    escalate: 'Передати',
    more: 'Ще…',
    choose: 'Вибрати',
    moreText: 'Що зробити з цією відповіддю?',
    escalateTo: 'Кому передати?',
    nobodyToEscalate: 'Ніхто інший у цьому відділі не може її погодити.',
    askEdit:
      'Надішліть новий текст відповіді наступним повідомленням (протягом 15 хвилин). /cancel — скасувати.',
    askReason:
      'Надішліть причину відхилення наступним повідомленням (протягом 15 хвилин), /skip — відхилити без причини, /cancel — скасувати.',
    cancelled: 'Скасовано. Запит і далі відкритий.',
    approved: (by: string, at: Date) => `✅ Погоджено: ${by}, ${clock(at)}`,
    edited: (by: string, at: Date) => `✏️ Погоджено зі змінами: ${by}, ${clock(at)}`,
    rejected: (by: string, at: Date) => `❌ Відхилено: ${by}, ${clock(at)}`,
    escalated: (to: string) => `↗️ Передано: ${to}`,
    alreadyDecided: (outcome: string) => `Уже вирішено: ${outcome}`,
    someone: 'хтось',
    invalid: 'Ця кнопка недійсна.',
    gone: 'Цього погодження більше немає.',
    foreign: 'Цей запит надіслано іншій людині.',
    notAllowed: 'Ви більше не можете вирішувати це погодження.',
    failed: 'Не вдалося; спробуйте ще раз або скористайтеся консоллю.',
    digest: (count: number, link: string | null) =>
      `Ще відповідей чекають на ваше погодження: ${count}.${link ? ` Відкрийте консоль: ${link}` : ' Відкрийте консоль, щоб їх вирішити.'}`,
  },
  ru: {
    request: 'Нужно согласование',
    from: 'От',
    question: 'Вопрос',
    draft: 'Черновик ответа',
    reasons: 'Почему',
    confidence: 'Уверенность',
    approve: 'Согласовать',
    edit: 'Изменить',
    reject: 'Отклонить',
    escalate: 'Передать',
    more: 'Ещё…',
    choose: 'Выбрать',
    moreText: 'Что сделать с этим ответом?',
    escalateTo: 'Кому передать?',
    nobodyToEscalate: 'Никто другой в этом отделе не может его согласовать.',
    askEdit: 'Пришлите новый текст ответа следующим сообщением (в течение 15 минут). /cancel — отменить.',
    askReason:
      'Пришлите причину отклонения следующим сообщением (в течение 15 минут), /skip — отклонить без причины, /cancel — отменить.',
    cancelled: 'Отменено. Запрос по-прежнему открыт.',
    approved: (by: string, at: Date) => `✅ Согласовано: ${by}, ${clock(at)}`,
    edited: (by: string, at: Date) => `✏️ Согласовано с правками: ${by}, ${clock(at)}`,
    rejected: (by: string, at: Date) => `❌ Отклонено: ${by}, ${clock(at)}`,
    escalated: (to: string) => `↗️ Передано: ${to}`,
    alreadyDecided: (outcome: string) => `Уже решено: ${outcome}`,
    someone: 'кто-то',
    invalid: 'Эта кнопка недействительна.',
    gone: 'Этого согласования больше нет.',
    foreign: 'Этот запрос отправлен другому человеку.',
    notAllowed: 'Вы больше не можете решать это согласование.',
    failed: 'Не получилось; попробуйте ещё раз или воспользуйтесь консолью.',
    digest: (count: number, link: string | null) =>
      `Ещё ответов ждут вашего согласования: ${count}.${link ? ` Откройте консоль: ${link}` : ' Откройте консоль, чтобы их решить.'}`,
  },
} as const;

/** Every text chat approvals write, in the recipient's language. */
export function chatTexts(language: ChatLanguage) {
  return T[language];
}

export type ChatTexts = ReturnType<typeof chatTexts>;

/** The request's text: who asks, the question, the draft, the reasons in short words, the confidence in %. */
export function requestText(
  language: ChatLanguage,
  input: {
    employeeName: string;
    question: string | null;
    draft: string;
    triggers: ReadonlyArray<{ type: string }>;
    confidence: number;
  },
): string {
  const t = T[language];
  const reasons = [...new Set(input.triggers.map((r) => REASONS[r.type]?.[language] ?? r.type))];
  const lines = [
    `📝 ${t.request}`,
    `${t.from}: ${input.employeeName}`,
    ...(input.question ? [`${t.question}: ${quote(input.question)}`] : []),
    `${t.draft}: ${quote(input.draft)}`,
    ...(reasons.length > 0 ? [`${t.reasons}: ${reasons.join(', ')}`] : []),
    `${t.confidence}: ${Math.round(Math.max(0, Math.min(1, input.confidence)) * 100)}%`,
  ];
  return lines.join('\n');
}

/** What happened to an approval, as its copies show it; null while it still waits for a decision. */
export function outcomeText(
  language: ChatLanguage,
  approval: { status: string; decidedAt: Date | null; updatedAt: Date },
  names: { decidedBy: string | null; escalatedTo: string | null },
): string | null {
  const t = T[language];
  const by = names.decidedBy ?? t.someone;
  const at = approval.decidedAt ?? approval.updatedAt;
  if (approval.status === 'approved') return t.approved(by, at);
  if (approval.status === 'edited') return t.edited(by, at);
  if (approval.status === 'rejected') return t.rejected(by, at);
  if (approval.status === 'escalated' && names.escalatedTo) return t.escalated(names.escalatedTo);
  return null;
}
