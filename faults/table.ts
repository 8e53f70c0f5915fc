/** The matrix as a Markdown table (it goes into docs/RELIABILITY.md as printed). */

export interface Row {
  case: string;
  group: string;
  surface: 'cli' | 'lambda';
  expected: string;
  outcome: string;
  reportStatus: string | null;
  /** Lambda only: the RunSucceeded value sent, null when none was. */
  runSucceededSent: number | null;
  alertSent: boolean | null;
  secretsFound: string[];
  wallSeconds: number;
  peakRssMb: number | null;
  verdict: 'PASS' | 'FAIL';
  problems: string[];
}

const HEADERS = [
  'case',
  'expected',
  'observed',
  'report',
  'RunSucceeded',
  'alert',
  'secrets',
  'wall s',
  'RSS MB',
  'verdict',
];

export function formatTable(rows: Row[]): string {
  const cells = rows.map((r) => [
    r.case,
    r.expected,
    `${r.surface === 'cli' ? 'CLI' : 'Lambda'}: ${r.outcome}`,
    r.reportStatus ?? 'none',
    r.surface === 'cli' ? 'n/a' : r.runSucceededSent === null ? 'not sent' : String(r.runSucceededSent),
    r.alertSent === null ? 'n/a' : r.alertSent ? 'sent' : 'not sent',
    r.secretsFound.length === 0 ? 'none' : r.secretsFound.join(', '),
    r.wallSeconds.toFixed(1),
    r.peakRssMb === null ? '?' : String(r.peakRssMb),
    r.verdict === 'PASS' ? 'PASS' : `FAIL: ${r.problems.join('; ')}`,
  ]);
  const line = (values: string[]) => `| ${values.map((v) => v.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(HEADERS), line(HEADERS.map(() => '---')), ...cells.map(line)].join('\n');
}
