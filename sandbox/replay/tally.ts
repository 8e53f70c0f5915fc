/**
 * The replay's verdict from its nights, per fault episode and its incident track:
 * - detected_first_night: an onset, re-opening (flapping) or escalation on the fault's track on the fault's first night that
 *   names what the fault breaks (one of its kind's `names`, in the subject or body): any email that night is not enough;
 * - recoveries: a recovery on the fault's track on the night its `DEFAULT_RECOVERY_RUNS`-th (2nd) clean run after it
 *   ended (the scenarios keep two clean nights after every fault on a track, and the handler's default policy
 *   recovers after 2 clean runs); for quality and suite faults, counting only nights whose run completed (an ERROR
 *   run cannot judge them);
 * - false_alerts: an onset, escalation or reminder on a track with no fault of that track active that night, or a
 *   recovery not on the night after a fault of its track ended;
 * - duplicate_alerts: any email on the fault's track while it lasts other than the first onset or escalation (the
 *   one that told it, whichever night that was).
 * And, for the noisy and long scenarios: per fault, the night it was first detected (named) and the recoveries
 * sent while it was still active; the emails by kind and severity; the emails on nights with no fault at all.
 */
import { DEFAULT_RECOVERY_RUNS } from '../../functions/core/incident/advance-incidents.ts';
import { FAULT_KINDS, type FaultKindSpec } from './faults.ts';
import type { NightRecord } from './replay.ts';
import type { Scenario } from './scenario.ts';
import type { DeliveredEmail } from './world.ts';

interface FaultOutcome {
  id: string;
  kind: string;
  /** The fault's own night (1 = its first) on which an email first named it; null when none did while it lasted. */
  detected_on: number | null;
  /** Recoveries on its track sent while it was still active (each a "[RESOLVED]" that is false). */
  resolved_while_active: number;
  /** A recovery on its track on the first completed night after it ended (false too while it still runs). */
  recovered: boolean;
  /** Emails on its track while it was active. */
  emails: number;
  /** HIGH or CRITICAL emails on its track from its first night to its recovery's night. */
  pages: number;
  /** The fault's own night on which its track first got a HIGH or CRITICAL email; null when none while it lasted. */
  paged_on: number | null;
  /** Its scenario's expectations: a blip that must not page, or a fault that must page within n nights. */
  quiet: boolean;
  /** Named by its reported findings, not by an email (its kind's `reported`): it must be named even when quiet. */
  reported: boolean;
  page_within: number | null;
  /** It ended within the nights run (so its recovery is owed). */
  ended: boolean;
}

export interface ReplaySummary {
  faults: number;
  detected_first_night: number;
  recoveries: number;
  false_alerts: number;
  duplicate_alerts: number;
  /** Every fault that started within the nights run, ended or not. */
  per_fault: FaultOutcome[];
  /** Emails by "kind severity" (e.g. "onset HIGH"). */
  emails: Record<string, number>;
  /** Nights with no fault active on any track, and the emails sent on them (recoveries owed to a fault excepted). */
  clean_nights: number;
  clean_night_emails: number;
  /** Of those, HIGH or CRITICAL. */
  clean_night_pages: number;
}

/** An email that tells of a fault: an onset, a re-opening of a flapping incident, or an escalation. */
const tells = (e: DeliveredEmail) => e.kind === 'onset' || e.kind === 'reopened' || e.kind === 'escalation';

/** Does the email name one of the things the fault breaks? */
function namesFault(email: DeliveredEmail, kind: keyof typeof FAULT_KINDS): boolean {
  const text = `${email.subject}\n${email.body}`;
  return FAULT_KINDS[kind].names.some((name) => text.includes(name));
}

/**
 * Was the fault named on this night: by an onset, re-opening or escalation on its track that names it, or, for a
 * fault whose findings are reported and never emailed, by one of them in the night's stored report.
 */
function namedOn(record: NightRecord | undefined, kind: keyof typeof FAULT_KINDS): boolean {
  const spec: FaultKindSpec = FAULT_KINDS[kind];
  if (spec.reported) return spec.names.some((name) => record?.findings.includes(name));
  return (record?.emails ?? []).some((e) => e.track === spec.track && tells(e) && namesFault(e, kind));
}

