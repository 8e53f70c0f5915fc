/** One row of the fault matrix: what is broken, what ops must get, and the check that decides the verdict. */
import type { Observed, RunSpec } from './drive.ts';
import type { World } from './world.ts';

export interface Case {
  name: string;
  group: 'Qdrant' | 'Cohere' | 'sitemap' | 'AWS' | 'deadline';
  /** What must happen, in words: the "expected" column. */
  expected: string;
  /** Breaks the world (after a reset) and says how to run: which surface, which environment. */
  arrange(world: World): RunSpec | Promise<RunSpec>;
  /** Every failed expectation, in words; empty when the row passes. */
  check(observed: Observed, world: World): string[];
}

/** Findings of the report, as "TYPE: message" lines. */
export function findings(o: Observed): string[] {
  return (o.report?.errors ?? []).map((e) => `${e.error_type}: ${e.message}`);
}

/** Checks shared by every row: no secret anywhere, and the run left a report (or the Lambda said why not). */
export function common(o: Observed): string[] {
  const problems: string[] = [];
  if (o.secretsFound.length > 0) problems.push(`secrets found: ${o.secretsFound.join(', ')}`);
  return problems;
}

export function expectExit(o: Observed, codes: number[]): string[] {
  return o.exitCode !== null && codes.includes(o.exitCode)
    ? []
    : [`exit ${o.exitCode}, expected ${codes.join(' or ')}`];
}

/** The exit code README's table gives the report's status: FAILED 1, ERROR 4 (and PASSED 0). */
export function expectExitOfStatus(o: Observed): string[] {
  const code = { PASSED: 0, FAILED: 1, ERROR: 4 }[o.report?.status ?? 'ERROR'] ?? 4;
  return o.exitCode === code
    ? []
    : [`exit ${o.exitCode} on a ${o.report?.status ?? 'missing'} report, expected ${code}`];
}

export function expectStatus(o: Observed, statuses: string[]): string[] {
  const status = o.report?.status ?? 'no report';
  return statuses.includes(status) ? [] : [`report status ${status}, expected ${statuses.join(' or ')}`];
}

/** A finding of one of `types` whose message matches `pattern`. */
export function expectFinding(o: Observed, types: string[], pattern: RegExp): string[] {
  const hit = (o.report?.errors ?? []).some((e) => types.includes(e.error_type) && pattern.test(e.message));
  return hit ? [] : [`no ${types.join('/')} finding matching ${pattern}`];
}

export function expectWithin(o: Observed, seconds: number): string[] {
  return o.wallSeconds <= seconds ? [] : [`took ${o.wallSeconds.toFixed(1)} s, more than ${seconds} s`];
}

export function expectRssUnder(o: Observed, mb: number): string[] {
  return o.peakRssMb !== null && o.peakRssMb <= mb ? [] : [`peak RSS ${o.peakRssMb ?? '?'} MB, more than ${mb} MB`];
}
