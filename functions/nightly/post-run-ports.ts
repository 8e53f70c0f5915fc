/**
 * The post-run use case's ports in the Lambda (core/post-run/ports.ts): the S3 report store, history and incident
 * state, CloudWatch, the emails through SNS and the logger. Every call runs within one sink bound of its own
 * (adapters/bounded.ts), so a hung endpoint costs at most that bound and never holds up another sink past it; the
 * alert step as a whole is held to three (its state write, its emails, putting the state back).
 */
import type { ArchivedReport } from '../adapters/aws/s3-report-store.ts';
import { withinBound } from '../adapters/bounded.ts';
import { buildS3ConsoleUrl } from '../core/delivery/links.ts';
import type { IncidentStore } from '../core/ports.ts';
import { composeEmails } from '../core/post-run/emails.ts';
import { judgeMaintenance, type MaintenanceVerdict } from '../core/post-run/maintenance.ts';
import type { PostRunPorts, PreviousRun } from '../core/post-run/ports.ts';
import { prefetchIncidentState } from '../core/post-run/prefetch.ts';
import { describeError } from '../core/shared/errors.ts';
import type { NightlyDeps } from './deps.ts';
import { logPostRunEvents } from './log-events.ts';

/**
 * Started with the invocation, beside the engine: the run before this one (for the run alert's "since when"; its
 * failure only costs that line) and the incident state (so the alert step only writes), each within its bound.
 */
export function startEarlyReads(deps: NightlyDeps): {
  previous: Promise<PreviousRun | null | undefined>;
  incidents: IncidentStore;
  maintenance: Promise<MaintenanceVerdict>;
} {
  const { config, logger } = deps;
  const bound = (what: string) => ({ what, ms: config.sinkTimeoutMs });
  const previous = withinBound(bound('S3 previous run'), (signal) =>
    deps.reportStore.readLatest(config.engine.collection, { signal }),
  ).catch((error: unknown) => {
    logger.warn('previous report not read', { reason: describeError(error) });
    return undefined;
  });
  const bounded: IncidentStore = {
    read: (key) => withinBound(bound('S3 incident state read'), () => deps.incidents.read(key)),
    write: (key, state, version) =>
      withinBound(bound('S3 incident state write'), () => deps.incidents.write(key, state, version)),
  };
  const own = { collection: config.engine.collection, environment: config.engine.environment };
  return { previous, incidents: prefetchIncidentState(bounded, own), maintenance: readMaintenance(deps, own) };
}

/**
 * The planned maintenance window, judged at the run's start. A marker that cannot be read or honoured alerts as
 * usual, and the log says why: a maintenance switch must never be how an incident goes unseen.
 */
async function readMaintenance(
  deps: NightlyDeps,
  own: { collection: string; environment: string },
): Promise<MaintenanceVerdict> {
  const where = deps.maintenance.uri(own);
  const verdict = await withinBound({ what: 'S3 maintenance marker', ms: deps.config.sinkTimeoutMs }, (signal) =>
    deps.maintenance.read(own, { signal }),
  ).then(
    (text) => judgeMaintenance(text, deps.clock.now(), where),
    (error: unknown) => ({
      active: false as const,
      note: `maintenance marker ${where} not read (${describeError(error)}): alerting as usual`,
    }),
  );
  if (!verdict.active && verdict.note !== null)
    deps.logger.warn('maintenance marker not honoured', { reason: verdict.note });
  return verdict;
}

/** The ports for one invocation; `incidents` is the store startEarlyReads began reading. */
export function nightlyPostRunPorts(
  deps: NightlyDeps,
  incidents: IncidentStore,
  runId: string,
): PostRunPorts<ArchivedReport> {
  const { config } = deps;
  const ms = config.sinkTimeoutMs;
  const bound = (what: string) => ({ what, ms });
  return {
    // History is best effort: a hung S3 costs the regression section and the trend, not the run.
    history: { recentRuns: (query) => withinBound(bound('S3 history'), () => deps.history.recentRuns(query)) },
    reports: {
      saveArchive: (report, attachments) =>
        withinBound(bound('S3 report'), (signal) => deps.reportStore.saveArchive(report, { signal, attachments })),
      saveLatest: async (report, attachments) => {
        await withinBound(bound('S3 latest.json copy'), (signal) =>
          deps.reportStore.saveLatest(report, { signal, attachments }),
        );
      },
      // Each run's link is its HTML's S3 console page, as in the emails: a relative link would need a presigned URL.
      saveRunsPage: async (report, render) => {
        await withinBound(bound('S3 runs page'), (signal) =>
          deps.reportStore.saveRunsPage(report, render, {
            signal,
            link: (key) => buildS3ConsoleUrl(config.reportBucket, key, config.region),
          }),
        );
      },
    },
    metrics: {
      name: 'CloudWatch metrics',
      publish: (report) =>
        withinBound(bound('CloudWatch metrics'), (signal) => deps.metrics.publish(report, { signal })),
    },
    incidents,
    notifier: {
      ...composeEmails({
        region: config.region,
        dashboardName: config.dashboardName,
        logGroupName: config.logGroupName,
        reminderDays: config.incidents.reminderDays,
        reminderMinSeverity: config.incidents.reminderMinSeverity,
      }),
      send: (message, labels) =>
        withinBound(bound('SNS alert'), (signal) => deps.alerter.send(message, labels, { signal })),
    },
    withinStepBound: (step, run) => withinBound({ what: step, ms: 3 * ms }, () => run()),
    log: logPostRunEvents(deps.logger, runId),
    newId: deps.newId,
  };
}
