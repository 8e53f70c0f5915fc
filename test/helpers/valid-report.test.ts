import { describe, expect, it } from 'vitest';
import { buildPassedReport } from '../nightly/fixtures/reports.ts';
import { parseValidReport } from './valid-report.ts';

describe('parseValidReport', () => {
  it('accepts a report that both schemas accept, as JSON text too', () => {
    // Prepare
    const report = buildPassedReport();

    // Assess
    expect(parseValidReport(JSON.stringify(report))).toEqual(report);
  });

  it('refuses a similarity outside 0..1 and names where it is', () => {
    // Prepare
    const report = structuredClone(buildPassedReport());
    const query = report.query_results[0];
    if (!query) throw new Error('fixture has queries');
    query.best_similarity = 1.7;

    // Assess
    expect(() => parseValidReport(report)).toThrow(/query_results\[0\]\.best_similarity/);
  });
});
