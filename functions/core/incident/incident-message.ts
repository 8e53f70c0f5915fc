/**
 * A notice -> the email ops (or the suite's maintainer) read. The first lines say what kind of email it is, what
 * broke, how badly, since when (the incident's start, however many nights ago) and where the reports are; the
 * per-run details (failing queries, URLs, figures) follow, from the run alert's own body.
 */
import {
  type AlertContext,
  type AlertMessage,
  buildS3ConsoleUrl,
  reportLinkLines,
  runDetailLines,
  toSubject,
} from '../delivery/alert-message.ts';
import { linkLines } from '../delivery/links.ts';
import { type CauseContext, causeLine, noQueryCompleted } from '../delivery/run-causes.ts';
import { type Incident, type RunRef, severityRank, type Track, worstSeverity } from '../report/incident-state.ts';
import type { ValidationReport } from '../report/report.ts';
import { truncate } from '../shared/errors.ts';
import { type Notice, REMINDER_MIN_SEVERITY } from './advance-incidents.ts';

export interface IncidentMessage extends AlertMessage {
  kind: Notice['kind'];
}

const TITLES: Record<Track, string> = {
  quality: 'quality regressed',
  infrastructure: 'run ERROR',
  suite: 'suite stale, for its maintainer',
};
const NOUNS: Record<Track, string> = {
  quality: 'quality incident',
  infrastructure: 'run-failure incident',
  suite: 'suite-maintenance incident',
};
/** Line 2 of a suite email: who acts, and that retrieval is not at fault. */
const AUDIENCE_SUITE =
  'For the suite’s maintainer: the golden suite expects pages the book no longer has. Retrieval is not at fault.';
const MAX_LISTED = 20;
const STATE_LOST =
  'The incident state was lost (missing, or not readable and replaced) while the run before this one had broken this track: this email may repeat or end one ops already had.';

/**
 * The email for a notice about `report`'s run. Line 1 says what happened in words, line 2 the likeliest cause (or,
 * for a recovery, how long it lasted), line 3 how bad and since when; then the one links block, what is broken,
 * the run's details and what email comes next.
 */
export function buildIncidentMessage(
  notice: Notice,
  report: ValidationReport,
  context: AlertContext & {
    region: string;
    reminderDays: number | null;
    reminderMinSeverity?: Notice['incident']['severity'];
  },
): IncidentMessage {
  const { incident, track, kind } = notice;
  const subject = toSubject(subjectOf(notice, report));
  const lines = [headline(notice, report)];
  if (kind === 'recovery') {
    // Its own wording: no severity line (nothing is broken now), how long it lasted, what recovered.
    lines.push(
      notice.stateLost
        ? `It lasted since at least ${incident.opened.started_at}. Nothing to do.`
        : `It lasted ${lasted(incident, notice)}, from ${incident.opened.started_at} to this run at ${report.timestamp} (run ${report.run_id}). Nothing to do.`,
      ...(notice.stateLost ? [STATE_LOST] : []),
      '',
      ...linkLines(context.links, [
        ...reportLinkLines(context.placement).map((l) => l.replace('- Report JSON:', '- This run (clean), JSON:')),
        ...beganLines(incident.opened, context.region),
      ]),
      'WHAT RECOVERED',
      ...incident.breaches.map((b) => `- ${truncate(b.summary, 300)} [was ${b.severity}]`),
      '',
    );
    if (incident.reopened) lines.push(`FLAPPING: it came back ${incident.reopened} time(s) after a recovery`, '');
    return { kind, severity: incident.severity, subject, body: lines.join('\n').trimEnd() };
  }
  lines.push(
    track === 'suite' ? AUDIENCE_SUITE : causeLine(report, causeContextOf(context)),
    `Severity: ${incident.severity}; open since ${incident.opened.started_at} (${incident.runs} run(s)); this run ${report.timestamp} (run ${report.run_id}), ${report.status}`,
    ...(notice.stateLost ? [STATE_LOST] : []),
    '',
    ...linkLines(context.links, [
      ...reportLinkLines(context.placement),
      ...(kind === 'onset' ? [] : beganLines(incident.opened, context.region)),
    ]),
    kind === 'escalation' ? 'WHAT CHANGED (new or worse since the last email)' : 'WHAT IS BROKEN',
  );
  for (const b of notice.breaches.slice(0, MAX_LISTED))
    lines.push(
      `- ${notice.newKinds.includes(b.kind) && kind === 'escalation' ? 'NEW ' : ''}${truncate(b.summary, 300)} [${b.severity}]`,
    );
  lines.push('', ...findingLines(report, track), ...runDetailLines(report, context), '');
  lines.push(nextEmails(context.reminderDays, context.reminderMinSeverity ?? REMINDER_MIN_SEVERITY, incident));
  return { kind, severity: incident.severity, subject, body: lines.join('\n') };
}

