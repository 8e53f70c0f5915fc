import { describe, expect, it } from 'vitest';
import { deliveredNothing, type PostRunSinks } from '../../../functions/core/post-run/outcome.ts';
import { NO_METRICS } from '../../../functions/core/post-run/ports.ts';
import { buildPassedReport } from '../../nightly/fixtures/reports.ts';

const stored = { ok: true, value: { location: 's3://b/k.json', latestUpdated: true } } as const;
const notStored = { ok: false, error: 'S3 report did not finish within its 15000 ms bound' } as const;
const metrics = { ok: true, value: { namespace: 'RagWatch', datums: 40, calls: 1 } } as const;
const sent = { ok: true, value: { sent: true, messageId: 'm-1', severity: 'HIGH' } } as const;
const noneDue = { ok: true, value: { sent: false } } as const;
const notSent = { ok: false, error: 'SNS alert did not finish within its 15000 ms bound' } as const;

const sinks = (report: PostRunSinks['report'], alert: PostRunSinks['alert']): PostRunSinks => ({
  report,
  metrics,
  alert,
});

describe('deliveredNothing', () => {
  it('is true when the report was not stored and the alert was not sent', () => {
    expect(deliveredNothing(sinks(notStored, notSent))).toBe(true);
  });

  it('is true when the report was not stored and no alert was due', () => {
    expect(deliveredNothing(sinks(notStored, noneDue))).toBe(true);
  });

  it('is false when the report was not stored but an alert went out', () => {
    expect(deliveredNothing(sinks(notStored, sent))).toBe(false);
  });

  it('is false when the report was stored, whatever became of the alert', () => {
    expect([notSent, noneDue, sent].map((alert) => deliveredNothing(sinks(stored, alert)))).toEqual([
      false,
      false,
      false,
    ]);
  });
});

describe('NO_METRICS', () => {
  it('publishes nothing, in no call, under no namespace', async () => {
    expect(await NO_METRICS.publish(buildPassedReport())).toEqual({ namespace: '', datums: 0, calls: 0 });
    expect(NO_METRICS.name).toBe('no metrics');
  });
});
