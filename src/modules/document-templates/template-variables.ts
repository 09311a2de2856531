import type { ValidationDetail } from '../../core/errors/app-errors.js';

export const VARIABLE_TYPES = ['string', 'number', 'date', 'boolean'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];
export type VariableValue = string | number | boolean;

/** A declared template variable, as stored and answered (label and required filled in). */
export interface TemplateVariable {
  name: string;
  label: string;
  type: VariableType;
  required: boolean;
  /** Used when the input leaves the variable out (or sends null); null when there is none. */
  default: VariableValue | null;
  /** Stored only: true when the variable was inferred from the body rather than declared. */
  inferred?: boolean;
}

/** A variable as a request declares it: label, required and default may be left out. */
export interface VariableInput {
  name: string;
  label?: string;
  type: VariableType;
  required?: boolean;
  default?: VariableValue | null;
}

/** Longest string value accepted in a generation's input. */
export const STRING_VALUE_MAX = 10_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date written YYYY-MM-DD that exists (no 2026-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** Why `value` is not a value of `type`, or null when it is. */
export function valueProblem(type: VariableType, value: unknown): string | null {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return 'must be a string';
      return value.length > STRING_VALUE_MAX ? `must be at most ${STRING_VALUE_MAX} characters` : null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'must be a number';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'date':
      return typeof value === 'string' && isCalendarDate(value) ? null : 'must be a date written YYYY-MM-DD';
  }
}

/**
 * Normalises declared variables and lists what is wrong with them: names
 * used twice, and defaults that are not of the variable's type.
 */
export function normaliseVariables(
  inputs: readonly VariableInput[],
  field = 'body.variables',
): { variables: TemplateVariable[]; problems: ValidationDetail[] } {
  const problems: ValidationDetail[] = [];
  const seen = new Set<string>();
  const variables = inputs.map((input, index) => {
    if (seen.has(input.name)) {
      problems.push({ field: `${field}.${index}.name`, message: `declares ${input.name} a second time` });
    }
    seen.add(input.name);
    const fallback = input.default ?? null;
    const problem = fallback === null ? null : valueProblem(input.type, fallback);
    if (problem) problems.push({ field: `${field}.${index}.default`, message: problem });
    return {
      name: input.name,
      label: input.label?.trim() || input.name,
      type: input.type,
      required: input.required ?? false,
      default: fallback,
    };
  });
  return { variables, problems };
}

/**
 * Checks a generation's input against the declared variables and answers
 * the values to render with: defaults fill what the input leaves out (or
 * sends as null). A required variable left without a value, a value of the
 * wrong type and a key that is no declared variable are problems, listed
 * under `body.input.<name>`.
 */
export function resolveInput(
  variables: readonly TemplateVariable[],
  input: Readonly<Record<string, unknown>>,
): { values: Record<string, VariableValue>; problems: ValidationDetail[] } {
  const problems: ValidationDetail[] = [];
  const values: Record<string, VariableValue> = {};
  const declared = new Set(variables.map((v) => v.name));
  for (const key of Object.keys(input)) {
    if (!declared.has(key)) {
      problems.push({ field: `body.input.${key}`, message: 'is not a variable of this template' });
    }
  }
  for (const variable of variables) {
    const given = Object.hasOwn(input, variable.name) ? input[variable.name] : undefined;
    const value = given ?? variable.default;
    const field = `body.input.${variable.name}`;
    if (value === null || value === undefined || value === '') {
      if (variable.required) problems.push({ field, message: `is required (${variable.label})` });
      continue;
    }
    const problem = valueProblem(variable.type, value);
    if (problem) problems.push({ field, message: problem });
    else values[variable.name] = value as VariableValue;
  }
  return { values, problems };
}
