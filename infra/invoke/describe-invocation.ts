/**
 * What `npm run invoke` prints once the deployed function answered: the run's verdict, where its report is, and each
 * sink that failed; or, when the function itself failed, its error. Pure, so its wording is tested without AWS.
 */
import { buildS3ConsoleUrl } from '../../functions/core/delivery/alert-message.ts';

export interface InvocationAnswer {
  functionName: string;
  region: string;
  /** Lambda's X-Amz-Function-Error header: the handler threw (e.g. an invalid configuration). */
  functionError: string | undefined;
  /** The payload as Lambda returned it (the handler's result or Lambda's error object), as text. */
  payload: string;
}

interface ReportSink {
  ok: boolean;
  error?: string;
  value?: { location?: string; htmlLocation?: string; latestUpdated?: boolean };
}

/** The lines to print and the exit code: 0 for a PASSED run, 1 for any other outcome. */
export function describeInvocation(answer: InvocationAnswer): { lines: string[]; exitCode: number } {
  let result: unknown;
  try {
    result = JSON.parse(answer.payload);
  } catch {
    result = undefined;
  }
  if (answer.functionError !== undefined) {
    const error = (result ?? {}) as { errorType?: string; errorMessage?: string };
    return {
      exitCode: 1,
      lines: [
        `${answer.functionName} failed (${answer.functionError}): ${error.errorType ?? 'Error'}: ${error.errorMessage ?? answer.payload.slice(0, 500)}`,
        'No report was written. The function’s log has every problem ("invalid configuration").',
      ],
    };
  }
  const run = result as { runId?: string; status?: string; statusReason?: string; sinks?: Record<string, unknown> };
  if (typeof run?.runId !== 'string' || typeof run.status !== 'string')
    return {
      exitCode: 1,
      lines: [`${answer.functionName} answered with no run result: ${answer.payload.slice(0, 500)}`],
    };
  const lines = [`Run ${run.runId}: ${run.status} (${run.statusReason ?? 'no reason given'})`];
  const report = run.sinks?.report as ReportSink | undefined;
  if (report?.ok === true && report.value?.location !== undefined) {
    lines.push(`Report: ${report.value.location}`);
    const html = report.value.htmlLocation;
    if (html !== undefined) {
      lines.push(`HTML report: ${html}`);
      const match = /^s3:\/\/([^/]+)\/(.+)$/.exec(html);
      if (match?.[1] && match[2]) lines.push(`Open it: ${buildS3ConsoleUrl(match[1], match[2], answer.region)}`);
    }
  } else
    lines.push(`Report NOT stored: ${report?.error ?? 'no report sink in the result'} (the function’s log holds it)`);
  for (const [name, sink] of Object.entries(run.sinks ?? {}))
    if (name !== 'report' && (sink as ReportSink).ok === false)
      lines.push(`${name} failed: ${(sink as ReportSink).error ?? 'no reason given'}`);
  return { exitCode: run.status === 'PASSED' ? 0 : 1, lines };
}
