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
