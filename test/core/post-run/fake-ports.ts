/**
 * The post-run ports in memory, each recording what it was asked and able to fail on demand: a folder-like report
 * sink, a metrics sink, a notifier whose messages name the notice, and the incident store of test/fakes.
 */
import type { AlertMessage } from '../../../functions/core/delivery/alert-message.ts';
import type { RunDigest } from '../../../functions/core/history/run-digest.ts';
import type { Notice } from '../../../functions/core/incident/advance-incidents.ts';
import type { RunHistory } from '../../../functions/core/ports.ts';
import type { Delivery, PostRunEvent, PostRunPorts, StoredReport } from '../../../functions/core/post-run/ports.ts';
import type { ReportAttachment } from '../../../functions/core/render/attachments.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { MemoryIncidentStore } from '../../fakes/memory-incident-store.ts';

export interface Recorded {
  archived: { report: ValidationReport; attachments: ReportAttachment[] }[];
  latest: { report: ValidationReport; attachments: ReportAttachment[] }[];
  published: ValidationReport[];
  noticeDeliveries: Delivery<StoredReport>[];
  runAlertDeliveries: Delivery<StoredReport>[];
  sent: { message: AlertMessage; labels: Parameters<PostRunPorts<StoredReport>['notifier']['send']>[1] }[];
  steps: string[];
  events: PostRunEvent[];
  historyQueries: Parameters<RunHistory['recentRuns']>[0][];
}

export interface FakeOptions {
  history?: RunDigest[] | Error;
  archive?: Error;
  htmlLocation?: string | null;
  latest?: Error;
  metrics?: Error;
  /** The run alert the notifier composes (null: none due). */
  runAlert?: AlertMessage | null;
  /** The 1-based send that fails, with its error. */
  failSend?: { at: number; error: Error };
  /** Rejects the whole step with this error instead of running it. */
  stepBound?: Error;
  incidents?: MemoryIncidentStore;
}

/** The ports, and what they recorded. */
export function fakePorts(options: FakeOptions = {}): { ports: PostRunPorts<StoredReport>; seen: Recorded } {
  const seen: Recorded = {
    archived: [],
    latest: [],
    published: [],
    noticeDeliveries: [],
    runAlertDeliveries: [],
    sent: [],
    steps: [],
    events: [],
    historyQueries: [],
  };
  let ids = 0;
  const ports: PostRunPorts<StoredReport> = {
    history: {
      recentRuns: async (query) => {
        seen.historyQueries.push(query);
        if (options.history instanceof Error) throw options.history;
        return options.history ?? [];
      },
    },
    reports: {
      saveArchive: async (report, attachments) => {
        seen.archived.push({ report, attachments });
        if (options.archive) throw options.archive;
        return { location: `/reports/${report.run_id}.json`, htmlLocation: options.htmlLocation ?? null };
      },
      saveLatest: async (report, attachments) => {
        seen.latest.push({ report, attachments });
        if (options.latest) throw options.latest;
      },
    },
    metrics: {
      name: 'the metrics sink',
      publish: async (report) => {
        seen.published.push(report);
        if (options.metrics) throw options.metrics;
        return { namespace: 'Test', datums: 3, calls: 1 };
      },
    },
    incidents: options.incidents ?? new MemoryIncidentStore(),
    notifier: {
      composeNotice: (notice: Notice, delivery) => {
        seen.noticeDeliveries.push(delivery);
        return { subject: `${notice.track} ${notice.kind}`, body: 'body', severity: notice.incident.severity };
      },
      composeRunAlert: (delivery) => {
        seen.runAlertDeliveries.push(delivery);
        return options.runAlert === undefined
          ? { subject: 'run alert', body: 'b', severity: 'HIGH' }
          : options.runAlert;
      },
      send: async (message, labels) => {
        seen.sent.push({ message, labels });
        if (options.failSend?.at === seen.sent.length) throw options.failSend.error;
        return { messageId: `m-${seen.sent.length}` };
      },
    },
    withinStepBound: async (step, run) => {
      seen.steps.push(step);
      if (options.stepBound) throw options.stepBound;
      return run();
    },
    log: (event) => seen.events.push(event),
    newId: () => `id-${++ids}`,
  };
  return { ports, seen };
}

/** The events of one kind, in order. */
export function eventsOf<K extends PostRunEvent['kind']>(
  seen: Recorded,
  kind: K,
): Extract<PostRunEvent, { kind: K }>[] {
  return seen.events.filter((e): e is Extract<PostRunEvent, { kind: K }> => e.kind === kind);
}
