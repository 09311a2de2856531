import { describe, expect, it } from 'vitest';
import { createLocalEmbedder, LOCAL_MATCH_SIMILARITY } from '../../core/llm/local-embedder.js';
import { clausesOf } from './intent-keywords.js';
import {
  buildIntentModel,
  calibrateThreshold,
  classifyWithModel,
  MIN_CALIBRATION_EXAMPLES,
  type ModelExample,
  scoredText,
  THRESHOLD_BOUNDS,
} from './intent-model.js';
import { MIN_INTENT_CONFIDENCE } from './intent-vote.js';

const embedder = createLocalEmbedder(256);
const example = (intentName: string, text: string): ModelExample => ({
  intentName,
  text,
  vector: Float32Array.from(embedder.embedOne(text)),
});
const PHRASES: Record<string, string[]> = {
  vacation: [
    'I want to take a vacation next month',
    'How do I request annual leave?',
    'How many vacation days do I have left?',
    'Who approves my holiday request?',
    'Can I carry unused vacation days over?',
    'Хочу піти у відпустку',
    'Хочу взять отпуск',
  ],
  password: [
    'I forgot my password',
    'How do I reset my password?',
    'My account is locked',
    'Two-factor code does not arrive',
    'I cannot log in to my email',
    'Я забув пароль',
    'Я забыл пароль',
  ],
  laptop: [
    'I need a new laptop',
    'My monitor is broken',
    'Can I get a headset for calls?',
    'My keyboard stopped working',
    'Where do I order office equipment?',
    'Мені потрібен новий ноутбук',
    'Сломался монитор',
  ],
};
const all = Object.entries(PHRASES).flatMap(([intent, texts]) => texts.map((t) => example(intent, t)));
const classify = (model: ReturnType<typeof buildIntentModel>, text: string) => {
  const { similarities: _, ...result } = classifyWithModel(
    model,
    scoredText(text, embedder.embedOne(text)),
    clausesOf(text).map((c) => scoredText(c, embedder.embedOne(c))),
  );
  return result;
};

describe('intent model', () => {
  it('calibrates its own threshold from enough examples of two intents or more, within the bounds', () => {
    expect(all.length).toBeGreaterThanOrEqual(MIN_CALIBRATION_EXAMPLES);
    const model = buildIntentModel(all, LOCAL_MATCH_SIMILARITY);
    expect(model.calibrated).toBe(true);
    expect(model.threshold).toBeGreaterThanOrEqual(THRESHOLD_BOUNDS[0]);
    expect(model.threshold).toBeLessThanOrEqual(THRESHOLD_BOUNDS[1]);
    expect(calibrateThreshold(model)).toBe(model.threshold);
  });

  it('keeps the default 0.5 with too few examples or a single intent', () => {
    const few = buildIntentModel(all.slice(0, MIN_CALIBRATION_EXAMPLES - 1), LOCAL_MATCH_SIMILARITY);
    expect(few).toMatchObject({ calibrated: false, threshold: MIN_INTENT_CONFIDENCE });
    const single = buildIntentModel(
      Array.from({ length: MIN_CALIBRATION_EXAMPLES + 5 }, (_, i) => example('only', `phrase number ${i}`)),
      LOCAL_MATCH_SIMILARITY,
    );
    expect(single).toMatchObject({ calibrated: false, threshold: MIN_INTENT_CONFIDENCE });
  });

  it('answers an exact copy of an example with confidence 1', () => {
    const model = buildIntentModel(all, LOCAL_MATCH_SIMILARITY);
    expect(classify(model, 'My keyboard stopped working')).toMatchObject({ intent: 'laptop', confidence: 1 });
  });

  it('reads the calibrated threshold as the 0.5 line: answered exactly when confidence ≥ 0.5', () => {
    const model = buildIntentModel(all, LOCAL_MATCH_SIMILARITY);
    for (const text of [
      'new laptop please',
      'vacation in July',
      'what is the weather in Rome',
      'hello there',
    ]) {
      const result = classify(model, text);
      expect(result.intent === 'unknown', text).toBe(result.confidence < MIN_INTENT_CONFIDENCE);
      for (const alternative of result.alternatives)
        expect(alternative.confidence).toBeLessThanOrEqual(result.confidence);
    }
  });

  it('finds the asking sentence of a long message among sentences of context', () => {
    const model = buildIntentModel(all, LOCAL_MATCH_SIMILARITY);
    const text =
      'We moved to a new flat last weekend and everything is still in boxes. The kids start school on Monday. ' +
      'How many vacation days do I still have?';
    expect(clausesOf(text)).toHaveLength(3);
    expect(classify(model, text).intent).toBe('vacation');
  });

  it('uses keyword evidence across languages through workplace concepts', () => {
    const model = buildIntentModel(all, LOCAL_MATCH_SIMILARITY);
    // "annual leave" is no word of the Russian examples; the concept joins it to отпуск and відпустка.
    expect(classify(model, 'ежегодный отпуск на две недели').intent).toBe('vacation');
  });

  it('answers unknown for text that shares nothing with the examples', () => {
    const model = buildIntentModel(all, LOCAL_MATCH_SIMILARITY);
    expect(classify(model, 'Who won the football match last night?').intent).toBe('unknown');
  });
});
