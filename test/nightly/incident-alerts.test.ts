/**
 * The handler's alert sink under the incident policy, through the real SDK clients against the AWS stand-ins:
 * one email per incident across nights, a quality incident apart from a run ERROR, and the fallback to the run's
 * own alert when the incident state is out of reach.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { buildErrorReport, buildFailedReport, buildPassedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { buildStandInClients, type StandInClients, standInNightlyEnv } from './stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;

beforeAll(async () => {
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': 'co-key' } });
  clients = buildStandInClients(aws.endpoints);
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

beforeEach(() => {
  aws.fauxqs.reset();
});

/** A handler whose engine returns `build()` dated `day` nights after 2026-03-14. */
function night(
  build: () => ValidationReport,
  day: number,
  overrides: Partial<NightlyDeps> = {},
  logger = new RecordingLogger(),
) {
  const config = parseNightlyConfig(standInNightlyEnv(aws));
  const deps = createNightlyDeps(config, clients, logger);
  const runEngine: NightlyDeps['runEngine'] = async (_engine, run) => {
    const report = build();
    report.run_id = run.newId();
    report.timestamp = new Date(Date.UTC(2026, 2, 14 + day, 2)).toISOString();
    return report;
  };
  return createHandler({ ...deps, runEngine, ...overrides })();
}

const kinds = () => aws.deliveredAlerts().map((a) => `${a.attributes.incident_track}:${a.attributes.alert_kind}`);

describe('the nightly handler’s incident emails', () => {
  it('sends one onset across three failing nights, and one recovery on the clean night after', async () => {
    for (const day of [0, 1, 2]) await night(buildFailedReport, day);
    await night(buildPassedReport, 3);
    expect(kinds()).toEqual(['quality:onset', 'quality:recovery']);
    expect(aws.deliveredAlerts()[1]?.message).toContain('LASTED: 3 run(s), 3 night(s)');
  });

  it('opens a run ERROR apart from an open quality incident, with a subject of its own', async () => {
    await night(buildFailedReport, 0);
    await night(buildErrorReport, 1);
    const [quality, error] = aws.deliveredAlerts();
    expect(kinds()).toEqual(['quality:onset', 'infrastructure:onset']);
    expect(error?.subject).toMatch(/run ERROR/);
    expect(error?.subject).not.toBe(quality?.subject);
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
    expect(aws.deliveredAlerts()).toHaveLength(2);
    expect(aws.deliveredAlerts()[0]?.attributes.alert_kind).toBeUndefined();
    expect(logger.find('incident state unavailable; sending this run’s own alert')?.level).toBe('error');
  });
});
