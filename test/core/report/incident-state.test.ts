import { describe, expect, it } from 'vitest';
import { emptyState, IncidentState, worstSeverity } from '../../../functions/core/report/incident-state.ts';

describe('incident state', () => {
  it('starts with nothing open, in a shape that parses as a stored state', () => {
    const state = emptyState('book', 'prod');
    expect(state).toEqual({
      schema_version: '1',
      collection: 'book',
      environment: 'prod',
      open: { quality: null, infrastructure: null, suite: null },
    });
    expect(IncidentState.safeParse(state).success).toBe(true);
  });

  it('takes the worst severity of the breaches, and LOW for none', () => {
    const b = (severity: 'LOW' | 'MEDIUM' | 'HIGH' | 'CRITICAL') => ({ kind: severity, severity, summary: '' });
    expect(worstSeverity([b('MEDIUM'), b('CRITICAL'), b('HIGH')])).toBe('CRITICAL');
    expect(worstSeverity([b('LOW'), b('MEDIUM')])).toBe('MEDIUM');
    expect(worstSeverity([])).toBe('LOW');
  });
});
