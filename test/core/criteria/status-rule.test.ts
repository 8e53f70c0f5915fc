/**
 * The run's status rule (docs/DATA-MODEL.md, "The run's status"), pinned per finding type and severity on both
 * sides: which findings fail the run on their own, which are their success criterion's to judge, and that each
 * criterion named there is declared by a check that raises that finding.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideRunStatus } from '../../../functions/core/criteria/criteria.ts';
import {
  type CriterionResult,
  ERROR_TYPES,
  type ErrorType,
  failsTheRun,
  JUDGED_BY,
  type Severity,
} from '../../../functions/core/report/findings.ts';
import { CHECKS } from '../../../functions/core/run/checks.ts';

const SEVERITIES: Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];
const DATA_MODEL = readFileSync(path.join(import.meta.dirname, '..', '..', '..', 'docs', 'DATA-MODEL.md'), 'utf8');

/** Written out here, not derived: the finding types whose HIGH fails the run whatever the criteria say. */
const HIGH_FAILS_THE_RUN: ErrorType[] = [
  'CATEGORY_EXPECTATION_MISSED',
  'DIMENSION_MISMATCH',
  'MODEL_MISMATCH',
  'SITEMAP_FAILED',
  'SITEMAP_URL_REFUSED',
  'SITEMAP_TRUNCATED',
  'GROUNDING_FAILED',
  'UNSUPPORTED_CLAIM',
  'RUN_FAILED',
  'UNSUPPORTED_DISTANCE',
  'INDEX_ANOMALY',
  'SMALL_CHUNKS',
];

const criterion = (name: string, value: number, threshold: number, passed: boolean): CriterionResult => ({
  name,
  description: name,
  value,
  threshold,
  comparator: name === 'pass_rate' ? '>=' : '<=',
  passed,
  severity: 'HIGH',
});
const holds = [criterion('pass_rate', 95, 90, true)];

const cases = ERROR_TYPES.flatMap((type) => SEVERITIES.map((severity) => ({ type, severity })));

describe('the run status rule, per finding type and severity', () => {
  it.each(cases)('$severity $type', ({ type, severity }) => {
    const fails =
      type !== 'CRITERION_BREACHED' &&
      (severity === 'CRITICAL' || (severity === 'HIGH' && HIGH_FAILS_THE_RUN.includes(type)));
    const finding = { error_type: type, severity };
    expect(failsTheRun(finding)).toBe(fails);
    expect(decideRunStatus([], holds, [finding]).status).toBe(fails ? 'FAILED' : 'PASSED');
  });
});

describe('a HIGH finding its criterion judges', () => {
  const breached = [criterion('stale_chunk_pages', 6, 5, false)];
  const tolerated = [criterion('stale_chunk_pages', 3, 5, true)];
  const stale = { error_type: 'STALE_CHUNKS' as const, severity: 'HIGH' as const };

  it('leaves the run PASSED within the suite’s threshold, and the reason says so', () => {
    expect(decideRunStatus([], tolerated, [stale, stale, { error_type: 'ORPHAN_URLS', severity: 'LOW' }])).toEqual({
      status: 'PASSED',
      statusReason: "all 1 success criteria hold; HIGH findings within the suite's thresholds: 2 × HIGH STALE_CHUNKS",
    });
  });

  it('fails the run through its criterion past the threshold', () => {
    expect(decideRunStatus([], breached, [stale])).toEqual({
      status: 'FAILED',
      statusReason: '1 of 1 success criteria breached: stale_chunk_pages 6 > 5',
    });
  });

  it('says nothing of MEDIUM or LOW findings in a PASSED reason', () => {
    expect(decideRunStatus([], tolerated, [{ error_type: 'STALE_PAGES', severity: 'MEDIUM' }]).statusReason).toBe(
      'all 1 success criteria hold',
    );
  });
});

describe('JUDGED_BY', () => {
  const pairs = Object.entries(JUDGED_BY).flatMap(([type, criteria]) =>
    criteria.map((criterion) => ({ type, criterion })),
  );

  it.each(pairs)('$type is judged by $criterion, a criterion of a check that raises it', ({ type, criterion }) => {
    const raisers = CHECKS.filter((c) => (c.errorTypes as readonly string[]).includes(type));
    expect(raisers.flatMap((c) => c.criteria.map((d) => d.name))).toContain(criterion);
  });

  it.each(ERROR_TYPES.filter((t) => t !== 'CRITERION_BREACHED'))('%s has its row in DATA-MODEL.md', (type) => {
    const row = DATA_MODEL.split('\n').find(
      (line) => line.startsWith('| ') && line.split('|')[1]?.includes(`\`${type}\``),
    );
    expect(row, type).toBeDefined();
    const judges = JUDGED_BY[type as keyof typeof JUDGED_BY];
    const cell = row?.split('|')[2] ?? '';
    if (judges.length === 0) expect(cell.trim()).toBe('its severity');
    else expect(cell.trim()).toBe(judges.map((j) => `\`${j}\``).join(', '));
  });
});
