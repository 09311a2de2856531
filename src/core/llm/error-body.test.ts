import { describe, expect, it } from 'vitest';
import { errorMessageOf, readableErrorFetch } from './error-body.js';

describe('errorMessageOf', () => {
  it.each([
    [
      'nested (OpenAI, Azure, Ollama, llama.cpp)',
      { error: { message: 'model not found', type: 'x' } },
      'model not found',
    ],
    ['nested with a code only (Azure)', { error: { code: 'DeploymentNotFound' } }, 'DeploymentNotFound'],
    ['a string error (gateways)', { error: 'upstream timed out' }, 'upstream timed out'],
    [
      'flat (vLLM)',
      { object: 'error', message: 'maximum context length is 4096 tokens', code: 400 },
      'maximum context length is 4096 tokens',
    ],
    ['FastAPI detail', { detail: 'Not authenticated' }, 'Not authenticated'],
    [
      'FastAPI validation',
      { detail: [{ msg: 'field required' }, { msg: 'bad value' }] },
      'field required; bad value',
    ],
    ['plain text', 'Bad Gateway', 'Bad Gateway'],
  ])('%s', (_, body, message) => {
    expect(errorMessageOf(body)).toBe(message);
  });

  it('answers null for a body without words', () => {
    expect(errorMessageOf({})).toBeNull();
    expect(errorMessageOf({ error: {} })).toBeNull();
    expect(errorMessageOf(null)).toBeNull();
  });
});

describe('readableErrorFetch', () => {
  const answering = (body: string, status: number) =>
    readableErrorFetch(async () => new Response(body, { status, headers: { 'retry-after': '1' } }));

  it('rewrites a flat error into the nested shape, keeping status and headers', async () => {
    const response = await answering(
      JSON.stringify({ object: 'error', message: 'no such model', code: 404 }),
      404,
    )('http://x');
    expect(response.status).toBe(404);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toEqual({ error: { message: 'no such model', type: null, code: 404 } });
  });

  it('leaves a nested error and a success as they are', async () => {
    const nested = JSON.stringify({ error: { message: 'slow down', type: 'rate_limit_error' } });
    expect(await (await answering(nested, 429)('http://x')).text()).toBe(nested);
    expect(await (await answering('{"ok":true}', 200)('http://x')).text()).toBe('{"ok":true}');
  });
});
