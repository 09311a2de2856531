import type { DocsArea } from './types.js';

/** The rating of assistant replies (modules/feedback); its route lives under the conversations tag. */
export const feedbackDocs: DocsArea = {
  tags: {},
  operations: {
    rateWebReply: {
      en: {
        summary: 'Rate an assistant reply',
        description:
          'Rates an assistant reply of your own web conversation up or down, with an optional comment of up to 2000 characters. One rating per reply and person: rating again replaces the earlier rating (and comment). Answers 200 with messageId, rating, comment and updatedAt. Any other message (an inbound one, a reply of someone else’s conversation, a missing id) answers 404. A "down" notifies the department’s approvers and, on a reply sent without review, counts against its intent’s trust in the confidence mode.',
      },
      ru: {
        summary: 'Оценить ответ ассистента',
        description:
          'Оценивает ответ ассистента в вашем собственном веб-диалоге как хороший (up) или плохой (down), с необязательным комментарием до 2000 символов. Одна оценка на ответ и человека: повторная оценка заменяет прежнюю (вместе с комментарием). Ответ 200 с messageId, rating, comment и updatedAt. Любое другое сообщение (входящее, ответ в чужом диалоге, несуществующий идентификатор) даёт ответ 404. Оценка down уведомляет утверждающих отдела, а для ответа, отправленного без проверки, в режиме confidence учитывается против доверия к его намерению.',
      },
      uk: {
        summary: 'Оцінити відповідь асистента',
        description:
          'Оцінює відповідь асистента у вашому власному веб-діалозі як добру (up) або погану (down), з необов’язковим коментарем до 2000 символів. Одна оцінка на відповідь і людину: повторна оцінка замінює попередню (разом із коментарем). Відповідь 200 з messageId, rating, comment і updatedAt. Будь-яке інше повідомлення (вхідне, відповідь у чужому діалозі, неіснуючий ідентифікатор) дає відповідь 404. Оцінка down сповіщає затверджувачів відділу, а для відповіді, надісланої без перевірки, у режимі confidence враховується проти довіри до її наміру.',
      },
    },
  },
  fields: {
    'up (a good answer) or down (a bad one)': {
      ru: 'up (хороший ответ) или down (плохой)',
      uk: 'up (добра відповідь) або down (погана)',
    },
    'What was good or wrong about the reply (1-2000 characters)': {
      ru: 'Что в ответе было хорошо или не так (1–2000 символов)',
      uk: 'Що у відповіді було добре чи не так (1–2000 символів)',
    },
    'The rated reply': { ru: 'Оценённый ответ', uk: 'Оцінена відповідь' },
    'Your comment, null when none': {
      ru: 'Ваш комментарий; null, если его нет',
      uk: 'Ваш коментар; null, якщо його немає',
    },
    'When the rating was last given': {
      ru: 'Когда оценка была дана в последний раз',
      uk: 'Коли оцінку було дано востаннє',
    },
    'Employee who rated the reply': {
      ru: 'Сотрудник, оценивший ответ',
      uk: 'Працівник, що оцінив відповідь',
    },
    'The employee’s comment, null when none': {
      ru: 'Комментарий сотрудника; null, если его нет',
      uk: 'Коментар працівника; null, якщо його немає',
    },
    'Where the rating was given: web, chanA or chanB': {
      ru: 'Где дана оценка: web, chanA или chanB',
      uk: 'Де дано оцінку: web, chanA або chanB',
    },
    'How employees rated the reply this approval released; empty when nobody did': {
      ru: 'Как сотрудники оценили ответ, выпущенный этим одобрением; пусто, если никто не оценил',
      uk: 'Як працівники оцінили відповідь, випущену цим схваленням; порожньо, якщо ніхто не оцінив',
    },
  },
};
