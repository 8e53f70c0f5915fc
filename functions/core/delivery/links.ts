/**
 * The links every email carries, so the reader can click through instead of searching: the HTML report, the
 * dashboard, and the run's log lines in CloudWatch Logs Insights. Pure: built from names and times, no SDK.
 *
 * The report link is the S3 console page of the HTML object, not a presigned URL. A URL presigned by the function
 * dies with the credentials that signed it (a Lambda role session lasts hours, not the days an email lives), and
 * while it lives it is a bearer token that anyone the email is forwarded to can use. The console page is durable,
 * checks the reader's own AWS sign-in, and its "Open" button presigns for that reader on the spot; the HTML report
 * is self-contained precisely so that it works from such a URL.
 */
export interface RunLinks {
  /** The HTML report's console page (or the JSON's when the HTML was not stored); absent when nothing was stored. */
  report?: string;
  /** The collection's page of past runs, in the S3 console as the report is. */
  runs?: string;
  dashboard?: string;
  logs?: string;
}

export interface RunLinkInputs {
  region: string;
  runId: string;
  /** The run's start and end (ISO 8601): the log query's window, with a margin each side. */
  startedAt: string;
  finishedAt: string;
  /** The stored report: its bucket and the keys of its JSON and (when stored) HTML. */
  report?: { bucket: string; jsonKey: string; htmlKey?: string; runsPageKey?: string };
  dashboardName?: string;
  logGroupName?: string;
}

const CONSOLE = (region: string) => `https://${region}.console.aws.amazon.com`;

/** The S3 console page of one object. */
export function buildS3ConsoleUrl(bucket: string, key: string, region: string): string {
  const query = new URLSearchParams({ region, bucketType: 'general', prefix: key });
  return `${CONSOLE(region)}/s3/object/${encodeURIComponent(bucket)}?${query.toString()}`;
}

/** The links for one run; each is left out when its input is missing. */
export function buildRunLinks(inputs: RunLinkInputs): RunLinks {
  const { region } = inputs;
  const links: RunLinks = {};
  if (inputs.report)
    links.report = buildS3ConsoleUrl(inputs.report.bucket, inputs.report.htmlKey ?? inputs.report.jsonKey, region);
  if (inputs.report?.runsPageKey)
    links.runs = buildS3ConsoleUrl(inputs.report.bucket, inputs.report.runsPageKey, region);
  if (inputs.dashboardName)
    links.dashboard = `${CONSOLE(region)}/cloudwatch/home?region=${region}#dashboards/dashboard/${encodeURIComponent(inputs.dashboardName)}`;
  if (inputs.logGroupName) links.logs = buildLogsInsightsUrl(inputs as RunLinkInputs & { logGroupName: string });
  return links;
}

/**
 * The email's one LINKS section, plain text, one link per line: the HTML report, the page of past runs, the
 * dashboard, the run's logs,
 * then `more` (the report's JSON in S3 or where its only copy is; an incident's first report). Nothing when empty.
 */
export function linkLines(links: RunLinks | undefined, more: string[] = []): string[] {
  const lines = [
    links?.report && `- Report (HTML, in the S3 console; "Open" shows it): ${links.report}`,
    links?.runs && `- Past runs and open incidents (HTML, in the S3 console): ${links.runs}`,
    links?.dashboard && `- Dashboard: ${links.dashboard}`,
    links?.logs && `- This run's log lines (CloudWatch Logs Insights): ${links.logs}`,
    ...more,
  ].filter((l): l is string => typeof l === 'string');
  return lines.length === 0 ? [] : ['LINKS', ...lines, ''];
}

/**
 * A Logs Insights console URL with the query for this run id over the run's window. The console reads its state
 * from the fragment in a JSURL-like form: strings start with ', characters outside [A-Za-z0-9_.-] are written *XX
 * (UTF-8 bytes), and the whole `?queryDetail=...` is URL-encoded with $ in place of %.
 */
function buildLogsInsightsUrl(
  inputs: Pick<RunLinkInputs, 'region' | 'runId' | 'startedAt' | 'finishedAt'> & {
    logGroupName: string;
  },
): string {
  const margin = 5 * 60_000;
  const start = new Date(Date.parse(inputs.startedAt) - margin).toISOString();
  const end = new Date(Date.parse(inputs.finishedAt) + 3 * margin).toISOString();
  const query = `fields @timestamp, level, message, stage, reason\n| filter run_id = "${inputs.runId.replace(/"/g, '')}"\n| sort @timestamp asc`;
  const detail = `~(end~'${jsurl(end)}~start~'${jsurl(start)}~timeType~'ABSOLUTE~tz~'UTC~editorString~'${jsurl(query)}~source~(~'${jsurl(inputs.logGroupName)}))`;
  const fragment = encodeURIComponent(`?queryDetail=${detail}`).replace(/%/g, '$');
  return `${CONSOLE(inputs.region)}/cloudwatch/home?region=${inputs.region}#logsV2:logs-insights${fragment}`;
}

/**
 * A Logs Insights console URL with `query` over the last `seconds`, on one log group. The group's name is written as
 * given, not encoded, so that a CloudFormation reference can stand in it (the dashboard's text widget): a name made
 * by CloudFormation holds only letters, digits and '-', which need no encoding.
 */
export function buildRecentLogsUrl(region: string, logGroupName: string, query: string, seconds: number): string {
  const placeholder = 'LOGGROUPNAME';
  const detail = `~(end~0~start~-${Math.round(seconds)}~timeType~'RELATIVE~unit~'seconds~editorString~'${jsurl(query)}~source~(~'${placeholder}))`;
  const fragment = encodeURIComponent(`?queryDetail=${detail}`).replace(/%/g, '$');
  return `${CONSOLE(region)}/cloudwatch/home?region=${region}#logsV2:logs-insights${fragment.replace(placeholder, logGroupName)}`;
}

function jsurl(text: string): string {
  return Array.from(new TextEncoder().encode(text), (byte) => {
    const c = String.fromCharCode(byte);
    return /[A-Za-z0-9_.-]/.test(c) ? c : `*${byte.toString(16).padStart(2, '0')}`;
  }).join('');
}
