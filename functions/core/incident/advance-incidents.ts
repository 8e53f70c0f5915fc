/**
 * One run moves each incident track on; the notices it returns are the only emails the run may send.
 *
 * Per track, in order:
 * - no incident, breaches: open one -> onset; or, when the track's last incident closed at most
 *   FLAPPING_WINDOW_DAYS ago and this run breaks a kind it had, open that one again -> reopened ("flapping:
 *   re-opened"), same id and start: the same fault back, not a new one;
 * - incident, breaches: the clean streak resets; a higher severity or a breach kind not told before, at the
 *   incident's severity or above -> escalation (a lesser new kind is recorded silently while a told kind still
 *   breaks, and told by an escalation once none does); else, when reminders are
 *   on, the incident is at least `reminderMinSeverity` (HIGH) and the last notice is `reminderDays` old ->
 *   reminder; else silence;
 * - incident, no breach: one more clean run; at `recoveryRuns` clean runs in a row -> recovery, and it closes;
 * - the run cannot judge the track (null): nothing changes.
 */
import {
  type Breach,
  type ClosedIncident,
  emptyState,
  type Incident,
  type IncidentState,
  type RunRef,
  severityRank,
  TRACKS,
  type Track,
  worstSeverity,
} from '../report/incident-state.ts';
import type { Observation } from './observe-run.ts';

type NoticeKind = 'onset' | 'reopened' | 'escalation' | 'reminder' | 'recovery';

export interface Notice {
  kind: NoticeKind;
  track: Track;
  /** The incident as it stands after this run (for a recovery: as it was when it closed). */
  incident: Incident;
  /** This run's breaches on the track (empty for a recovery). */
  breaches: Breach[];
  /** For an escalation: the kinds ops had not been told of. */
  newKinds: string[];
  /**
   * Set when the stored state was missing or unreadable and the run before this one had broken the track: ops may
   * have been told of an incident this state no longer holds (an onset may repeat one; a recovery ends one).
   */
  stateLost?: true;
}

export interface IncidentPolicy {
  /** Clean runs in a row that close an incident (default 2: DEFAULT_RECOVERY_RUNS). */
  recoveryRuns: number;
  /** Days between reminders while an incident lasts; null = no reminders (the default). */
  reminderDays: number | null;
  /**
   * Reminders only while the incident is at least this severe (default HIGH): a HIGH or CRITICAL incident left open
   * must not fade after its one onset email, while a MEDIUM or LOW one is told once and then shown in the report.
   */
  reminderMinSeverity?: Breach['severity'];
}

/**
 * Two clean runs close an incident (docs/DETECTION.md): a fault on and off on alternate nights stays one incident
 * (onset, then its recovery two clean nights after it ends: 2 emails, not one a night), and one noisy passing night
 * inside a lasting fault does not declare it "[RESOLVED]". The cost: every recovery email a night later.
 */
export const DEFAULT_RECOVERY_RUNS = 2;
export const DEFAULT_POLICY: IncidentPolicy = { recoveryRuns: DEFAULT_RECOVERY_RUNS, reminderDays: null };
/** The severity from which reminders go out when the policy does not say. */
export const REMINDER_MIN_SEVERITY: Breach['severity'] = 'HIGH';

