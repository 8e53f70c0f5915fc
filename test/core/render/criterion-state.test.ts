/** When a success criterion counts as not evaluated, for the summary and the HTML report alike. */
import { describe, expect, it } from 'vitest';
import { notEvaluatedReason } from '../../../functions/core/render/criterion-state.ts';

const counts = (passed: number, failed: number, total: number) => ({
  passed_queries: passed,
  failed_queries: failed,
  total_queries: total,
});

describe('notEvaluatedReason', () => {
  it('says a criterion with no value could not be read, whatever the queries did', () => {
    expect(notEvaluatedReason(counts(5, 0, 5), { name: 'coverage', value: null })).toBe('its input could not be read');
  });

  it('says no query completed for a pass rate when every query errored', () => {
    expect(notEvaluatedReason(counts(0, 0, 21), { name: 'pass_rate', value: 0 })).toBe('no query completed');
  });

  it('takes a pass rate as measured once one query passed or failed', () => {
    expect(notEvaluatedReason(counts(0, 1, 21), { name: 'pass_rate', value: 0 })).toBeNull();
    expect(notEvaluatedReason(counts(1, 0, 21), { name: 'pass_rate', value: 4.76 })).toBeNull();
  });

  it('leaves other criteria with a value alone when no query completed (they are measured elsewhere)', () => {
    expect(notEvaluatedReason(counts(0, 0, 21), { name: 'coverage', value: 0 })).toBeNull();
  });

  it('leaves a suite of no queries to the criterion’s own value', () => {
    expect(notEvaluatedReason(counts(0, 0, 0), { name: 'pass_rate', value: 0 })).toBeNull();
  });
});
