/**
 * The handler's alert sink under the incident policy, through the real SDK clients against the AWS stand-ins:
 * one email per incident across nights, a quality incident apart from a run ERROR, the fallback to the run's
 * own alert when the incident state is out of reach, and the state itself under stress: two runs at once, a body
 * that is not JSON, a deleted object.
 */
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { buildIncidentKey } from '../../functions/adapters/aws/s3-incident-store.ts';
import type { IncidentStore } from '../../functions/core/ports.ts';
import { IncidentState } from '../../functions/core/report/incident-state.ts';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { standInNightlyEnv, useAwsStandIns } from './stand-in-clients.ts';

const standIns = useAwsStandIns('co-key');

/** A handler whose engine returns `build()` dated `day` nights after 2026-03-14. */
function night(
  build: () => ValidationReport,
  day: number,
  overrides: Partial<NightlyDeps> = {},
  logger = new RecordingLogger(),
  env: Record<string, string> = {},
) {
  const config = parseNightlyConfig({ ...standInNightlyEnv(standIns.aws), ...env });
  const deps = createNightlyDeps(config, standIns.clients, logger);
  const runEngine: NightlyDeps['runEngine'] = async (_engine, run) => {
    const report = build();
    report.run_id = run.newId();
    report.timestamp = new Date(Date.UTC(2026, 2, 14 + day, 2)).toISOString();
    return report;
  };
  return createHandler({ ...deps, runEngine, ...overrides })();
}

const kinds = () =>
  standIns.aws.deliveredAlerts().map((a) => `${a.attributes.incident_track}:${a.attributes.alert_kind}`);