/** The subject: how bad, which kind of email, where, and what broke (the cause in it when it fits). */
function subjectOf(notice: Notice, report: ValidationReport): string {
  const { incident, track } = notice;
  const where = `RagWatch ${report.environment}/${report.collection}`;
  const what = whatBroke(notice.breaches);
  switch (notice.kind) {
    case 'onset':
      // Quality: the breaches are the news; a run failure: what failed (the report unstored first, ops' one act).
      if (track === 'quality') return `[${incident.severity}] ${where}: ${what}`;
      if (track === 'infrastructure') return `[${incident.severity}] ${where}: ${infrastructureWhat(notice, report)}`;
      return `[${incident.severity}] ${where}: ${TITLES[track]}: ${what}`;
    case 'reopened':
      return `[${incident.severity}] FLAPPING ${where}: ${TITLES[track]} re-opened: ${what}`;
    case 'escalation':
      return `[${incident.severity}] ESCALATED ${where}: ${TITLES[track]}: ${whatBroke(fresh(notice).length > 0 ? fresh(notice) : notice.breaches)}`;
    case 'reminder':
      return `[${incident.severity}] STILL OPEN ${where}: ${TITLES[track]} since ${incident.opened.started_at.slice(0, 10)}: ${what}`;
    case 'recovery':
      return notice.stateLost
        ? `[RESOLVED] ${where}: ${NOUNS[track]} over (the incident state was lost)`
        : `[RESOLVED] ${where}: ${NOUNS[track]} over after ${lasted(incident, notice)}`;
  }
}

/** A run failure in a subject: "report NOT stored" and/or "run ERROR: <reason>". */
function infrastructureWhat(notice: Notice, report: ValidationReport): string {
  const kinds = new Set(notice.breaches.map((b) => b.kind));
  const what = kinds.has('REPORT_NOT_STORED') ? ['report NOT stored'] : [];
  if (report.status === 'ERROR')
    what.push(`run ERROR: ${report.status_reason.replace(/^the run could not complete:\s*/i, '')}`);
  return what.join(', ') || `${TITLES.infrastructure}: ${whatBroke(notice.breaches)}`;
}

/** The breaches of kinds ops had not been told of (an escalation's news). */
function fresh(notice: Notice): Notice['breaches'] {
  return notice.breaches.filter((b) => notice.newKinds.includes(b.kind));
}

/** Breaches in words, each once (two kinds may read the same), for a subject or a headline. */
function whatBroke(breaches: Notice['breaches'], max = 3): string {
  const words = [...new Set(breaches.map((b) => b.summary.replace(/^run ERROR: /, '')))];
  const shown = words.slice(0, max).map((w) => truncate(w, 120));
  return `${shown.join(', ')}${words.length > shown.length ? `, and ${words.length - shown.length} more` : ''}`;
}

function causeContextOf(context: AlertContext): CauseContext {
  const p = context.placement;
  return {
    stored: p.stored,
    ...(p.stored ? {} : { notStored: { reason: p.reason, fallback: p.fallback } }),
    ...(context.failedSinks ? { failedSinks: context.failedSinks } : {}),
  };
}

