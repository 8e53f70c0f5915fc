/**
 * One run from the terminal, shared by `run` and `demo`: the engine with the real adapters (a progress bar on a
 * terminal, each stage traced with LOG_LEVEL=DEBUG), then the post-run use case on the report folder (compare,
 * store, incidents), then the summary or the JSON on stdout. Returns the exit code.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngineAdapters, runOptionsFromConfig } from '../adapters/engine-adapters.ts';
import { FileIncidentStore } from '../adapters/files/incident-store.ts';
import { FileReportStore } from '../adapters/files/report-store.ts';
import { FileRunHistory } from '../adapters/files/run-history.ts';
import { startRunDeadline } from '../adapters/run-deadline.ts';
import { redact } from '../adapters/transport.ts';
import type { EngineConfig } from '../core/config.ts';
import { DEFAULT_POLICY } from '../core/incident/advance-incidents.ts';
import type { ProgressListener } from '../core/ports.ts';
import { finishRun } from '../core/post-run/finish-run.ts';
import { NO_METRICS } from '../core/post-run/ports.ts';
import { buildRunFailureReport } from '../core/report/failure-report.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { runValidation } from '../core/run/run-validation.ts';
import { describeError } from '../core/shared/errors.ts';
import type { Suite } from '../core/suite/suite.ts';
import { type ExitCode, exitCodeOfRun } from './exit-codes.ts';
import { ansiStyle, formatSummary, plainStyle, type SummaryDetail } from './format-summary.ts';
import { printJson, runSummaryJson } from './json-output.ts';
import { printPostRunEvent, stderrNotices } from './post-run-lines.ts';
import { createProgressReporter } from './progress.ts';

export interface RunOnTerminal {
  config: EngineConfig;
  suite: Suite;
  suiteSource: string;
  /** The report folder (--out). */
  out: string;
  /** On stdout instead of the summary: the whole report's JSON, or its small summary form (run --json summary). */
  json: false | 'report' | 'summary';
  progress: boolean;
  /** Write the HTML report beside the JSON. */
  html: boolean;
  /** List what passed too in the summary. */
  all?: boolean;
  /** -q: the footer alone (and no progress bar); -v: each stage's time too. */
  detail?: SummaryDetail;
}

/** Runs the engine, finishes the run on the report folder, prints it; returns the exit code. */
export async function executeRun(options: RunOnTerminal): Promise<ExitCode> {
  const { config, out } = options;
  const deadline = startRunDeadline(config.runDeadlineSeconds * 1000);
  const deps = createEngineAdapters(config, { run: deadline });
  const progress =
    options.progress && options.detail !== 'quiet' && process.stderr.isTTY
      ? createProgressReporter(process.stderr)
      : undefined;
  const listeners = [progress?.listener, config.logLevel === 'DEBUG' ? traceStages : undefined].filter(
    (l): l is ProgressListener => l !== undefined,
  );
  const startedAt = deps.clock.now();
  let produced: ValidationReport;
  try {
    produced = await runValidation(
      listeners.length > 0
        ? {
            ...deps,
            progress: (e) => {
              for (const l of listeners) l(e);
            },
          }
        : deps,
      { ...runOptionsFromConfig(config), suite: options.suite, suiteSource: options.suiteSource },
    );
  } catch (error) {
    // The engine turns service failures into data; anything thrown here is a defect, and still leaves a report.
    produced = buildRunFailureReport({
      runId: deps.newId(),
      errorId: deps.newId(),
      startedAt,
      finishedAt: deps.clock.now(),
      collection: config.collection,
      environment: config.environment,
      suite: { name: options.suite.name, source: options.suiteSource, query_count: options.suite.queries.length },
      embeddingModel: config.embeddingModel,
      reason: redact(describeError(error), [config.secrets.cohereApiKey, config.secrets.qdrantApiKey]),
      stage: 'engine',
    });
  } finally {
    deadline.cancel();
    progress?.stop();
  }
  const { report, stored } = await finishRun(
    {
      history: new FileRunHistory(out),
      reports: new FileReportStore(out),
      metrics: NO_METRICS,
      incidents: new FileIncidentStore(out),
      notifier: stderrNotices,
      withinStepBound: (_step, run) => run(),
      log: (event) => printPostRunEvent(event, out),
      newId: deps.newId,
    },
    { report: produced, previous: null },
    { html: options.html, policy: DEFAULT_POLICY, ...localDocs() },
  );
  const exitCode = exitCodeOfRun({ stored: stored.ok, status: report.status });
  // Absolute paths: a relative one means nothing once the terminal has moved on, and a file:// link opens on click.
  const written = stored.ok
    ? {
        json: path.resolve(stored.value.location),
        html: stored.value.htmlLocation === null ? null : path.resolve(stored.value.htmlLocation),
        csv: ((csv) => (csv === undefined ? null : path.resolve(csv)))(
          stored.value.attachments.find((f) => f.endsWith('.csv')),
        ),
      }
    : null;
  if (options.json === 'report') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (options.json === 'summary') printJson(runSummaryJson(report, { exitCode, files: written }));
  else {
    const style = process.stdout.isTTY && !process.env.NO_COLOR ? ansiStyle : plainStyle;
    const files = written === null ? {} : { files: written };
    process.stdout.write(
      `${formatSummary(report, { style, all: options.all ?? false, detail: options.detail ?? 'normal', ...files })}\n`,
    );
  }
  return exitCode;
}

/** LOG_LEVEL=DEBUG: each stage's start and end on stderr, timed, for a developer chasing a slow or failing stage. */
const traceStages: ProgressListener = (event) => {
  if (event.kind === 'stage')
    process.stderr.write(`${new Date().toISOString()} stage ${event.stage} ${event.status}\n`);
};

/**
 * The checkout's README.md and docs/ as a file: URL, for the HTML report's docs links: the CLI runs from the
 * project's folder, so the docs a finding points at are on the same disk. Nothing when they are not there.
 */
function localDocs(): { docsRoot?: string } {
  const root = path.resolve(import.meta.dirname, '../..');
  return existsSync(path.join(root, 'README.md')) && existsSync(path.join(root, 'docs'))
    ? { docsRoot: pathToFileURL(root).href }
    : {};
}
