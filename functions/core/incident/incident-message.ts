/**
 * A notice -> the email ops (or the suite's maintainer) read. The first lines say what kind of email it is, what
 * broke, how badly, since when (the incident's start, however many nights ago) and where the reports are; the
 * per-run details (failing queries, URLs, figures) follow, from the run alert's own body.
 */
import {
  type AlertContext,
  type AlertMessage,
  buildAlertMessage,
  buildS3ConsoleUrl,
  toSubject,
} from '../delivery/alert-message.ts';
import { linkLines } from '../delivery/links.ts';
import { type Incident, type RunRef, severityRank, type Track } from '../report/incident-state.ts';
import type { ValidationReport } from '../report/report.ts';
import { truncate } from '../shared/errors.ts';
import { type Notice, REMINDER_MIN_SEVERITY } from './advance-incidents.ts';

export interface IncidentMessage extends AlertMessage {
  kind: Notice['kind'];
}

const TITLES: Record<Track, string> = {
  quality: 'quality regressed',
  infrastructure: 'run ERROR',
  suite: 'golden suite stale (for the suite maintainer)',
};
const NOUNS: Record<Track, string> = {
  quality: 'quality incident',
  infrastructure: 'run-failure incident',
  suite: 'suite-maintenance incident',
};
const AUDIENCE: Record<Track, string> = {
  quality: 'Retrieval got worse than its baseline or breached a success criterion.',
  infrastructure: 'The nightly run could not complete or could not store its report: nothing was validated.',
  suite:
    'For the suite’s maintainer: the golden suite expects pages the book no longer has. Retrieval is not at fault.',
};
const MAX_LISTED = 20;
const STATE_LOST =
  'The incident state was lost (missing, or not readable and replaced) while the run before this one had broken this track: this email may repeat or end one ops already had.';

/** The email for a notice about `report`'s run. */
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
  const where = `RagWatch ${report.environment}/${report.collection}`;
  // The run's own alert: its subject already names what broke (criteria with values, or the run error), and its
  // body carries the per-run details.
  // Without the links: this email lists them itself, near the top.
  const { links: runLinks, ...detailContext } = context;
  const details = buildAlertMessage(report, { ...detailContext, maxBodyBytes: 200_000 });
  const runSubjectFits =
    details !== null &&
    ((track === 'quality' && report.status === 'FAILED') ||
      (track === 'infrastructure' && (report.status === 'ERROR' || !context.placement.stored)));
  const subjects: Record<Notice['kind'], string> = {
    onset:
      runSubjectFits && details
        ? withSeverity(details.subject, details.severity, incident.severity)
        : `[${incident.severity}] ${where}: ${TITLES[track]}: ${notice.breaches.map(label).join(', ')}`,
    reopened: `[${incident.severity}] FLAPPING ${where}: ${TITLES[track]} re-opened: ${notice.breaches.map(label).join(', ')}`,
    escalation: `[${incident.severity}] ESCALATED ${where}: ${TITLES[track]}: new ${notice.newKinds.map(kindLabel).join(', ') || 'severity'}`,
    reminder: `[${incident.severity}] STILL OPEN ${where}: ${TITLES[track]} since ${incident.opened.started_at.slice(0, 10)}`,
    recovery: notice.stateLost
      ? `[RESOLVED] ${where}: ${NOUNS[track]} over (the incident state was lost)`
      : `[RESOLVED] ${where}: ${NOUNS[track]} over after ${lasted(incident, notice)}`,
  };
  const lines = [
    headline(notice, report),
    ...(notice.stateLost ? [STATE_LOST] : []),
    AUDIENCE[track],
    `Severity: ${incident.severity}`,
    `Since: ${incident.opened.started_at} (run ${incident.opened.run_id}; ${incident.runs} run(s) so far)`,
    `This run: ${report.timestamp} (run ${report.run_id}), status ${report.status}`,
    '',
    ...linkLines(runLinks),
  ];
  if (kind === 'recovery') {
    lines.push('WHAT RECOVERED', ...incident.breaches.map((b) => `- ${truncate(b.summary, 300)} [${b.severity}]`), '');
    if (incident.reopened) lines.push(`FLAPPING: it came back ${incident.reopened} time(s) after a recovery`, '');
    lines.push(
      notice.stateLost
        ? `LASTED: unknown, at least since ${incident.opened.started_at} (the incident state was lost)`
        : `LASTED: ${lasted(incident, notice)} (${incident.opened.started_at} to ${report.timestamp})`,
      '',
    );
    lines.push('REPORTS', ...links('When it began', incident.opened, context.region));
    lines.push(...placementLinks('Now (clean)', context, report), '');
  } else {
    lines.push(kind === 'escalation' ? 'WHAT CHANGED (new or worse since the last email)' : 'WHAT CHANGED');
    for (const b of notice.breaches.slice(0, MAX_LISTED))
      lines.push(
        `- ${notice.newKinds.includes(b.kind) && kind === 'escalation' ? 'NEW ' : ''}${truncate(b.summary, 300)} [${b.severity}]`,
      );
    lines.push('', ...findingLines(report, track), 'REPORTS', ...placementLinks('This run', context, report));
    if (kind !== 'onset') lines.push(...links('When it began', incident.opened, context.region));
    lines.push(
      '',
      nextEmails(context.reminderDays, context.reminderMinSeverity ?? REMINDER_MIN_SEVERITY, incident),
      '',
    );
    // "Since" is the incident's (above); the run alert's own look at the night before would contradict it.
    // The incident's severity rules (a first ERROR night is MEDIUM, the run alert's own would say CRITICAL).
    if (details)
      lines.push(
        'DETAILS OF THIS RUN',
        ...details.body
          .split('\n')
          .filter((l) => !l.startsWith('Previous run:'))
          .map((l) => withSeverity(l, details.severity, incident.severity, 'Severity: ')),
      );
  }
  return { kind, severity: incident.severity, subject: toSubject(subjects[kind]), body: lines.join('\n') };
}

