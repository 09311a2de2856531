import { describe, expect, it } from 'vitest';
import {
  createExtractiveResponder,
  guessLanguage,
  MIN_ANSWER_SCORE,
  splitSentences,
} from './extractive-responder.js';

const responder = createExtractiveResponder();

describe('extractive responder', () => {
  it('answers with the passage sentences that share the most words with the question', async () => {
    const result = await responder.complete({
      messages: [{ role: 'user', content: 'How many vacation days do employees get?' }],
      passages: [
        {
          id: 'a',
          title: 'Leave policy',
          content: 'The office opens at nine. Employees get 24 vacation days per year. Parking is free.',
          score: 0.8,
        },
        { id: 'b', title: 'Canteen', content: 'Lunch is served from noon.', score: 0.3 },
      ],
    });
    expect(result.text).toContain('Employees get 24 vacation days per year.');
    expect(result.text).toContain('Sources: Leave policy');
    expect(result).toMatchObject({ provider: 'offline', model: 'extractive' });
    expect(result.usage.totalTokens).toBe(result.usage.inputTokens + result.usage.outputTokens);
  });

  it('says nothing was found, in the question language, without passages', async () => {
    const en = await responder.complete({ messages: [{ role: 'user', content: 'Where is the file?' }] });
    const uk = await responder.complete({
      messages: [{ role: 'user', content: 'Де мій звіт і відпустка?' }],
    });
    const ru = await responder.complete({ messages: [{ role: 'user', content: 'Где мой отчёт?' }] });
    expect(en.text).toMatch(/could not find/);
    expect(uk.text).toMatch(/не знайшов/);
    expect(ru.text).toMatch(/не нашёл/);
  });

  it('says no good answer was found, instead of quoting, when the best passage scores below 0.7', async () => {
    const passages = [
      {
        id: 'a',
        title: 'Canteen',
        content: 'Lunch is served from noon. The canteen closes at three.',
        score: 0.69,
      },
    ];
    const en = await responder.complete({
      messages: [{ role: 'user', content: 'When is lunch?' }],
      passages,
    });
    const uk = await responder.complete({
      messages: [{ role: 'user', content: 'Коли обід у їдальні?' }],
      passages,
    });
    const ru = await responder.complete({
      messages: [{ role: 'user', content: 'Когда обед в столовой?' }],
      passages,
    });
    expect(MIN_ANSWER_SCORE).toBe(0.7);
    expect(en.text).toMatch(/^I could not find a good answer to this in the knowledge base/);
    expect(uk.text).toMatch(/^Я не знайшов у базі знань доброї відповіді/);
    expect(ru.text).toMatch(/^Я не нашёл в базе знаний хорошего ответа/);
    for (const reply of [en, uk, ru]) expect(reply.text).not.toContain('Lunch is served');
    const confident = await responder.complete({
      messages: [{ role: 'user', content: 'When is lunch?' }],
      passages: [{ ...passages[0]!, score: 0.7 }],
    });
    expect(confident.text).toContain('Lunch is served from noon.');
  });

  it('guesses the language and splits sentences', () => {
    expect(guessLanguage('Привіт, як справи?')).toBe('uk');
    expect(guessLanguage('Привет, как дела?')).toBe('ru');
    expect(guessLanguage('Hello')).toBe('en');
    expect(splitSentences('One. Two!  Three?\nFour')).toEqual(['One.', 'Two!', 'Three?', 'Four']);
  });
});

describe('extractive responder: the sentence that answers', () => {
  const leave = {
    id: 'leave',
    title: 'Employee Handbook',
    headingPath: ['Employee Handbook', 'Leave', 'How much leave you get'],
    content:
      'How much leave you get Full-time employees receive 25 working days of paid annual leave per holiday year. ' +
      'The holiday year runs from January to December. Parking at the office is free for visitors.',
    score: 0.82,
  };
  const pay = {
    id: 'pay',
    title: 'Employee Handbook',
    headingPath: ['Employee Handbook', 'Pay'],
    content: 'Salaries are paid on the 25th of each month. Payslips are in the HR portal.',
    score: 0.4,
  };

  it('quotes the sentence holding the fact of a paraphrased question, not the whole passage', async () => {
    const reply = await responder.complete({
      messages: [{ role: 'user', content: 'How many vacation days do I get a year?' }],
      passages: [pay, leave],
    });
    const [body, sources] = reply.text.split('\n\n');
    expect(body).toBe('Full-time employees receive 25 working days of paid annual leave per holiday year.');
    expect(body).not.toContain('Parking');
    expect(sources).toBe('Sources: Employee Handbook › Leave › How much leave you get');
  });

  it('cuts heading text glued to the first sentence off the quote', async () => {
    const reply = await responder.complete({
      messages: [{ role: 'user', content: 'annual leave days' }],
      passages: [leave],
    });
    expect(reply.text.startsWith('Full-time employees receive 25 working days')).toBe(true);
  });

  it('quotes the next sentence too when it runs on from the answer', async () => {
    const reply = await responder.complete({
      messages: [{ role: 'user', content: 'Коли виплачують зарплату?' }],
      passages: [
        {
          id: 'uk',
          title: 'Довідник',
          headingPath: ['Зарплата'],
          content:
            'Заробітна плата виплачується двічі на місяць: 10 і 25 числа. Це стосується всіх працівників. Офіс відкрито з 9:00.',
          score: 0.75,
        },
      ],
    });
    const [body, sources] = reply.text.split('\n\n');
    expect(body).toBe(
      'Заробітна плата виплачується двічі на місяць: 10 і 25 числа. Це стосується всіх працівників.',
    );
    // Ukrainian without і, ї, є or ґ is still answered in Ukrainian.
    expect(sources).toBe('Джерела: Довідник › Зарплата');
  });

  it('answers in the question language from a passage in another', async () => {
    const reply = await responder.complete({
      messages: [{ role: 'user', content: 'Сколько дней отпуска в году?' }],
      passages: [leave],
    });
    expect(reply.text).toContain('25 working days of paid annual leave');
    expect(reply.text).toContain('Источники: Employee Handbook › Leave › How much leave you get');
  });
});
