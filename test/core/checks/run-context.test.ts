import { describe, expect, it } from 'vitest';
import type { Check } from '../../../functions/core/checks/check.ts';
import { CutError, createRunContext, failureType, runChecks } from '../../../functions/core/checks/run-context.ts';
import type { EngineDeps, RunOptions } from '../../../functions/core/checks/run-options.ts';
import type { ProgressEvent } from '../../../functions/core/ports.ts';
import { DeadlineError, IndexError } from '../../../functions/core/shared/errors.ts';
import { SuccessCriteria, Suite } from '../../../functions/core/suite/suite.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';

let ms = 0;
function context(extra: Partial<EngineDeps> = {}) {
  let ids = 0;
  const deps: EngineDeps = {
    index: new MemoryIndex([]),
    embedder: new FakeEmbedder(),
    sitemap: { location: 'https://b/sitemap.xml', list: async () => ({ entries: [], issues: [] }) },
    clock: { now: () => new Date('2026-11-23T00:00:00Z'), monotonicMs: () => (ms += 5) },
    newId: () => `id-${++ids}`,
    ...extra,
  };
  const suite = Suite.parse({ queries: [{ id: 'q', query_text: 'q' }] });
  const options = { suite } as RunOptions;
  return createRunContext({
    deps,
    options,
    runId: 'run',
    startedAt: new Date(0),
    queries: [],
    criteria: SuccessCriteria.parse({}),
  });
}

const never = () => new Promise<never>(() => undefined);

describe('the checks machinery', () => {
  it('runs a step shared by two checks once and gives both its value', async () => {
    const { ctx } = context();
    let calls = 0;
    const shared = () => ctx.step('shared', async () => ++calls);
    const a: Check = { name: 'a', run: async () => ({ errors: [], criteria: { coverage: await shared() } }) };
    const b: Check = { name: 'b', run: async () => ({ errors: [], criteria: { completeness: await shared() } }) };
    const [ra, rb] = await runChecks([a, b], ctx);
    expect(calls).toBe(1);
    expect([ra?.criteria?.coverage, rb?.criteria?.completeness]).toEqual([1, 1]);
  });

  it('returns results in list order, not in the order the checks finish', async () => {
    const { ctx } = context();
    const slow: Check = {
      name: 'slow',
      run: async () => {
        await new Promise((r) => setTimeout(r, 5));
        return { errors: [ctx.error('TIMEOUT', 'LOW', 'slow')] };
      },
    };
    const fast: Check = { name: 'fast', run: async () => ({ errors: [ctx.error('TIMEOUT', 'LOW', 'fast')] }) };
    const results = await runChecks([slow, fast], ctx);
    expect(results.flatMap((r) => r.errors.map((e) => e.message))).toEqual(['slow', 'fast']);
  });

  it('records each step in execution.stages in the order it started, with its status and duration', async () => {
    const handle = context();
    const { ctx } = handle;
    let release = () => {};
    const first = ctx.step('first', () => new Promise<void>((r) => (release = r)));
    await ctx.step('second', () => Promise.reject(new Error('down'))).catch(() => undefined);
    release();
    await first;
    await handle.settleAll();
    const stages = handle.stages();
    expect(Object.keys(stages)).toEqual(['first', 'second']);
    expect(stages).toEqual({
      first: { status: 'ok', duration_ms: 15 },
      second: { status: 'failed', duration_ms: 5 },
    });
  });

  it('turns a check that throws into a failure of the run naming the check', async () => {
    const { ctx } = context();
    const broken: Check = {
      name: 'broken',
      run: () => {
        throw new Error('bug');
      },
    };
    expect(await runChecks([broken], ctx)).toEqual([{ errors: [], failures: ['broken: bug'] }]);
  });

  it('announces a step to the progress listener when it starts and when it ends', async () => {
    const events: ProgressEvent[] = [];
    const { ctx } = context({ progress: (e) => events.push(e) });
    await ctx.step('s', async () => 1);
    expect(events).toEqual([
      { kind: 'stage', stage: 's', status: 'started' },
      { kind: 'stage', stage: 's', status: 'finished' },
    ]);
  });

  it('cuts a pending step and a pending check when the run is aborted, and marks the step as cut', async () => {
    const abort = new AbortController();
    const handle = context({ signal: abort.signal });
    const hanging: Check = { name: 'hanging', run: () => handle.ctx.step('wait', never) };
    const results = runChecks([hanging], handle.ctx);
    abort.abort();
    const [result] = await results;
    expect(result?.failures).toEqual(['the hanging check was cut: the run had to stop']);
    expect(result?.errors).toMatchObject([
      { error_type: 'TIMEOUT', severity: 'HIGH', message: 'the hanging check was cut: the run had to stop' },
    ]);
    await handle.settleAll();
    expect(handle.stages().wait?.status).toBe('cut');
  });

  it('cuts a step started after the run was aborted without running it', async () => {
    const abort = new AbortController();
    abort.abort();
    const { ctx } = context({ signal: abort.signal });
    let ran = false;
    const step = ctx.step('late', async () => {
      ran = true;
    });
    await expect(step).rejects.toThrow('late was cut');
    expect(ran).toBe(false);
  });
});