/** Counts the summary for the nights that were run (faults that started after the last night are left out). */
export function tallyReplay(scenario: Scenario, records: readonly NightRecord[]): ReplaySummary {
  const last = records.length;
  const emailsOn = (night: number, track: string) => records[night - 1]?.emails.filter((e) => e.track === track) ?? [];
  const explained = new Set<string>();
  const key = (night: number, e: DeliveredEmail) => `${night}:${e.track}:${e.kind}:${e.subject}`;
  const faults = scenario.faults.filter((f) => f.from + f.nights <= last);
  // A fault the run stopped before its recovery night is not counted, and neither are its emails.
  for (const f of scenario.faults.filter((x) => x.from <= last && x.from + x.nights > last))
    for (let night = f.from; night <= last; night += 1)
      for (const e of emailsOn(night, FAULT_KINDS[f.kind].track)) explained.add(key(night, e));
  let detected = 0;
  let recoveries = 0;
  let duplicates = 0;
  for (const fault of faults) {
    const track = FAULT_KINDS[fault.kind].track;
    if (namedOn(records[fault.from - 1], fault.kind)) detected += 1;
    // Every email on its track while it lasts, but the first onset or escalation (the one that told it, on whichever
    // night: a regression-only fault is told when its second night confirms it), is a duplicate.
    let told = false;
    for (let night = fault.from; night < fault.from + fault.nights; night += 1)
      for (const e of emailsOn(night, track)) {
        explained.add(key(night, e));
        if (!told && tells(e)) told = true;
        else duplicates += 1;
      }
    const after = recoveryNight(records, fault.from + fault.nights, track);
    const recovered = emailsOn(after, track).filter((e) => e.kind === 'recovery');
    if (recovered.length > 0) recoveries += 1;
    for (const e of recovered) explained.add(key(after, e));
  }
  const falseAlerts = records
    .flatMap((r) => r.emails.map((e) => key(r.night, e)))
    .filter((k) => !explained.has(k)).length;
  return {
    faults: faults.length,
    detected_first_night: detected,
    recoveries,
    false_alerts: falseAlerts,
    duplicate_alerts: duplicates,
    per_fault: scenario.faults.filter((f) => f.from <= last).map((f) => faultOutcome(f, records)),
    emails: countBy(records.flatMap((r) => r.emails.map((e) => `${e.kind} ${e.severity}`))),
    ...cleanNights(scenario, records),
  };
}

/**
 * The night of the recovery owed to a fault whose first night without it is `night`: the DEFAULT_RECOVERY_RUNS-th
 * night from `night` on whose run could judge `track` (an ERROR run judges neither quality nor suite).
 */
function recoveryNight(records: readonly NightRecord[], night: number, track: string): number {
  const judges = (n: number) => track === 'infrastructure' || records[n - 1]?.status !== 'ERROR';
  let after = night - 1;
  let clean = 0;
  while (clean < DEFAULT_RECOVERY_RUNS) {
    after += 1;
    if (after > records.length || judges(after)) clean += 1;
  }
  return after;
}

function faultOutcome(fault: Scenario['faults'][number], records: readonly NightRecord[]): FaultOutcome {
  const track = FAULT_KINDS[fault.kind].track;
  const end = Math.min(fault.from + fault.nights - 1, records.length);
  let detectedOn: number | null = null;
  let pagedOn: number | null = null;
  let resolved = 0;
  let emails = 0;
  const paging = (e: DeliveredEmail) => e.severity === 'HIGH' || e.severity === 'CRITICAL';
  for (let night = fault.from; night <= end; night += 1) {
    const mine = records[night - 1]?.emails.filter((e) => e.track === track) ?? [];
    emails += mine.length;
    resolved += mine.filter((e) => e.kind === 'recovery').length;
    if (detectedOn === null && namedOn(records[night - 1], fault.kind)) detectedOn = night - fault.from + 1;
    if (pagedOn === null && mine.some(paging)) pagedOn = night - fault.from + 1;
  }
  const after = recoveryNight(records, fault.from + fault.nights, track);
  const recovered =
    after <= records.length &&
    (records[after - 1]?.emails.some((e) => e.track === track && e.kind === 'recovery') ?? false);
  let pages = 0;
  for (let night = fault.from; night <= Math.min(after, records.length); night += 1)
    pages += records[night - 1]?.emails.filter((e) => e.track === track && paging(e)).length ?? 0;
  return {
    id: fault.id,
    kind: fault.kind,
    detected_on: detectedOn,
    resolved_while_active: resolved,
    recovered,
    emails,
    pages,
    paged_on: pagedOn,
    quiet: fault.quiet,
    reported: (FAULT_KINDS[fault.kind] as FaultKindSpec).reported === true,
    page_within: fault.page_within ?? null,
    ended: fault.from + fault.nights <= records.length,
  };
}