/** The next state and the notices this run owes, from the state before it and what it observed. */
export function advanceIncidents(options: {
  state: IncidentState | null;
  collection: string;
  environment: string;
  observation: Observation;
  run: RunRef;
  newId: () => string;
  policy?: IncidentPolicy;
  /**
   * Tracks the run before this one had broken, when the state that would say so was lost (missing or unreadable):
   * the incident that run opened, as far as it can be known. A clean run on such a track sends its recovery.
   */
  lost?: Partial<Record<Track, Incident>>;
}): { state: IncidentState; notices: Notice[] } {
  const policy = options.policy ?? DEFAULT_POLICY;
  const before = options.state ?? emptyState(options.collection, options.environment);
  const state: IncidentState = { ...structuredClone(before), last_run: options.run };
  const notices: Notice[] = [];
  for (const track of TRACKS) {
    const breaches = options.observation[track];
    if (breaches === null) continue;
    const open = state.open[track];
    const lost = open === null ? options.lost?.[track] : undefined;
    if (lost !== undefined && breaches.length === 0) {
      // Nothing to close in the state, but ops were likely told the track broke: say it is over, and why so late.
      notices.push({ kind: 'recovery', track, incident: lost, breaches: [], newKinds: [], stateLost: true });
      continue;
    }
    const closed = state.closed?.[track] ?? null;
    const step =
      open === null && closed !== null && flapping(closed, breaches, options.run)
        ? reopen(closed, breaches, options.run)
        : advanceTrack(track, open, persisting(open, breaches, options.run), options.run, policy, options.newId);
    state.open[track] = step.incident;
    if (step.notice?.kind === 'recovery' || step.notice?.kind === 'reopened') {
      const last = state.closed ?? { quality: null, infrastructure: null, suite: null };
      const closing =
        step.notice.kind === 'recovery' ? { ...step.notice.incident, closed_at: options.run.started_at } : null;
      state.closed = { ...last, [track]: closing };
    }
    if (step.notice) notices.push(lost === undefined ? step.notice : { ...step.notice, stateLost: true });
  }
  return { state, notices };
}

/**
 * Days after a recovery within which the same breach on the same track is the same incident come back ("flapping:
 * re-opened"), not a new onset: a fault that comes and goes over a few nights is one problem to ops. Another kind
 * of breach is another problem, and a new onset.
 */
const FLAPPING_WINDOW_DAYS = 3;

/** The closed incident recurs: it closed at most FLAPPING_WINDOW_DAYS ago and this run breaks a kind it had. */
function flapping(closed: ClosedIncident, breaches: Breach[], run: RunRef): boolean {
  const since = Date.parse(run.started_at) - Date.parse(closed.closed_at);
  const kinds = new Set(closed.breaches.map((b) => b.kind));
  return since >= 0 && since <= FLAPPING_WINDOW_DAYS * 86_400_000 && breaches.some((b) => kinds.has(b.kind));
}

/** The closed incident open again: its id and start kept, what this run breaks added to what ops were told. */
function reopen(closed: ClosedIncident, breaches: Breach[], run: RunRef): { incident: Incident; notice: Notice } {
  const { closed_at: _closedAt, ...was } = closed;
  const told = new Set(was.breaches.map((b) => b.kind));
  const incident: Incident = {
    ...was,
    last_seen: run,
    // As bad as it is now: what it was before its recovery is history, and this email is what ops act on.
    severity: worstSeverity(breaches),
    breaches: [...was.breaches, ...breaches.filter((b) => !told.has(b.kind))],
    last_notified_at: run.started_at,
    clean_runs: 0,
    // The clean runs that closed it are not part of it: "lasted N run(s)" counts the broken ones.
    runs: was.runs - was.clean_runs + 1,
    reopened: (was.reopened ?? 0) + 1,
  };
  const newKinds = breaches.filter((b) => !told.has(b.kind)).map((b) => b.kind);
  return { incident, notice: { kind: 'reopened', track: was.track, incident, breaches, newKinds } };
}

/** How long a run ERROR must have lasted to page: the next night's run, not a retry within the same night. */
const ERROR_PAGES_AFTER_HOURS = 12;

/**
 * A run ERROR pages (CRITICAL) only when the track was already broken on the run before (no clean run in between)
 * and the incident is at least ERROR_PAGES_AFTER_HOURS old: the second ERROR night in a row, as Alertmanager's
 * `for:` holds an alert until its condition has lasted. The first one is MEDIUM (observeRun).
 */
