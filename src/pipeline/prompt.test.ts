import { describe, expect, it } from 'vitest';
import { StepTimeoutError, withStepTimeout } from './deadline.js';
import { replyLanguage } from './language.js';
import { waitDelayMs } from './pipeline.jobs.js';
import { buildMessages, DEFAULT_SYSTEM_PROMPT, fitToChannel, MESSAGING_REPLY_MAX_CHARS } from './prompt.js';
import { cosine } from './steps/confidence-check.js';

describe('reply language', () => {
  it('follows the message: Ukrainian letters, other Cyrillic, else English', () => {
    expect(replyLanguage('Скільки днів відпустки?', undefined)).toBe('uk');
    expect(replyLanguage('Сколько дней отпуска?', undefined)).toBe('ru');
    expect(replyLanguage('How many vacation days?', undefined)).toBe('en');
  });

  it('is fixed by persona.language when it names en, uk or ru', () => {
    expect(replyLanguage('How many vacation days?', 'uk')).toBe('uk');
    expect(replyLanguage('Сколько дней?', 'EN')).toBe('en');
    expect(replyLanguage('Сколько дней?', 'de')).toBe('ru');
  });
});

describe('prompt', () => {
  it('puts prompt, persona, profile, language and channel rules in one system message, then the turns', () => {
    const messages = buildMessages({
      systemPrompt: null,
      persona: { style: { formality: 0.8 }, boundaries: ['salary negotiation'] },
      profile: {
        summary: 'Works in logistics',
        currentProjects: ['Depot'],
        frequentIntents: ['vacation'],
        accessLevel: 'standard',
      },
      turns: [
        { role: 'user', content: 'Hi', createdAt: '' },
        { role: 'assistant', content: 'Hello', createdAt: '' },
      ],
      language: 'uk',
      channel: 'chanA',
      userText: 'Скільки днів?',
    });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const system = messages[0]!.content;
    for (const part of [
      DEFAULT_SYSTEM_PROMPT,
      'formality 0.8',
      'salary negotiation',
      'Works in logistics',
      'Depot',
      'Answer in Ukrainian',
      'keep it short',
    ]) {
      expect(system).toContain(part);
    }
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Скільки днів?' });
  });

  it('cuts messaging replies at a sentence end, leaves web replies whole', () => {
    const long = 'This sentence is long enough to count. '.repeat(80);
    const cut = fitToChannel(long, 'chanB');
    expect(cut.length).toBeLessThanOrEqual(MESSAGING_REPLY_MAX_CHARS);
    expect(cut.endsWith('.…')).toBe(true);
    expect(fitToChannel(long, 'web')).toBe(long.trim());
  });
});

describe('helpers', () => {
  it('times a step out even when it ignores its signal', async () => {
    await expect(withStepTimeout('generate', 20, () => new Promise(() => undefined))).rejects.toBeInstanceOf(
      StepTimeoutError,
    );
    await expect(withStepTimeout('generate', 1000, async () => 'ok')).resolves.toBe('ok');
  });

  it('backs a waiting task off from 200 ms up to 2 s', () => {
    expect([0, 1, 2, 3, 4, 10].map(waitDelayMs)).toEqual([200, 400, 800, 1600, 2000, 2000]);
  });

  it('measures cosine similarity', () => {
    expect(cosine([1, 0], [1, 0])).toBe(1);
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([0, 0], [1, 1])).toBe(0);
  });
});
