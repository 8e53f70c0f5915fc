import { describe, expect, it } from 'vitest';
import { deliveryReserveMs, engineBudgetMs } from '../../functions/nightly/budget.ts';

describe('the Lambda’s time budget', () => {
  it('reserves six sink bounds in series plus 10 s of slack after the engine', () => {
    expect(deliveryReserveMs(15_000)).toBe(100_000);
  });

  it('gives the engine the remaining time minus the reserve: 500 s of a fresh 600 s invocation', () => {
    expect(engineBudgetMs({ runDeadlineSeconds: 600, sinkTimeoutMs: 15_000, remainingMs: 600_000 })).toBe(500_000);
  });

  it('keeps a tighter RUN_DEADLINE_SECONDS', () => {
    expect(engineBudgetMs({ runDeadlineSeconds: 60, sinkTimeoutMs: 15_000, remainingMs: 600_000 })).toBe(60_000);
  });

  it('uses RUN_DEADLINE_SECONDS when Lambda does not say how much time is left', () => {
    expect(engineBudgetMs({ runDeadlineSeconds: 600, sinkTimeoutMs: 15_000, remainingMs: undefined })).toBe(600_000);
  });

  it('still gives the engine 1 s when the reserve would leave it nothing, so it reports TIMEOUT', () => {
    expect(engineBudgetMs({ runDeadlineSeconds: 600, sinkTimeoutMs: 15_000, remainingMs: 30_000 })).toBe(1_000);
  });
});
