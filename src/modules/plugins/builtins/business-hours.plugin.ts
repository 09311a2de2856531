import type { ConfigProblem, PluginDefinition } from '../plugin.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface BusinessHoursConfig {
  /** IANA time zone, such as Europe/Kyiv. */
  timeZone: string;
  days: Weekday[];
  /** HH:MM, inclusive. */
  from: string;
  /** HH:MM, exclusive; earlier than `from` for hours past midnight. */
  to: string;
  outsideHours: 'reply' | 'hitl';
  message?: string;
}

/** Whether Intl knows `timeZone`. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The weekday and minute of the day of `at` in `timeZone`. */
export function localTime(at: Date, timeZone: string): { day: Weekday; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = part('weekday').slice(0, 3).toLowerCase() as Weekday;
  return { day, minute: Number(part('hour')) * 60 + Number(part('minute')) };
}

/**
 * Whether `at` falls inside the configured hours. With `to` before `from`
 * the hours run past midnight and belong to the day they start on
 * (Friday 22:00-06:00 covers Saturday 03:00).
 */
export function isWithinHours(
  at: Date,
  config: Pick<BusinessHoursConfig, 'timeZone' | 'days' | 'from' | 'to'>,
) {
  const { day, minute } = localTime(at, config.timeZone);
  const from = minutes(config.from);
  const to = minutes(config.to);
  if (from === to) return config.days.includes(day);
  if (from < to) return config.days.includes(day) && minute >= from && minute < to;
  if (minute >= from) return config.days.includes(day);
  if (minute < to) {
    const yesterday = WEEKDAYS[(WEEKDAYS.indexOf(day) + 6) % 7]!;
    return config.days.includes(yesterday);
  }
  return false;
}

const HHMM = '^([01][0-9]|2[0-3]):[0-5][0-9]$';

/** Business hours: outside the configured days and hours, answer with a fixed message or send every reply to a human. */
export const businessHoursPlugin: PluginDefinition<BusinessHoursConfig> = {
  id: 'business-hours',
  name: 'Business hours',
  description:
    'Outside the configured days and hours (in the configured time zone) either replies with a fixed message at once (outsideHours: reply) or sends every reply to a human (outsideHours: hitl).',
  version: '1.0.0',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['timeZone', 'days', 'from', 'to', 'outsideHours'],
    properties: {
      timeZone: { type: 'string', minLength: 1, maxLength: 64 },
      days: { type: 'array', minItems: 1, maxItems: 7, uniqueItems: true, items: { enum: [...WEEKDAYS] } },
      from: { type: 'string', pattern: HHMM },
      to: { type: 'string', pattern: HHMM },
      outsideHours: { enum: ['reply', 'hitl'] },
      message: { type: 'string', minLength: 1, maxLength: 4000, pattern: '\\S' },
    },
  },
  validateConfig(config) {
    const problems: ConfigProblem[] = [];
    if (!isTimeZone(config.timeZone)) {
      problems.push({ path: 'timeZone', message: `is not an IANA time zone: ${config.timeZone}` });
    }
    if (config.outsideHours === 'reply' && config.message === undefined) {
      problems.push({ path: 'message', message: 'is required when outsideHours is reply' });
    }
    return problems;
  },
  hooks: {
    after_confidence_check({ config, now }) {
      const at = now();
      if (isWithinHours(at, config)) return undefined;
      if (config.outsideHours === 'reply') return { reply: config.message ?? '', send: true };
      return {
        hitl: `outside business hours (${config.days.join(', ')} ${config.from}-${config.to} ${config.timeZone})`,
      };
    },
  },
};
