/**
 * The replay's verdict from its nights, per fault episode and its incident track:
 * - detected_first_night: an onset, re-opening (flapping) or escalation on the fault's track on the fault's first
 *   night;
 * - recoveries: a recovery on the fault's track on the first night after it ended (the scenario keeps a clean
 *   night after every fault on a track, and the default policy recovers after 1 clean run); for quality and
 *   suite faults, the first such night whose run completed (an ERROR run cannot judge them);
 * - false_alerts: an onset, escalation or reminder on a track with no fault of that track active that night, or a
 *   recovery not on the night after a fault of its track ended;
 * - duplicate_alerts: any email on the fault's track during the fault's later nights (it was already told), or a
 *   second onset/escalation on its first night.
 */
import { FAULT_KINDS } from './faults.ts';
import type { NightRecord } from './replay.ts';
import type { Scenario } from './scenario.ts';

export interface ReplaySummary {
  faults: number;
  detected_first_night: number;
  recoveries: number;
  false_alerts: number;
  duplicate_alerts: number;
}

/** Counts the summary for the nights that were run (faults that started after the last night are left out). */
export function tallyReplay(scenario: Scenario, records: readonly NightRecord[]): ReplaySummary {
  const last = records.length;
  const emailsOn = (night: number, track: string) => records[night - 1]?.emails.filter((e) => e.track === track) ?? [];
  const explained = new Set<string>();
  const faults = scenario.faults.filter((f) => f.from + f.nights <= last);
  // A fault the run stopped before its recovery night is not counted, and neither are its emails.
  for (const f of scenario.faults.filter((x) => x.from <= last && x.from + x.nights > last))
    for (let night = f.from; night <= last; night += 1)
      for (const e of emailsOn(night, FAULT_KINDS[f.kind].track)) explained.add(`${night}:${e.track}:${e.subject}`);
  let detected = 0;
  let recoveries = 0;
  let duplicates = 0;
  for (const fault of faults) {
    const track = FAULT_KINDS[fault.kind].track;
    const first = emailsOn(fault.from, track);
    const told = first.filter((e) => e.kind === 'onset' || e.kind === 'reopened' || e.kind === 'escalation');
    if (told.length > 0) detected += 1;
    duplicates += Math.max(0, told.length - 1);
    for (const e of first) explained.add(`${fault.from}:${track}:${e.subject}`);
    for (let night = fault.from + 1; night < fault.from + fault.nights; night += 1) {
      const repeats = emailsOn(night, track);
      duplicates += repeats.length;
      for (const e of repeats) explained.add(`${night}:${track}:${e.subject}`);
    }
    // A run that could not complete (ERROR) judges neither quality nor the suite: their recovery waits for the
    // first night after the fault that completed.
    let after = fault.from + fault.nights;
    while (track !== 'infrastructure' && records[after - 1]?.status === 'ERROR') after += 1;
    const recovered = emailsOn(after, track).filter((e) => e.kind === 'recovery');
    if (recovered.length > 0) recoveries += 1;
    for (const e of recovered) explained.add(`${after}:${track}:${e.subject}`);
  }
  const falseAlerts = records
    .flatMap((r) => r.emails.map((e) => `${r.night}:${e.track}:${e.subject}`))
    .filter((key) => !explained.has(key)).length;
  return {
    faults: faults.length,
    detected_first_night: detected,
    recoveries,
    false_alerts: falseAlerts,
    duplicate_alerts: duplicates,
  };
}