function persisting(open: Incident | null, breaches: Breach[], run: RunRef): Breach[] {
  if (open === null || open.track !== 'infrastructure' || open.clean_runs > 0) return breaches;
  const hours = (Date.parse(run.started_at) - Date.parse(open.opened.started_at)) / 3_600_000;
  if (!(hours >= ERROR_PAGES_AFTER_HOURS)) return breaches;
  return breaches.map((b) =>
    b.kind === 'RUN_ERROR' && severityRank(b.severity) < severityRank('CRITICAL')
      ? {
          ...b,
          severity: 'CRITICAL',
          summary: `${b.summary} (run ERROR again: broken since ${open.opened.started_at})`,
        }
      : b,
  );
}

function advanceTrack(
  track: Track,
  open: Incident | null,
  breaches: Breach[],
  run: RunRef,
  policy: IncidentPolicy,
  newId: () => string,
): { incident: Incident | null; notice: Notice | null } {
  if (open === null) {
    if (breaches.length === 0) return { incident: null, notice: null };
    const incident: Incident = {
      id: newId(),
      track,
      opened: run,
      last_seen: run,
      severity: worstSeverity(breaches),
      breaches,
      last_notified_at: run.started_at,
      clean_runs: 0,
      runs: 1,
    };
    return { incident, notice: { kind: 'onset', track, incident, breaches, newKinds: breaches.map((b) => b.kind) } };
  }
  if (breaches.length === 0) {
    const clean = { ...open, clean_runs: open.clean_runs + 1, runs: open.runs + 1 };
    if (clean.clean_runs < policy.recoveryRuns) return { incident: clean, notice: null };
    return { incident: null, notice: { kind: 'recovery', track, incident: clean, breaches: [], newKinds: [] } };
  }
  const recorded = new Set(open.breaches.map((b) => b.kind));
  const untold = new Set(open.untold ?? []);
  const told = new Set([...recorded].filter((kind) => !untold.has(kind)));
  // A new kind below the incident's severity is recorded, not emailed, while a kind ops were told of still breaks:
  // most often the same fault seen from another side on a noisy night (Alertmanager's inhibit rules: a critical
  // alert mutes the warnings of its group while it fires). Once no told kind breaks, what still breaks is another
  // fault that outlived the first: it is told then, once (before, it never was, and the incident stayed open on it
  // while ops, told only of the first, saw that one fixed). A new kind at or above the severity, or a higher
  // severity, is told at once.
  const inhibited = breaches.some((b) => told.has(b.kind));
  const newKinds = breaches
    .filter((b) => !told.has(b.kind) && (!inhibited || severityRank(b.severity) >= severityRank(open.severity)))
    .map((b) => b.kind);
  const stillUntold = [...untold, ...breaches.filter((b) => !recorded.has(b.kind)).map((b) => b.kind)].filter(
    (kind) => !newKinds.includes(kind),
  );
  const worst = worstSeverity(breaches);
  const rose = severityRank(worst) > severityRank(open.severity);
  const { untold: _untold, ...rest } = open;
  const ongoing: Incident = {
    ...rest,
    last_seen: run,
    clean_runs: 0,
    runs: open.runs + 1,
    severity: rose ? worst : open.severity,
    breaches: [...open.breaches, ...breaches.filter((b) => !recorded.has(b.kind))],
    ...(stillUntold.length > 0 ? { untold: stillUntold } : {}),
  };
  if (rose || newKinds.length > 0) {
    const incident = { ...ongoing, last_notified_at: run.started_at };
    return { incident, notice: { kind: 'escalation', track, incident, breaches, newKinds } };
  }
  const days = policy.reminderDays;
  const since = Date.parse(run.started_at) - Date.parse(open.last_notified_at);
  // An hour of slack: a nightly schedule drifts by minutes, and "every day" must not become every other day.
  const severeEnough =
    severityRank(ongoing.severity) >= severityRank(policy.reminderMinSeverity ?? REMINDER_MIN_SEVERITY);
  if (days !== null && severeEnough && since >= days * 86_400_000 - 3_600_000) {
    const incident = { ...ongoing, last_notified_at: run.started_at };
    return { incident, notice: { kind: 'reminder', track, incident, breaches, newKinds: [] } };
  }
  return { incident: ongoing, notice: null };
}
