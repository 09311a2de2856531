import { describe, expect, it } from 'vitest';
import type { PluginContext } from '../plugin.js';
import {
  type BusinessHoursConfig,
  businessHoursPlugin,
  isTimeZone,
  isWithinHours,
} from './business-hours.plugin.js';

const weekdays: BusinessHoursConfig = {
  timeZone: 'Europe/Kyiv',
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  from: '09:00',
  to: '18:00',
  outsideHours: 'reply',
  message: 'Closed now.',
};

function context(config: BusinessHoursConfig, at: string): PluginContext<BusinessHoursConfig> {
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  return {
    config,
    namespace: { id: 'ns', departmentId: 'dept' },
    taskId: 'task',
    now: () => new Date(at),
    signal: new AbortController().signal,
    logger,
  };
}

const run = (config: BusinessHoursConfig, at: string) =>
  businessHoursPlugin.hooks.after_confidence_check!(context(config, at), {
    message: { text: 'hi', channel: 'web', language: 'en' },
    reply: 'draft',
    intent: 'x',
    confidence: 1,
    decision: { route: 'hitl', reasons: [] },
  });

describe('business hours', () => {
  it('judges the hours in the configured time zone, start inclusive and end exclusive', () => {
    // Kyiv is UTC+2 in January and UTC+3 in July.
    expect(isWithinHours(new Date('2026-01-19T07:00:00Z'), weekdays)).toBe(true); // Mon 09:00
    expect(isWithinHours(new Date('2026-01-19T06:59:00Z'), weekdays)).toBe(false); // Mon 08:59
    expect(isWithinHours(new Date('2026-01-19T16:00:00Z'), weekdays)).toBe(false); // Mon 18:00
    expect(isWithinHours(new Date('2026-07-20T06:30:00Z'), weekdays)).toBe(true); // Mon 09:30 (summer time)
    expect(isWithinHours(new Date('2026-01-17T10:00:00Z'), weekdays)).toBe(false); // Saturday
    // Sunday 23:30 UTC is already Monday 01:30 in Kyiv, and still Sunday in New York.
    const night = { ...weekdays, from: '00:00', to: '06:00' };
    expect(isWithinHours(new Date('2026-01-18T23:30:00Z'), night)).toBe(true);
    expect(isWithinHours(new Date('2026-01-18T23:30:00Z'), { ...night, timeZone: 'America/New_York' })).toBe(
      false,
    );
  });

  it('treats hours past midnight as belonging to the day they start on', () => {
    const late = { ...weekdays, days: ['fri' as const], from: '22:00', to: '06:00' };
    expect(isWithinHours(new Date('2026-01-16T21:00:00Z'), late)).toBe(true); // Fri 23:00
    expect(isWithinHours(new Date('2026-01-17T01:00:00Z'), late)).toBe(true); // Sat 03:00
    expect(isWithinHours(new Date('2026-01-17T21:00:00Z'), late)).toBe(false); // Sat 23:00
    expect(isWithinHours(new Date('2026-01-16T03:00:00Z'), late)).toBe(false); // Fri 05:00 belongs to Thursday
  });

  it('answers the configured message outside the hours, or a human with the reason, and nothing inside', async () => {
    expect(await run(weekdays, '2026-01-17T10:00:00Z')).toEqual({ reply: 'Closed now.', send: true });
    expect(await run({ ...weekdays, outsideHours: 'hitl' }, '2026-01-17T10:00:00Z')).toEqual({
      hitl: 'outside business hours (mon, tue, wed, thu, fri 09:00-18:00 Europe/Kyiv)',
    });
    expect(await run(weekdays, '2026-01-19T10:00:00Z')).toBeUndefined();
  });

  it('validates the time zone with Intl and asks for a message in reply mode', () => {
    expect(isTimeZone('Europe/Kyiv')).toBe(true);
    expect(isTimeZone('Mars/Base')).toBe(false);
    const { message: _omitted, ...noMessage } = weekdays;
    expect(businessHoursPlugin.validateConfig!({ ...noMessage, timeZone: 'Mars/Base' })).toEqual([
      { path: 'timeZone', message: 'is not an IANA time zone: Mars/Base' },
      { path: 'message', message: 'is required when outsideHours is reply' },
    ]);
    expect(businessHoursPlugin.validateConfig!(weekdays)).toEqual([]);
  });
});
