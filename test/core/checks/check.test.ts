/** A verdict from its parts: the status follows the findings and the criteria. */
import { describe, expect, it } from 'vitest';
import { verdict } from '../../../functions/core/checks/check.ts';
import type { CriterionResult } from '../../../functions/core/report/findings.ts';

const criterion = (passed: boolean): CriterionResult => ({
  name: 'mrr',
  description: 'mrr',
  value: passed ? 0.9 : 0.1,
  threshold: 0.5,
  comparator: '>=',
  passed,
  severity: 'MEDIUM',
});

describe('verdict', () => {
  it('passes with no finding and every criterion held', () => {
    expect(verdict({ sections: {}, errors: [], criteria: [criterion(true), null] }).status).toBe('pass');
  });

  it('fails on a breached criterion alone, with no finding', () => {
    expect(verdict({ sections: {}, errors: [], criteria: [criterion(true), criterion(false)] })).toMatchObject({
      status: 'fail',
      criteria: [criterion(true), criterion(false)],
    });
  });

  it('is not applicable when said so, whatever its parts', () => {
    expect(verdict({ sections: {}, errors: [], criteria: [criterion(false)], applicable: false }).status).toBe(
      'not_applicable',
    );
  });
});
