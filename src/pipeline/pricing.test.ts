import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config/config.js';
import { createPriceTable, DEFAULT_PRICES, estimateCostUsd, priceUsage } from './pricing.js';

const million = { inputTokens: 1_000_000, outputTokens: 1_000_000 };

describe('estimateCostUsd', () => {
  it('prices input and output tokens per million', () => {
    expect(estimateCostUsd('gpt-4o', { inputTokens: 1_000_000, outputTokens: 0 })).toBe(2.5);
    expect(estimateCostUsd('gpt-4o', { inputTokens: 0, outputTokens: 1_000_000 })).toBe(10);
    expect(estimateCostUsd('gpt-4o-mini', { inputTokens: 1200, outputTokens: 300 })).toBe(0.00036);
  });

  it('matches the longest prefix, so a dated or smaller variant takes its own price', () => {
    expect(estimateCostUsd('gpt-4o-mini-2024-07-18', million)).toBe(0.75);
    expect(estimateCostUsd('gpt-4o-2024-08-06', million)).toBe(12.5);
    expect(estimateCostUsd('gpt-4.1-mini', million)).toBe(2);
    expect(estimateCostUsd('gpt-4.1', million)).toBe(10);
    expect(estimateCostUsd('o3-mini', million)).toBe(5.5);
    expect(estimateCostUsd('claude-opus-4-5-20251101', million)).toBe(30);
    expect(estimateCostUsd('claude-opus-4-1-20250805', million)).toBe(90);
    expect(estimateCostUsd('gemini-2.5-flash-lite', million)).toBe(0.5);
    expect(estimateCostUsd('gemini-2.5-flash', million)).toBe(2.8);
  });

  it('covers the Claude Sonnet, Haiku and Opus families and Gemini 2.x flash and pro', () => {
    for (const model of [
      'claude-sonnet-4-5-20250929',
      'claude-3-7-sonnet-latest',
      'claude-3-5-sonnet-20241022',
    ]) {
      expect(estimateCostUsd(model, million)).toBe(18);
    }
    expect(estimateCostUsd('claude-haiku-4-5', million)).toBe(6);
    expect(estimateCostUsd('claude-3-5-haiku-20241022', million)).toBe(4.8);
    expect(estimateCostUsd('claude-3-opus-20240229', million)).toBe(90);
    expect(estimateCostUsd('gemini-2.0-flash-001', million)).toBe(0.5);
    expect(estimateCostUsd('gemini-2.5-pro', million)).toBe(11.25);
  });

  it('ignores case and a vendor path in the model name', () => {
    expect(estimateCostUsd('OpenAI/GPT-4o', million)).toBe(12.5);
    expect(estimateCostUsd('models/gemini-2.5-pro', million)).toBe(11.25);
  });

  it('answers 0 and priced: false for an unknown model; the offline responder is priced at 0', () => {
    expect(priceUsage('llama-3-70b', million)).toEqual({ costUsd: 0, priced: false, matched: null });
    expect(priceUsage('extractive', million)).toEqual({ costUsd: 0, priced: true, matched: 'extractive' });
    expect(priceUsage('gpt-4o', million)).toEqual({ costUsd: 12.5, priced: true, matched: 'gpt-4o' });
  });

  it('counts negative or non-finite token numbers as 0', () => {
    expect(estimateCostUsd('gpt-4o', { inputTokens: -5, outputTokens: Number.NaN })).toBe(0);
  });
});

describe('createPriceTable and LLM_PRICES_FILE', () => {
  const dirs: string[] = [];
  const dir = () => {
    const created = mkdtempSync(path.join(tmpdir(), 'aos-prices-'));
    dirs.push(created);
    return created;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  const base = (dataDir: string) => ({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });

  it('lays a file over the defaults: an override wins for its prefix, a new prefix prices a new model', () => {
    const d = dir();
    const file = path.join(d, 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({ 'gpt-4o': { input: 1, output: 2 }, 'Llama-3': { input: 0.5, output: 0.5 } }),
    );
    const config = loadConfig({ ...base(d), LLM_PRICES_FILE: file });
    expect(config.llmPrices).toEqual({
      file,
      table: { 'gpt-4o': { input: 1, output: 2 }, 'llama-3': { input: 0.5, output: 0.5 } },
    });
    const table = createPriceTable(config.llmPrices?.table);
    expect(estimateCostUsd('gpt-4o', million, table)).toBe(3);
    expect(estimateCostUsd('gpt-4o-mini', million, table)).toBe(0.75);
    expect(priceUsage('llama-3-70b', million, table)).toEqual({
      costUsd: 1,
      priced: true,
      matched: 'llama-3',
    });
    expect(createPriceTable(null)).toEqual(DEFAULT_PRICES);
  });

  it('has no override table without LLM_PRICES_FILE', () => {
    expect(loadConfig(base(dir())).llmPrices).toBeNull();
  });

  it('refuses to start on a missing, malformed or badly shaped prices file, naming each problem', () => {
    const d = dir();
    const problems = (file: string) => {
      try {
        loadConfig({ ...base(d), LLM_PRICES_FILE: file });
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
      return [];
    };
    expect(problems(path.join(d, 'missing.json'))).toEqual([
      `LLM_PRICES_FILE "${path.join(d, 'missing.json')}" cannot be read`,
    ]);
    const broken = path.join(d, 'broken.json');
    writeFileSync(broken, '{ "gpt-4o": ');
    expect(problems(broken)).toEqual([`LLM_PRICES_FILE "${broken}" is not valid JSON`]);
    const list = path.join(d, 'list.json');
    writeFileSync(list, '[]');
    expect(problems(list)).toEqual([`LLM_PRICES_FILE "${list}" must hold an object of model prefixes`]);
    const shapes = path.join(d, 'shapes.json');
    writeFileSync(
      shapes,
      JSON.stringify({ a: { input: 1 }, b: { input: -1, output: 1 }, c: 3, ok: { input: 1, output: 1 } }),
    );
    expect(problems(shapes)).toHaveLength(3);
    expect(problems(shapes)[0]).toContain('"a" needs numbers "input" and "output"');
  });
});