/** Nights with no fault active at all, and the emails on them other than a recovery owed to a fault just ended. */
function cleanNights(
  scenario: Scenario,
  records: readonly NightRecord[],
): Pick<ReplaySummary, 'clean_nights' | 'clean_night_emails' | 'clean_night_pages'> {
  const active = (night: number) => scenario.faults.some((f) => night >= f.from && night < f.from + f.nights);
  const owed = new Set(
    scenario.faults.map(
      (f) => `${recoveryNight(records, f.from + f.nights, FAULT_KINDS[f.kind].track)}:${FAULT_KINDS[f.kind].track}`,
    ),
  );
  const clean = records.filter((r) => !active(r.night));
  const stray = clean.flatMap((r) =>
    r.emails.filter((e) => !(e.kind === 'recovery' && owed.has(`${r.night}:${e.track}`))),
  );
  return {
    clean_nights: clean.length,
    clean_night_emails: stray.length,
    clean_night_pages: stray.filter((e) => e.severity === 'HIGH' || e.severity === 'CRITICAL').length,
  };
}

function countBy(keys: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const k of keys) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}

/** What the summary misses of the scenario's target, one line each; empty when the target is met. */
export function targetMisses(scenario: Scenario, s: ReplaySummary): string[] {
  const t = scenario.target;
  const misses: string[] = [];
  for (const [i, f] of s.per_fault.entries()) {
    if (
      (!f.quiet || f.reported) &&
      (i === 0 || !t.detect_first_only) &&
      (f.detected_on === null || f.detected_on > t.detect_within)
    )
      misses.push(
        `fault ${f.id} (${f.kind}) not named within ${t.detect_within} night(s) (${f.detected_on ?? 'never'})`,
      );
    if (f.resolved_while_active > 0) misses.push(`fault ${f.id}: ${f.resolved_while_active} [RESOLVED] while active`);
    if (f.quiet && f.pages > 0) misses.push(`fault ${f.id} (a blip): ${f.pages} HIGH/CRITICAL email(s)`);
    if (f.page_within !== null && (f.paged_on === null || f.paged_on > f.page_within))
      misses.push(`fault ${f.id} (${f.kind}) did not page within ${f.page_within} night(s) (${f.paged_on ?? 'never'})`);
  }
  // A blip that was never told owes no recovery; every other fault that ended does.
  const owed = s.per_fault.filter((f) => f.ended && !(f.quiet && f.emails === 0));
  const unrecovered = owed.filter((f) => !f.recovered).length;
  if (t.recover && unrecovered > 0) misses.push(`${unrecovered} fault(s) without their recovery`);
  if (s.duplicate_alerts > t.max_duplicates) misses.push(`${s.duplicate_alerts} duplicate alert(s)`);
  if (s.false_alerts > t.max_false) misses.push(`${s.false_alerts} false alert(s)`);
  if (s.clean_night_emails > t.max_clean_emails) misses.push(`${s.clean_night_emails} email(s) on clean nights`);
  if (s.clean_night_pages > t.max_clean_pages) misses.push(`${s.clean_night_pages} HIGH/CRITICAL on clean nights`);
  const total = Object.values(s.emails).reduce((a, b) => a + b, 0);
  if (t.max_emails !== null && total > t.max_emails) misses.push(`${total} emails, at most ${t.max_emails}`);
  return misses;
}
