import { describe, expect, it } from 'vitest';
import { InputError } from '../../functions/core/errors.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';

const VALID = {
  QDRANT_URL: 'https://qdrant.example.org:6333',
  DOCUSAURUS_BASE_URL: 'https://book.example.org',
  REPORT_BUCKET: 'ragwatch-reports-123',
  ALERT_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:ragwatch-alerts',
  COHERE_SECRET_ID: 'ragwatch/cohere',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseNightlyConfig(env);
    return [];
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
}

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
