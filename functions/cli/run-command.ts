/**
 * `ragwatch run`: the full validation against real services named by the environment (the seeds' variables:
 * COHERE_API_KEY, QDRANT_URL, QDRANT_API_KEY, DOCUSAURUS_BASE_URL, SIMILARITY_THRESHOLD, TOP_K_RESULTS, LOG_LEVEL, ...).
 */
import { createEngineAdapters, runOptionsFromConfig } from '../adapters/engine-adapters.ts';
import { FileIncidentStore } from '../adapters/files/incident-store.ts';
import { FileReportStore } from '../adapters/files/report-store.ts';
import { FileRunHistory } from '../adapters/files/run-history.ts';
import { loadSuiteFile } from '../adapters/files/suite-file.ts';
import { startRunDeadline } from '../adapters/run-deadline.ts';
import { redact } from '../adapters/transport.ts';
import { type EngineConfig, parseEngineConfig } from '../core/config.ts';
import { settleIncidents } from '../core/incident/settle-incidents.ts';
import type { ProgressListener } from '../core/ports.ts';
import { compareWithStoredHistory } from '../core/regression/post-run.ts';
import { buildReportAttachments } from '../core/render/attachments.ts';
import { readTrendHistory } from '../core/render/read-trend.ts';
import { buildRunFailureReport } from '../core/report/failure-report.ts';
import type { ValidationReport } from '../core/report/report.ts';
import { runValidation } from '../core/run/run-validation.ts';
import { describeError } from '../core/shared/errors.ts';
import type { Suite } from '../core/suite/suite.ts';
import { ansiStyle, formatSummary, plainStyle } from './format-summary.ts';
import { createProgressReporter } from './progress.ts';

export interface RunFlags {
  suite: string;
  out: string;
  collection?: string;
  sitemapUrl?: string;
  json?: boolean;
  progress: boolean;
  /** The run's deadline in seconds (env RUN_DEADLINE_SECONDS). */
  deadline?: string;
  /** Write the HTML report beside the JSON (default; --no-html turns it off). */
  html?: boolean;
}

/** The report could not be written under --out: it went to stderr in full instead. */
export const EXIT_REPORT_NOT_WRITTEN = 3;

/** Runs the validation from flags and the environment; returns the exit code. */
export async function runCheck(
  flags: RunFlags,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const config = parseEngineConfig({
    ...env,
    ...(flags.collection ? { QDRANT_COLLECTION: flags.collection } : {}),
    ...(flags.sitemapUrl ? { SITEMAP_URL: flags.sitemapUrl } : {}),
    ...(flags.deadline !== undefined ? { RUN_DEADLINE_SECONDS: flags.deadline } : {}),
  });
  const suite = await loadSuiteFile(flags.suite);
  return executeRun({
    config,
    suite,
    suiteSource: flags.suite,
    out: flags.out,
    json: flags.json ?? false,
    progress: flags.progress,
    html: flags.html ?? true,
  });
}

/** Runs the engine with real adapters, saves the report, prints it; shared by `run` and `demo`. */
export async function executeRun(options: {
  config: EngineConfig;
  suite: Suite;
  suiteSource: string;
  out: string;
  json: boolean;
  progress: boolean;
  html?: boolean;
}): Promise<number> {
  const deadline = startRunDeadline(options.config.runDeadlineSeconds * 1000);
  const deps = createEngineAdapters(options.config, { run: deadline });
  const progress = options.progress && process.stderr.isTTY ? createProgressReporter(process.stderr) : undefined;
  // LOG_LEVEL=DEBUG: each stage's start and end on stderr, timed, for a developer chasing a slow or failing stage.
  const debug: ProgressListener | undefined =
    options.config.logLevel === 'DEBUG'
      ? (event) => {
          if (event.kind === 'stage')
            process.stderr.write(`${new Date().toISOString()} stage ${event.stage} ${event.status}\n`);
        }
      : undefined;
  const listeners = [progress?.listener, debug].filter((l): l is ProgressListener => l !== undefined);
  const startedAt = deps.clock.now();
  let report: ValidationReport;
  try {
    report = await runValidation(
      listeners.length > 0
        ? {
            ...deps,
            progress: (e) => {
              for (const l of listeners) l(e);
            },
          }
        : deps,
      {
        ...runOptionsFromConfig(options.config),
        suite: options.suite,
        suiteSource: options.suiteSource,
      },
    );
  } catch (error) {
    // The engine turns service failures into data; anything thrown here is a defect, and still leaves a report.
    report = buildRunFailureReport({
      runId: deps.newId(),
      errorId: deps.newId(),
      startedAt,
      finishedAt: deps.clock.now(),
      collection: options.config.collection,
      environment: options.config.environment,
      suite: { name: options.suite.name, source: options.suiteSource, query_count: options.suite.queries.length },
      embeddingModel: options.config.embeddingModel,
      reason: redact(describeError(error), [options.config.secrets.cohereApiKey, options.config.secrets.qdrantApiKey]),
      stage: 'engine',
    });
  } finally {
    deadline.cancel();
    progress?.stop();
  }
  // What changed since the earlier runs in the same folder (the regression section).
  const compared = await compareWithStoredHistory(report, new FileRunHistory(options.out), deps.newId);
  report = compared.report;
  if (compared.historyError !== null)
    process.stderr.write(`ragwatch: earlier reports under ${options.out} not read: ${compared.historyError}\n`);
  let location: string | undefined;
  let htmlLocation: string | undefined;
  try {
    const store = new FileReportStore(options.out);
    const history = await readTrendHistory(new FileRunHistory(options.out), report);
    const saved = await store.save(report, buildReportAttachments(report, { history, html: options.html ?? true }));
    location = saved.location;
    htmlLocation = saved.attachments.find((file) => file.endsWith('.html'));
  } catch (error) {
    // Nothing is lost: if the report cannot be written, it goes to stderr in full.
    process.stderr.write(
      `ragwatch: could not write the report under ${options.out}: ${(error as Error).message}\n${JSON.stringify(report)}\n`,
    );
  }
  // One notice per incident, as the nightly job would email it: the CLI prints one line per notice on stderr.
  const settled = await settleIncidents({
    store: new FileIncidentStore(options.out),
    report,
    reportLocation: location ?? null,
    newId: deps.newId,
  });
  if (!settled.ok) process.stderr.write(`ragwatch: ${settled.error}\n`);
  else
    for (const { kind, track, incident, breaches } of settled.notices) {
      const what = kind === 'recovery' ? incident.breaches : breaches;
      process.stderr.write(
        `ragwatch: ${track} incident ${kind} [${incident.severity}] since ${incident.opened.started_at}: ${what.map((b) => b.summary).join('; ')}\n`,
      );
    }
  if (options.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const style = process.stdout.isTTY && !process.env.NO_COLOR ? ansiStyle : plainStyle;
    process.stdout.write(
      `${formatSummary(report, { style, ...(location ? { reportLocation: location } : {}), ...(htmlLocation ? { htmlLocation } : {}) })}\n`,
    );
  }
  if (location === undefined) return EXIT_REPORT_NOT_WRITTEN;
  return report.status === 'PASSED' ? 0 : 1;
}