describe('the nightly handler’s incident emails', () => {
  it('with reminders off, sends one onset across three failing nights, and one recovery on the second clean night', async () => {
    const off = { ALERT_REMINDER_DAYS: '0' };
    for (const day of [0, 1, 2]) await night(buildFailedReport, day, {}, new RecordingLogger(), off);
    await night(buildPassedReport, 3, {}, new RecordingLogger(), off);
    // ALERT_RECOVERY_RUNS defaults to 2: one clean night is not yet a recovery.
    expect(kinds()).toEqual(['quality:onset']);
    await night(buildPassedReport, 4, {}, new RecordingLogger(), off);
    expect(kinds()).toEqual(['quality:onset', 'quality:recovery']);
    expect(standIns.aws.deliveredAlerts()[1]?.message.split('\n')[1]).toMatch(
      /^It lasted 3 run\(s\), 3 night\(s\), from /,
    );
  });

  it('by default, reminds of a HIGH or CRITICAL incident every night it lasts, and says so in the onset', async () => {
    for (const day of [0, 1, 2]) await night(buildFailedReport, day);
    for (const day of [3, 4]) await night(buildPassedReport, day);
    expect(kinds()).toEqual(['quality:onset', 'quality:reminder', 'quality:reminder', 'quality:recovery']);
    expect(standIns.aws.deliveredAlerts()[0]?.attributes.severity).toMatch(/^(HIGH|CRITICAL)$/);
    expect(standIns.aws.deliveredAlerts()[0]?.message).toContain(
      'and a reminder every 1 day(s) while it is HIGH or worse',
    );
    expect(standIns.aws.deliveredAlerts()[1]?.subject).toMatch(/STILL OPEN/);
  });

  it('opens a run ERROR apart from an open quality incident, with a subject of its own', async () => {
    await night(buildFailedReport, 0);
    await night(buildErrorReport, 1);
    const [quality, error] = standIns.aws.deliveredAlerts();
    expect(kinds()).toEqual(['quality:onset', 'infrastructure:onset']);
    expect(error?.subject).toMatch(/run ERROR/);
    expect(error?.subject).not.toBe(quality?.subject);
  });

  it('re-opens the same incident, flapping, when the fault is back a night after its recovery', async () => {
    await night(buildFailedReport, 0);
    await night(buildPassedReport, 1);
    await night(buildPassedReport, 2);
    await night(buildFailedReport, 3);
    // By the fourth night the failed fixture's extra queries read as new to the suite: their own track, not this one.
    const quality = () => kinds().filter((k) => k.startsWith('quality:'));
    expect(quality()).toEqual(['quality:onset', 'quality:recovery', 'quality:reopened']);
    const back = standIns.aws.deliveredAlerts()[2];
    // Its pass-rate breach is now those new queries' (the suite's news), so coverage, the closed incident's too,
    // is what came back.
    expect(back?.subject).toMatch(
      /^\[HIGH\] FLAPPING RagWatch prod\/book: quality regressed re-opened: coverage 7.41% < 100%/,
    );
    expect(back?.message).toContain('flapping: re-opened, 1 time(s)');
    expect(back?.message).toContain('open since 2026-03-14T02:00:00.000Z');
    await night(buildPassedReport, 4);
    await night(buildPassedReport, 5);
    expect(quality()).toEqual(['quality:onset', 'quality:recovery', 'quality:reopened', 'quality:recovery']);
    const recovery = standIns.aws.deliveredAlerts().filter((a) => a.attributes.incident_track === 'quality')[3];
    expect(recovery?.message).toContain('FLAPPING: it came back 1 time(s) after a recovery');
  });

  it('opens a run ERROR at MEDIUM (no page for a blip) and escalates to CRITICAL on the second ERROR night', async () => {
    await night(buildErrorReport, 0);
    await night(buildErrorReport, 1);
    await night(buildErrorReport, 2);
    const sent = standIns.aws.deliveredAlerts().map((a) => `${a.attributes.alert_kind} ${a.attributes.severity}`);
    // The third night: the daily reminder, on by default for a CRITICAL incident.
    expect(sent).toEqual(['onset MEDIUM', 'escalation CRITICAL', 'reminder CRITICAL']);
    expect(standIns.aws.deliveredAlerts()[0]?.subject).toMatch(/^\[MEDIUM\] RagWatch prod\/book: run ERROR: /);
    expect(standIns.aws.deliveredAlerts()[1]?.subject).toMatch(
      /^\[CRITICAL\] ESCALATED RagWatch prod\/book: run ERROR/,
    );
    expect(standIns.aws.deliveredAlerts()[1]?.message).toContain(
      'run ERROR again: broken since 2026-03-14T02:00:00.000Z',
    );
  });

  it('falls back to the run’s own alert, every night, when the incident state cannot be read', async () => {
    const logger = new RecordingLogger();
    const unreachable = {
      incidents: {
        read: async () => {
          throw new Error('AccessDenied');
        },
        write: async () => null,
      },
    };
    await night(buildFailedReport, 0, unreachable, logger);
    await night(buildFailedReport, 1, unreachable, logger);
    expect(standIns.aws.deliveredAlerts()).toHaveLength(2);
    expect(standIns.aws.deliveredAlerts()[0]?.attributes.alert_kind).toBeUndefined();
    expect(logger.find('incident state unavailable; sending this run’s own alert')?.level).toBe('error');
  });

  const stateKey = buildIncidentKey({ collection: 'book', environment: 'prod' });
  const putState = (body: string) =>
    standIns.clients.s3.send(new PutObjectCommand({ Bucket: standIns.aws.bucket, Key: stateKey, Body: body }));
  const readState = async () => {
    const object = await standIns.clients.s3.send(new GetObjectCommand({ Bucket: standIns.aws.bucket, Key: stateKey }));
    return IncidentState.parse(JSON.parse((await object.Body?.transformToString('utf8')) ?? ''));
  };

  it('sends one onset, and no run alert, when two runs overlap on the onset night (both read the state first)', async () => {
    const logger = new RecordingLogger();
    const deps = createNightlyDeps(parseNightlyConfig(standInNightlyEnv(standIns.aws)), standIns.clients, logger);
    // Each run holds its engine until both have read the state: both then settle on the same version.
    let reads = 0;
    let bothRead: () => void = () => {};
    const readByBoth = new Promise<void>((resolve) => {
      bothRead = resolve;
    });
    const counted: IncidentStore = {
      read: async (key) => {
        const state = await deps.incidents.read(key);
        reads += 1;
        if (reads === 2) bothRead();
        return state;
      },
      write: (key, state, version) => deps.incidents.write(key, state, version),
    };
    const run = () =>
      night(
        buildFailedReport,
        0,
        {
          incidents: counted,
          runEngine: async (_engine, r) => {
            await readByBoth;
            return { ...buildFailedReport(), run_id: r.newId(), timestamp: '2026-03-14T02:00:00.000Z' };
          },
        },
        logger,
      );
    const [first, second] = await Promise.all([run(), run()]);
    expect(kinds()).toEqual(['quality:onset']);
    expect(reads).toBe(3); // the loser read the store again, not its early answer
    expect([first.sinks.alert, second.sinks.alert].filter((a) => a.ok && a.value.sent)).toHaveLength(1);
    expect(logger.find('incident state unavailable; sending this run’s own alert')).toBeUndefined();
    expect((await readState()).open.quality?.runs).toBe(2);
  });

  it('repairs a state that is not JSON on the next run, and the clean night after sends the recovery', async () => {
    const logger = new RecordingLogger();
    await night(buildFailedReport, 0);
    await putState('{"schema_version": "1", "open": {'); // cut short: not JSON
    await night(buildFailedReport, 1, {}, logger);
    expect(logger.find('incident state replaced')?.level).toBe('warn');
    expect((await readState()).open.quality?.opened.started_at).toBe('2026-03-15T02:00:00.000Z');
    await night(buildPassedReport, 2);
    await night(buildPassedReport, 3);
    expect(kinds()).toEqual(['quality:onset', 'quality:onset', 'quality:recovery']);
    const [, repeat, recovery] = standIns.aws.deliveredAlerts();
    expect(repeat?.message).toContain('The incident state was lost');
    expect(recovery?.subject).toMatch(/^\[RESOLVED\] .*quality incident over after 1 run\(s\)$/);
    expect((await readState()).open.quality).toBeNull();
  });

  it('sends the recovery, saying the state was lost, when the state is gone and the clean run follows a failed one', async () => {
    await night(buildFailedReport, 0);
    await standIns.clients.s3.send(new DeleteObjectCommand({ Bucket: standIns.aws.bucket, Key: stateKey }));
    await night(buildPassedReport, 1);
    expect(kinds()).toEqual(['quality:onset', 'quality:recovery']);
    const recovery = standIns.aws.deliveredAlerts()[1];
    expect(recovery?.subject).toMatch(/^\[RESOLVED\] .*quality incident over \(the incident state was lost\)/);
    expect(recovery?.message).toContain('was FAILED');
    expect((await readState()).open.quality).toBeNull();
    await night(buildPassedReport, 2);
    expect(standIns.aws.deliveredAlerts()).toHaveLength(2);
  });

  it('sends an onset that says it may repeat one when the state is gone and the run fails again, then one recovery', async () => {
    const off = { ALERT_REMINDER_DAYS: '0' };
    const at = (build: () => ValidationReport, day: number) => night(build, day, {}, new RecordingLogger(), off);
    await at(buildFailedReport, 0);
    await standIns.clients.s3.send(new DeleteObjectCommand({ Bucket: standIns.aws.bucket, Key: stateKey }));
    await at(buildFailedReport, 1);
    expect(kinds()).toEqual(['quality:onset', 'quality:onset']);
    expect(standIns.aws.deliveredAlerts()[1]?.message).toContain('The incident state was lost');
    // The state is written again: the next failing night is silent, and two clean ones send one recovery.
    expect((await readState()).open.quality?.opened.started_at).toBe('2026-03-15T02:00:00.000Z');
    await at(buildFailedReport, 2);
    for (const day of [3, 4]) await at(buildPassedReport, day);
    expect(kinds()).toEqual(['quality:onset', 'quality:onset', 'quality:recovery']);
    expect(standIns.aws.deliveredAlerts()[2]?.subject).not.toContain('(the incident state was lost)');
  });

  it('sends the recovery when a body that is not JSON stands where the state was and the clean run follows a failed one', async () => {
    const logger = new RecordingLogger();
    await night(buildFailedReport, 0);
    await putState('not json at all');
    await night(buildPassedReport, 1, {}, logger);
    expect(kinds()).toEqual(['quality:onset', 'quality:recovery']);
    expect(standIns.aws.deliveredAlerts()[1]?.subject).toContain('(the incident state was lost)');
    expect(logger.find('incident state replaced')).toBeDefined();
    expect((await readState()).last_run?.started_at).toBe('2026-03-15T02:00:00.000Z');
  });

  it('does not let an old run that finishes late reopen what a newer run closed', async () => {
    const logger = new RecordingLogger();
    await night(buildFailedReport, 0);
    await night(buildPassedReport, 2);
    await night(buildPassedReport, 3);
    await night(buildFailedReport, 1, {}, logger); // started two nights before, finished after
    expect(kinds()).toEqual(['quality:onset', 'quality:recovery']);
    expect(logger.find('incident state not moved by an older run')?.extra.reason).toMatch(/older than/);
    expect((await readState()).open.quality).toBeNull();
  });
});