/** `text` with its leading "[SEV]" (or "Severity: SEV") naming the incident's severity instead of the run's. */
function withSeverity(text: string, run: string, incident: string, lead: 'bracket' | 'Severity: ' = 'bracket'): string {
  const [from, to] = lead === 'bracket' ? [`[${run}]`, `[${incident}]`] : [`${lead}${run}`, `${lead}${incident}`];
  return text.startsWith(from) ? `${to}${text.slice(from.length)}` : text;
}

function headline(notice: Notice, report: ValidationReport): string {
  const name = `"${report.collection}" (${report.environment})`;
  switch (notice.kind) {
    case 'onset': {
      // What broke, in the first line: an on-call reader may read no further.
      const what = notice.breaches.slice(0, 3).map((b) => truncate(b.summary, 120));
      const more = notice.breaches.length > what.length ? `, and ${notice.breaches.length - what.length} more` : '';
      return `A ${NOUNS[notice.track]} opened on ${name}${what.length > 0 ? `: ${what.join(', ')}${more}` : ''}.`;
    }
    case 'reopened': {
      const what = notice.breaches.slice(0, 3).map((b) => truncate(b.summary, 120));
      return `The ${NOUNS[notice.track]} on ${name} is back days after its recovery email (flapping: re-opened, ${notice.incident.reopened ?? 1} time(s)), the same incident${what.length > 0 ? `: ${what.join(', ')}` : ''}.`;
    }
    case 'escalation':
      return `The ${NOUNS[notice.track]} on ${name} got worse: ${notice.newKinds.map(kindLabel).join(', ') || `severity rose to ${notice.incident.severity}`}.`;
    case 'reminder':
      return `Reminder: the ${NOUNS[notice.track]} on ${name} is still open.`;
    case 'recovery':
      return `The ${NOUNS[notice.track]} on ${name} is over: this run is clean.`;
  }
}

function findingLines(report: ValidationReport, track: Track): string[] {
  const findings = (report.regression?.findings ?? []).filter((f) =>
    track === 'suite' ? f.kind === 'SUITE_STALE' : track === 'quality' && f.kind !== 'SUITE_STALE',
  );
  if (findings.length === 0) return [];
  const lines = [`REGRESSIONS AGAINST THE BASELINE (${findings.length})`];
  for (const f of findings.slice(0, MAX_LISTED)) lines.push(`- ${f.kind} [${f.severity}]: ${truncate(f.message, 300)}`);
  const runs = report.regression?.baseline_runs ?? [];
  if (runs.length > 0)
    lines.push(`Baseline: ${runs.length} runs, ${runs.at(-1)?.started_at} to ${runs[0]?.started_at}`);
  return [...lines, ''];
}

function placementLinks(label: string, context: AlertContext, report: ValidationReport): string[] {
  const p = context.placement;
  if (!p.stored) return [`- ${label}: NOT STORED (${truncate(p.reason)}); see ${p.fallback}, run ${report.run_id}`];
  return [`- ${label}: s3://${p.bucket}/${p.key}`, `  ${buildS3ConsoleUrl(p.bucket, p.key, p.region)}`];
}

function links(label: string, ref: RunRef, region: string): string[] {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(ref.report);
  if (!s3?.[1] || !s3[2]) return [`- ${label}: ${ref.report} (run ${ref.run_id})`];
  return [`- ${label}: ${ref.report}`, `  ${buildS3ConsoleUrl(s3[1], s3[2], region)}`];
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

function label(b: { kind: string; summary: string }): string {
  return b.kind.startsWith('criterion:') ? b.summary : kindLabel(b.kind);
}

function kindLabel(kind: string): string {
  return kind.replace(/^criterion:/, '').replace(/^METRIC_DROPPED:/, '');
}