describe('the checks machinery: steps', () => {
  const ticks = async (n: number) => {
    for (let i = 0; i < n; i++) await null;
  };

  it('reads "failed" for a step that resolved with a value its judge calls unusable, though it finished', async () => {
    const events: ProgressEvent[] = [];
    const handle = context({ progress: (e) => events.push(e) });
    await handle.ctx.step(
      's',
      async () => 0,
      (n) => (n === 0 ? 'nothing came back' : null),
    );
    await handle.settleAll();
    expect(handle.stages().s?.status).toBe('failed');
    expect(events.at(-1)).toEqual({ kind: 'stage', stage: 's', status: 'finished' });
  });

  it('turns a step that throws synchronously into a failed step, not an exception', async () => {
    const handle = context();
    const step = handle.ctx.step('sync', () => {
      throw new Error('thrown at once');
    });
    await expect(step).rejects.toThrow('thrown at once');
    await handle.settleAll();
    expect(handle.stages().sync?.status).toBe('failed');
  });

  it('keeps a failed step nobody awaits from being an unhandled rejection', async () => {
    const handle = context();
    handle.ctx.step('lonely', () => Promise.reject(new Error('nobody listens')));
    await handle.settleAll();
    expect(handle.stages().lonely?.status).toBe('failed');
  });

  it('gives the settled outcome of a step without starting one, and nothing for a step nobody ran', async () => {
    const { ctx } = context();
    await ctx.step('done', async () => 42);
    expect(await ctx.settled('done')).toEqual({ ok: true, value: 42 });
    expect(ctx.settled('never')).toBeUndefined();
  });

  it('leaves a step still running out of the stages, and waits for the only pending step', async () => {
    const handle = context();
    handle.ctx.step('slow', async () => ticks(5));
    expect(handle.stages()).toEqual({});
    await handle.settleAll();
    expect(Object.keys(handle.stages())).toEqual(['slow']);
  });

  it('waits for a step that another step’s settling started', async () => {
    const handle = context();
    handle.ctx.step('first', async () => 1).then(() => handle.ctx.step('second', async () => ticks(10)));
    await handle.settleAll();
    expect(Object.keys(handle.stages())).toEqual(['first', 'second']);
  });

  it('names the pending steps and what each waits on, and nothing for a step of no known dependency', () => {
    const { ctx } = context();
    ctx.step('queries', never);
    ctx.step('own work', never);
    ctx.step('sitemap', never);
    expect(ctx.pendingSteps?.()).toBe('queries (Cohere embed and Qdrant search), sitemap (the sitemap host)');
  });

  it('names the dependency of a known step cut before it started', async () => {
    const abort = new AbortController();
    abort.abort();
    const { ctx } = context({ signal: abort.signal });
    await expect(ctx.step('describe', async () => 1)).rejects.toThrow(
      'describe (Qdrant (get collection)) was cut: the run had to stop',
    );
  });

  it('cuts a check started after the run was aborted, naming the steps it would wait on', async () => {
    const abort = new AbortController();
    const handle = context({ signal: abort.signal });
    handle.ctx.step('sitemap', never);
    abort.abort(new DeadlineError('the run’s deadline of 60 s was reached'));
    const late: Check = { name: 'late', run: async () => ({ errors: [] }) };
    const [result] = await runChecks([late], handle.ctx);
    expect(result?.failures).toEqual([
      'the late check was cut: the run’s deadline of 60 s was reached; still waiting on sitemap (the sitemap host)',
    ]);
  });
});

describe('CutError and failureType', () => {
  it('says only that the run had to stop when there is no signal', () => {
    const error = new CutError('the x check');
    expect(error.name).toBe('CutError');
    expect(error.message).toBe('the x check was cut: the run had to stop');
  });

  it('reports a timeout as TIMEOUT, a rate limit as RATE_LIMITED, anything else as the fallback', () => {
    expect(failureType(new IndexError('slow', 'timeout'), 'RETRIEVAL_FAILED')).toBe('TIMEOUT');
    expect(failureType(new IndexError('429', 'rate_limited'), 'RETRIEVAL_FAILED')).toBe('RATE_LIMITED');
    expect(failureType(new IndexError('500', 'unavailable'), 'RETRIEVAL_FAILED')).toBe('RETRIEVAL_FAILED');
    expect(failureType(new Error('bug'), 'SITEMAP_FAILED')).toBe('SITEMAP_FAILED');
  });

  it('announces a step that failed as failed', async () => {
    const events: ProgressEvent[] = [];
    const { ctx } = context({ progress: (e) => events.push(e) });
    await ctx.step('down', () => Promise.reject(new Error('down'))).catch(() => undefined);
    expect(events.at(-1)).toEqual({ kind: 'stage', stage: 'down', status: 'failed' });
  });
});
