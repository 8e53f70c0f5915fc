/**
 * The heartbeat window from the schedule expression: the longest gap between two runs plus 2 h, in whole hours, and
 * refusals (with why) for the schedules no 7-day alarm can watch or this cannot read exactly.
 */
import { describe, expect, it } from 'vitest';
import { heartbeatWindow, MAX_HEARTBEAT_HOURS } from '../../infra/heartbeat-window.ts';

const hoursOf = (expression: string): number => {
  const window = heartbeatWindow(expression);
  if (!window.ok) throw new Error(`refused: ${window.reason}`);
  return window.hours;
};

describe('heartbeatWindow', () => {
  it.each([
    ['cron(0 3 * * ? *)', 26],
    ['cron(30 2 ? * * *)', 26],
    // Twice a day, 3:00 and 15:00: 12 h apart.
    ['cron(0 3,15 * * ? *)', 14],
    // Unevenly twice a day: the longer gap (3:00 to 23:00 is 20 h; 23:00 to 3:00 is 4 h) decides.
    ['cron(0 3,23 * * ? *)', 22],
    // Weekdays: Friday 3:00 to Monday 3:00 is 72 h.
    ['cron(0 3 ? * MON-FRI *)', 74],
    ['cron(0 3 ? * 2-6 *)', 74],
    // Sunday and Wednesday: Wednesday to Sunday is 4 days.
    ['cron(0 3 ? * SUN,WED *)', 98],
    ['cron(0 */6 * * ? *)', 8],
    ['cron(15 1/4 * * ? *)', 6],
    // Office hours: Friday 17:00 to Monday 08:00 is 63 h.
    ['cron(0 8-17 ? * MON-FRI *)', 63 + 2],
    ['rate(1 day)', 26],
    ['rate(12 hours)', 14],
    ['rate(30 minutes)', 3],
    ['rate(1 minute)', 3],
    ['rate(6 days)', 146],
  ])('%s waits %i h', (expression, hours) => {
    expect(hoursOf(expression)).toBe(hours);
  });

  it('accepts the longest gap that fits a 7-day alarm, refuses one hour more', () => {
    expect(hoursOf('rate(166 hours)')).toBe(MAX_HEARTBEAT_HOURS);
    expect(heartbeatWindow('rate(167 hours)')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('167 h apart'),
    });
  });

  it.each([
    ['cron(0 3 ? * SUN *)', 'runs up to 168 h apart; a CloudWatch alarm looks back 168 h at most'],
    ['rate(7 days)', 'runs up to 168 h apart'],
    ['cron(0 3 1 * ? *)', 'day of month, month or year'],
    ['cron(0 3 * 1 ? *)', 'day of month, month or year'],
    ['cron(0 3 * * ? 2027)', 'day of month, month or year'],
    ['cron(0 3 ? * 2#1 *)', 'day-of-week "2#1" not understood'],
    ['cron(0 3 ? * L *)', 'day-of-week "L" not understood'],
    ['cron(0 25 * * ? *)', 'hours "25" not understood'],
    ['cron(61 3 * * ? *)', 'minutes "61" not understood'],
    ['cron(0 3 * * ?)', 'needs 6 fields'],
    ['at(2027-01-01T03:00:00)', 'one-time'],
    ['daily', 'must be cron(...) or rate(...)'],
  ])('refuses %s: %s', (expression, reason) => {
    const window = heartbeatWindow(expression);
    expect(window.ok).toBe(false);
    expect(window.ok ? '' : window.reason).toContain(reason);
  });
});
