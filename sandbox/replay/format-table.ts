/** The replay's nights as a plain-text table, one row a night (a row per email when a night sent several). */
import type { NightRecord } from './replay.ts';
import type { ReplaySummary } from './tally.ts';

export function formatReplayTable(records: readonly NightRecord[], summary: ReplaySummary): string {
  const rows: string[][] = [['night', 'date', 'faults', 'status', 'email (kind, severity, subject)']];
  for (const r of records) {
    const emails = r.emails.length === 0 ? ['-'] : r.emails.map((e) => `${e.kind} ${e.severity}: ${e.subject}`);
    for (const [i, email] of emails.entries())
      rows.push(
        i === 0 ? [String(r.night), r.date, r.faults.join(', ') || '-', r.status, email] : ['', '', '', '', email],
      );
  }
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length))) ?? [];
  const line = (row: string[]) =>
    row
      .map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0)))
      .join('  ')
      .trimEnd();
  const s = summary;
  return [
    ...rows.map(line),
    '',
    `faults ${s.faults}, detected on their first night ${s.detected_first_night}, recoveries ${s.recoveries}, false alerts ${s.false_alerts}, duplicate alerts ${s.duplicate_alerts}`,
  ].join('\n');
}

/** One line per scenario and seed, then per scenario the figures over its seeds. */
export function formatScenarioLines(
  runs: readonly { scenario: { name: string }; seed: number; summary: ReplaySummary; misses: string[] }[],
): string {
  const lines = runs.map(({ scenario, seed, summary: s, misses }) => {
    const detect = s.per_fault.map((f) => `${f.id}:${f.detected_on ?? '-'}`).join(' ');
    const resolved = s.per_fault.reduce((n, f) => n + f.resolved_while_active, 0);
    const emails = Object.entries(s.emails)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    return [
      `${scenario.name} | seed ${seed}`,
      `detected on night ${detect || '-'}`,
      `D ${s.detected_first_night}/${s.faults} R ${s.recoveries} X ${s.false_alerts} Y ${s.duplicate_alerts}`,
      `resolved while active ${resolved}`,
      `clean nights ${s.clean_nights}: ${s.clean_night_emails} email(s), ${s.clean_night_pages} HIGH/CRITICAL`,
      `emails: ${emails || 'none'}`,
      misses.length === 0 ? 'target met' : `MISSED: ${misses.join('; ')}`,
    ].join(' | ');
  });
  return lines.join('\n');
}
