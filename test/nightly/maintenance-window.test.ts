/**
 * The maintenance switch through the real handler and the AWS stand-ins: with a marker in S3, the run still
 * happens and stores a report that says "maintenance", no email goes out and the incident state does not move; when
 * the window ends, the next run alerts as usual. A marker that cannot be honoured alerts as usual.
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { buildIncidentKey } from '../../functions/adapters/aws/s3-incident-store.ts';
import { buildMaintenanceKey } from '../../functions/adapters/aws/s3-maintenance-marker.ts';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { buildFailedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { standInNightlyEnv, useAwsStandIns } from './stand-in-clients.ts';

const standIns = useAwsStandIns('co-key');

const own = { collection: 'book', environment: 'prod' };
const putMarker = (body: string) =>
  standIns.clients.s3.send(
    new PutObjectCommand({ Bucket: standIns.aws.bucket, Key: buildMaintenanceKey(own), Body: body }),
  );

/** One night of a FAILED run, `day` nights after 2026-03-14, on a clock at 02:00 that night. */
async function night(day: number, logger = new RecordingLogger()) {
  const deps = createNightlyDeps(parseNightlyConfig(standInNightlyEnv(standIns.aws)), standIns.clients, logger);
  const at = new Date(Date.UTC(2026, 2, 14 + day, 2));
  deps.clock = { now: () => at, monotonicMs: () => 0 };
  deps.runEngine = async (_engine, run) => {
    const report = buildFailedReport();
    report.run_id = run.newId();
    report.validation_metrics.validation_run_id = report.run_id;
    report.timestamp = at.toISOString();
    return report;
  };
  const result = await createHandler(deps)();
  const location = result.sinks.report.ok ? result.sinks.report.value.location : '';
  // As stored, read as JSON: the fixture's lifecycle keeps its own night, which the schema's order rule would refuse.
  const stored = JSON.parse(
    (await standIns.aws.readObject(location.replace(`s3://${standIns.aws.bucket}/`, ''))) ?? 'null',
  ) as ValidationReport;
  return { result, stored, logger };
}

describe('the maintenance switch', () => {
  it('holds every email and the incident state while the window lasts; the report says maintenance', async () => {
    await putMarker(JSON.stringify({ until: '2026-03-15T06:00:00Z', reason: 're-index to v4' }));

    const first = await night(0);
    const second = await night(1);

    expect(standIns.aws.deliveredAlerts()).toEqual([]);
    for (const { stored, result } of [first, second]) {
      expect(stored.status).toBe('FAILED');
      expect(stored.maintenance).toEqual({ until: '2026-03-15T06:00:00.000Z', reason: 're-index to v4' });
      expect(result.sinks.alert).toEqual({ ok: true, value: { sent: false } });
    }
    expect(first.logger.find('maintenance: alerts held')?.extra).toMatchObject({
      until: '2026-03-15T06:00:00.000Z',
      reason: 're-index to v4',
    });
    expect(await standIns.aws.readObject(buildIncidentKey(own))).toBeUndefined();
  });

  it('alerts as usual once the window has ended, with no maintenance in the report', async () => {
    await putMarker(JSON.stringify({ until: '2026-03-15T06:00:00Z' }));

    await night(0);
    const after = await night(2);

    expect(after.stored.maintenance).toBeUndefined();
    expect(standIns.aws.deliveredAlerts().map((a) => a.attributes.alert_kind)).toEqual(['onset']);
    expect(after.logger.find('maintenance marker not honoured')?.extra.reason).toMatch(
      /ended at 2026-03-15T06:00:00.000Z/,
    );
  });

  it('alerts as usual, and says why, when the marker asks for more than a week', async () => {
    await putMarker(JSON.stringify({ until: '2027-01-01T00:00:00Z' }));

    const run = await night(0);

    expect(standIns.aws.deliveredAlerts()).toHaveLength(1);
    expect(run.stored.maintenance).toBeUndefined();
    expect(run.logger.find('maintenance marker not honoured')?.extra.reason).toMatch(/more than 7 days ahead: refused/);
  });
});
