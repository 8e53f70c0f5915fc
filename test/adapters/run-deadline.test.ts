/** The run's deadline and the agent's, a margin before it: when each fires and what it says. */
import { describe, expect, it } from 'vitest';
import { agentDeadline, startRunDeadline, wrapUpMarginMs } from '../../functions/adapters/run-deadline.ts';
import { DeadlineError } from '../../functions/core/shared/errors.ts';

const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) => signal.addEventListener('abort', () => resolve(signal.reason)));

describe('wrapUpMarginMs', () => {
  it('is 5 % of the budget, never under 0.5 s nor over 10 s', () => {
    expect(wrapUpMarginMs(60_000)).toBe(3_000);
    expect(wrapUpMarginMs(10_000)).toBe(500);
    expect(wrapUpMarginMs(9_000)).toBe(500);
    expect(wrapUpMarginMs(11_000)).toBe(550);
    expect(wrapUpMarginMs(200_000)).toBe(10_000);
    expect(wrapUpMarginMs(190_000)).toBe(9_500);
    expect(wrapUpMarginMs(600_000)).toBe(10_000);
  });
});

describe('agentDeadline', () => {
  it('fires the margin before the run’s deadline, saying why, while the run’s has not fired', async () => {
    const run = startRunDeadline(1_000);
    const agent = agentDeadline(run);
    expect(run.atMs - agent.atMs).toBe(500);
    const reason = await aborted(agent.signal);
    expect(reason).toBeInstanceOf(DeadlineError);
    expect((reason as Error).message).toBe("the agent's time ran out, 0.5 s before the run's deadline");
    expect(run.signal.aborted).toBe(false);
    run.cancel();
  });

  it('fires with the run’s when the run is stopped first, or already was, with the run’s reason', async () => {
    const controller = new AbortController();
    const agent = agentDeadline({ signal: controller.signal, atMs: Date.now() + 60_000 });
    expect(agent.signal.aborted).toBe(false);
    controller.abort(new DeadlineError('stopped'));
    expect(agent.signal.aborted).toBe(true);
    expect((agent.signal.reason as Error).message).toBe('stopped');
    const late = agentDeadline({ signal: controller.signal, atMs: Date.now() + 60_000 });
    expect((late.signal.reason as Error).message).toBe('stopped');
  });

  it('is already over when the run’s deadline is nearer than the margin', async () => {
    const now = 1_000_000;
    const agent = agentDeadline({ signal: new AbortController().signal, atMs: now + 300 }, now);
    expect(agent.atMs).toBe(now - 200);
    expect(await aborted(agent.signal)).toBeInstanceOf(DeadlineError);
  });
});
