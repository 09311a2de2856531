import { describe, expect, it } from 'vitest';
import { escapeMarkdown } from './markdown-fill.js';
import { markdownToHtmlFragment, renderMarkdown } from './render.js';
import { templateBodyProblems } from './template-body.js';
import {
  isCalendarDate,
  normaliseVariables,
  resolveInput,
  type TemplateVariable,
} from './template-variables.js';

const names = new Set(['client', 'amount', 'remote']);
const messages = (body: string) => templateBodyProblems(body, names).map((p) => p.message);

describe('templateBodyProblems', () => {
  it('accepts declared names, sections, inverted sections, comments and {{.}} inside a section', () => {
    expect(
      messages(
        '# {{client}}\n{{#remote}}Remote {{.}} {{amount}}{{/remote}}{{^remote}}Office{{/remote}}{{! note }}',
      ),
    ).toEqual([]);
  });

  it('names an unknown variable once, also inside sections, and {{.}} outside one', () => {
    expect(messages('{{nobody}} {{nobody}} {{#remote}}{{ghost}}{{/remote}} {{.}}')).toEqual([
      'uses the unknown variable nobody; declare it in variables',
      'uses the unknown variable ghost; declare it in variables',
      'uses the unknown variable .; declare it in variables',
    ]);
  });

  it('refuses partials, unescaped output and dotted names', () => {
    expect(messages('{{> header}}{{{client}}}{{& amount}}{{client.name}}')).toEqual([
      'uses the partial {{> header}}; partials are not allowed',
      'outputs {{client}} unescaped; use {{client}}, values are always escaped',
      'outputs {{amount}} unescaped; use {{amount}}, values are always escaped',
      'uses the unknown variable client.name; declare it in variables',
    ]);
  });

  it('reports a body that does not parse', () => {
    const [problem] = templateBodyProblems('{{#remote}} never closed', names);
    expect(problem?.field).toBe('body.templateBody');
    expect(problem?.message).toMatch(/^is not a valid template: Unclosed section "remote"/);
  });
});

describe('variables', () => {
  it('normalises labels and required, and flags duplicates and defaults of the wrong type', () => {
    const { variables, problems } = normaliseVariables([
      { name: 'a', type: 'string' },
      { name: 'a', type: 'number', default: 'ten' },
      { name: 'd', type: 'date', default: '2026-02-30', label: ' Start ' },
    ]);
    expect(variables[0]).toEqual({ name: 'a', label: 'a', type: 'string', required: false, default: null });
    expect(variables[2]?.label).toBe('Start');
    expect(problems).toEqual([
      { field: 'body.variables.1.name', message: 'declares a a second time' },
      { field: 'body.variables.1.default', message: 'must be a number' },
      { field: 'body.variables.2.default', message: 'must be a date written YYYY-MM-DD' },
    ]);
  });

  it('checks calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2027-02-29')).toBe(false);
    expect(isCalendarDate('2027-1-05')).toBe(false);
  });

  const declared: TemplateVariable[] = [
    { name: 'client', label: 'Client', type: 'string', required: true, default: null },
    { name: 'amount', label: 'Amount', type: 'number', required: true, default: 100 },
    { name: 'due', label: 'Due', type: 'date', required: false, default: null },
    { name: 'remote', label: 'Remote', type: 'boolean', required: false, default: false },
  ];

  it('fills defaults and keeps the given values', () => {
    expect(resolveInput(declared, { client: 'Acme', due: '2027-03-01', remote: null })).toEqual({
      values: { client: 'Acme', amount: 100, due: '2027-03-01', remote: false },
      problems: [],
    });
  });

  it('lists missing required values, wrong types and unknown keys', () => {
    const { problems } = resolveInput(declared, { client: '', amount: '12', due: 'tomorrow', extra: 1 });
    expect(problems).toEqual([
      { field: 'body.input.extra', message: 'is not a variable of this template' },
      { field: 'body.input.client', message: 'is required (Client)' },
      { field: 'body.input.amount', message: 'must be a number' },
      { field: 'body.input.due', message: 'must be a date written YYYY-MM-DD' },
    ]);
  });
});

describe('rendering', () => {
  it('escapes values so they stay text in Markdown and HTML', () => {
    const md = renderMarkdown('Dear {{client}},', {
      client: '**Bold** <script>alert(1)</script> [x](javascript:alert(1)) `c` ~~s~~ a|b &amp;\n# Title',
    });
    const html = markdownToHtmlFragment(md);
    expect(html).not.toMatch(/<strong>|<script|<a |<h1|<code>|<del>/);
    expect(html).toContain(
      '**Bold** &lt;script&gt;alert(1)&lt;/script&gt; [x](javascript:alert(1)) `c` ~~s~~ a|b &amp;amp; # Title',
    );
  });

  it('leaves ordinary values as typed and escapes only what would start a block', () => {
    expect(escapeMarkdown('Olena Kovalenko, 2027-01-10, 2 500.50 EUR, Smith & Sons (UA)')).toBe(
      'Olena Kovalenko, 2027-01-10, 2 500.50 EUR, Smith & Sons (UA)',
    );
    expect(['# a', '- a', '+ a', '> a', '= a', '12. a', '3) a', '-5'].map(escapeMarkdown)).toEqual([
      '\\# a',
      '\\- a',
      '\\+ a',
      '\\> a',
      '\\= a',
      '12\\. a',
      '3\\) a',
      '\\-5',
    ]);
    for (const value of ['# a', '- a', '12. a', '> a']) {
      const html = markdownToHtmlFragment(renderMarkdown('{{v}}', { v: value }));
      expect(html).toBe(`<p>${value.replace('>', '&gt;')}</p>\n`);
    }
  });

  it('keeps the template’s own Markdown and drops dangerous HTML it contains', () => {
    const html = markdownToHtmlFragment(
      '# Offer\n\n**{{x}}**\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<img src=x onerror=alert(1)><a href="javascript:alert(1)">y</a>',
    );
    expect(html).toContain('<h1>Offer</h1>');
    expect(html).toContain('<table>');
    expect(html).not.toMatch(/<img|onerror|javascript:/);
  });

  it('renders a variable named like an inherited property empty when it has no value', () => {
    expect(renderMarkdown('[{{constructor}}]{{#toString}}x{{/toString}}', {})).toBe('[]');
    expect(renderMarkdown('{{constructor}}', { constructor: 'Acme' })).toBe('Acme');
  });

  it('renders sections from booleans and empty strings', () => {
    const body = '{{#remote}}Remote{{/remote}}{{^remote}}Office{{/remote}} {{^note}}no note{{/note}}';
    expect(renderMarkdown(body, { remote: true })).toBe('Remote no note');
    expect(renderMarkdown(body, { remote: false, note: 'x' })).toBe('Office ');
  });
});
