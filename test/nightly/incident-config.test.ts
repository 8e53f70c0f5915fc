import { describe, expect, it } from 'vitest';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { problemsOf, VALID } from './nightly-env.ts';

describe('the incident settings of the nightly configuration', () => {
  it('recovers after two clean runs and reminds daily of HIGH and CRITICAL incidents by default', () => {
    expect(parseNightlyConfig(VALID).incidents).toEqual({
      recoveryRuns: 2,
      reminderDays: 1,
      reminderMinSeverity: 'HIGH',
    });
  });

  it('reads ALERT_REMINDER_DAYS, ALERT_REMINDER_MIN_SEVERITY and ALERT_RECOVERY_RUNS', () => {
    const config = parseNightlyConfig({
      ...VALID,
      ALERT_REMINDER_DAYS: '3',
      ALERT_REMINDER_MIN_SEVERITY: 'critical',
      ALERT_RECOVERY_RUNS: '2',
    });
    expect(config.incidents).toEqual({ recoveryRuns: 2, reminderDays: 3, reminderMinSeverity: 'CRITICAL' });
  });

  it('turns reminders off with ALERT_REMINDER_DAYS=0', () => {
    expect(parseNightlyConfig({ ...VALID, ALERT_REMINDER_DAYS: '0' }).incidents.reminderDays).toBeNull();
  });

  it('names a negative or fractional reminder period, or an unknown severity', () => {
    expect(problemsOf({ ...VALID, ALERT_REMINDER_DAYS: '-1' }).join('\n')).toContain('ALERT_REMINDER_DAYS');
    expect(problemsOf({ ...VALID, ALERT_REMINDER_DAYS: '1.5' }).join('\n')).toContain('ALERT_REMINDER_DAYS');
    expect(problemsOf({ ...VALID, ALERT_REMINDER_DAYS: '366' }).join('\n')).toContain('ALERT_REMINDER_DAYS');
    expect(problemsOf({ ...VALID, ALERT_REMINDER_DAYS: '365' })).toEqual([]);
    expect(problemsOf({ ...VALID, ALERT_REMINDER_MIN_SEVERITY: 'URGENT' })).toEqual([
      'ALERT_REMINDER_MIN_SEVERITY: must be one of LOW, MEDIUM, HIGH, CRITICAL, got "URGENT"',
    ]);
  });

  it('names a recovery count under one', () => {
    expect(problemsOf({ ...VALID, ALERT_RECOVERY_RUNS: '0' }).join('\n')).toContain('ALERT_RECOVERY_RUNS');
  });
});
