/**
 * How the Lambda's time is split: the engine gets the invocation's remaining time minus a reserve, and the reserve
 * is what the steps after the engine can take at worst, each within one sink bound: the read of earlier runs for
 * the regression section (S3); the report (S3) and the metrics (CloudWatch), in parallel; the incident state's
 * conditional write (S3); the alert (SNS); when SNS failed, putting the incident state back (S3); and the page of
 * past runs (S3, after the alert step so it shows the incidents as the run left them): six bounds in series (the
 * previous run and the incident state are read beside the engine). The slack covers serialising the report,
 * logging it in full when S3 refuses it, and the log flush before Lambda freezes the process. With the defaults
 * (15 s bounds) the reserve is 100 s, so a 600 s function gives the engine 500 s.
 */

/** Time for what is not a sink call: JSON of a large report, the log line that carries it, the flush. */
const DELIVERY_SLACK_MS = 10_000;
/** The engine always gets at least this much, even when the reserve would leave it nothing: it then reports TIMEOUT. */
const MIN_ENGINE_BUDGET_MS = 1_000;

/**
 * Sink bounds in series after the engine: history; report and metrics; incident write; alert; incident revert;
 * runs page.
 */
const SINK_BOUNDS_IN_SERIES = 6;

/** What the steps after the engine need: six sink bounds in series plus the slack. */
export function deliveryReserveMs(sinkTimeoutMs: number): number {
  return SINK_BOUNDS_IN_SERIES * sinkTimeoutMs + DELIVERY_SLACK_MS;
}

/**
 * The engine's budget: the configured run deadline, tightened to the invocation's remaining time minus the
 * reserve when Lambda says how much time is left (tests and local calls may not).
 */
export function engineBudgetMs(options: {
  runDeadlineSeconds: number;
  sinkTimeoutMs: number;
  remainingMs: number | undefined;
}): number {
  const configured = options.runDeadlineSeconds * 1000;
  if (options.remainingMs === undefined) return configured;
  const left = options.remainingMs - deliveryReserveMs(options.sinkTimeoutMs);
  return Math.max(MIN_ENGINE_BUDGET_MS, Math.min(configured, left));
}