/** Line 1: what happened, in words, for a reader who reads no further. */
function headline(notice: Notice, report: ValidationReport): string {
  const name = `"${report.collection}" (${report.environment})`;
  const { incident, track } = notice;
  // A run failure's breach is its reason, which line 2 gives: line 1 says what it means instead.
  const what = track === 'infrastructure' ? '' : `: ${whatBroke(notice.breaches)}`;
  const event: Record<Track, string> = {
    // Every query errored: the searches failed, not retrieval's quality (line 2 says what they met).
    quality:
      noQueryCompleted(report) && report.error_queries > 0
        ? `no query on ${name} could be searched`
        : `retrieval on ${name} got worse`,
    infrastructure:
      report.status === 'ERROR'
        ? `the nightly run of ${name} could not complete`
        : `the nightly run of ${name} could not store its report`,
    suite: `the golden suite of ${name} expects pages the book no longer has`,
  };
  switch (notice.kind) {
    case 'onset':
      return `${capital(event[track])}${track === 'infrastructure' && report.status === 'ERROR' ? ', so nothing was validated' : what}.`;
    case 'reopened':
      return `Back after its recovery (flapping: re-opened, ${incident.reopened ?? 1} time(s)): ${event[track]}${what}.`;
    case 'escalation':
      // Every breach new: none of the kinds told before breaks any more (a lesser fault that outlived the first,
      // held back while the first broke), so "now also has" would say the first is still there.
      // (An escalation always has breaches: a run without any is clean, never an escalation.)
      if (fresh(notice).length === notice.breaches.length)
        return `Changed: what the ${NOUNS[track]} on ${name} was opened for no longer breaks, but it now has ${whatBroke(fresh(notice))} (${worstSeverity(fresh(notice))}).`;
      return fresh(notice).length > 0
        ? `Worse: the ${NOUNS[track]} on ${name} now also has ${whatBroke(fresh(notice))}; ${incident.severity} now.`
        : `Worse: the ${NOUNS[track]} on ${name} is ${incident.severity} now, after ${incident.runs} runs${track === 'infrastructure' && report.status === 'ERROR' ? ' that could not complete' : ''}.`;
    case 'reminder':
      return `Still open since ${incident.opened.started_at.slice(0, 10)} (${incident.runs} runs): the ${NOUNS[track]} on ${name}${what}.`;
    case 'recovery':
      return `Resolved: the ${NOUNS[track]} on ${name} is over; this run is clean.`;
  }
}

function capital(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function findingLines(report: ValidationReport, track: Track): string[] {
  const findings = (report.regression?.findings ?? []).filter((f) =>
    // Golden-set rot and new failing queries are the suite maintainer's; the rest is retrieval's.
    f.kind === 'SUITE_STALE' || f.addressed_to === 'suite maintainer' ? track === 'suite' : track === 'quality',
  );
  if (findings.length === 0) return [];
  const lines = [`REGRESSIONS AGAINST THE BASELINE (${findings.length})`];
  for (const f of findings.slice(0, MAX_LISTED)) lines.push(`- ${f.kind} [${f.severity}]: ${truncate(f.message, 300)}`);
  const runs = report.regression?.baseline_runs ?? [];
  if (runs.length > 0)
    lines.push(`Baseline: ${runs.length} runs, ${runs.at(-1)?.started_at} to ${runs[0]?.started_at}`);
  return [...lines, ''];
}

/** The incident's first report, in the links block: its console page (the report's JSON, as the state keeps it). */
function beganLines(ref: RunRef, region: string): string[] {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(ref.report);
  if (!s3?.[1] || !s3[2]) return [`- When it began: ${ref.report} (run ${ref.run_id})`];
  return [`- When it began (${ref.started_at}): ${buildS3ConsoleUrl(s3[1], s3[2], region)}`];
}

function nextEmails(reminderDays: number | null, minSeverity: Incident['severity'], incident: Incident): string {
  const reminder =
    reminderDays === null || severityRank(incident.severity) < severityRank(minSeverity)
      ? ''
      : `, and a reminder every ${reminderDays} day(s) while it is ${minSeverity === 'CRITICAL' ? 'CRITICAL' : `${minSeverity} or worse`}`;
  return `No more email while this lasts, unless it gets worse (a new kind of breach or a higher severity)${reminder}; one email will say when it is over.`;
}

function lasted(incident: Incident, notice: Notice): string {
  const ms = Date.parse(notice.incident.last_seen.started_at) - Date.parse(incident.opened.started_at);
  const broken = incident.runs - incident.clean_runs;
  const days = Math.round(ms / 86_400_000);
  return days >= 1 ? `${broken} run(s), ${days + 1} night(s)` : `${broken} run(s)`;
}
