import { describe, expect, it } from 'vitest';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { problemsOf, VALID } from './nightly-env.ts';

describe('the incident settings of the nightly configuration', () => {
  it('recovers after one clean run and sends no reminders by default', () => {
    expect(parseNightlyConfig(VALID).incidents).toEqual({ recoveryRuns: 1, reminderDays: null });
  });

  it('reads ALERT_REMINDER_DAYS and ALERT_RECOVERY_RUNS', () => {
    const config = parseNightlyConfig({ ...VALID, ALERT_REMINDER_DAYS: '3', ALERT_RECOVERY_RUNS: '2' });
    expect(config.incidents).toEqual({ recoveryRuns: 2, reminderDays: 3 });
  });

  it('names a reminder period under one day or not a whole number', () => {
    expect(problemsOf({ ...VALID, ALERT_REMINDER_DAYS: '0' }).join('\n')).toContain('ALERT_REMINDER_DAYS');
    expect(problemsOf({ ...VALID, ALERT_REMINDER_DAYS: '1.5' }).join('\n')).toContain('ALERT_REMINDER_DAYS');
    expect(problemsOf({ ...VALID, ALERT_REMINDER_DAYS: '1' })).toEqual([]);
  });

  it('names a recovery count under one', () => {
    expect(problemsOf({ ...VALID, ALERT_RECOVERY_RUNS: '0' }).join('\n')).toContain('ALERT_RECOVERY_RUNS');
  });
});
