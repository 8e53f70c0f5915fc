import { describe, expect, it } from 'vitest';
import type { Input } from '../../../functions/core/checks/input.ts';
import { CutError, createRunContext, failureType } from '../../../functions/core/checks/run-context.ts';
import type { EngineDeps, RunOptions } from '../../../functions/core/checks/run-options.ts';
import { STEPS } from '../../../functions/core/checks/steps.ts';
import type { ProgressEvent } from '../../../functions/core/ports.ts';
import { IndexError } from '../../../functions/core/shared/errors.ts';
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

describe('the run context: inputs', () => {
  it('resolves an input once however many ask, and runs a step two inputs share once', async () => {
    const { ctx } = context();
    let calls = 0;
    let resolved = 0;
    const shared: Input<number> = {
      name: 'shared',
      steps: [],
      resolve: () => {
        resolved += 1;
        return ctx.step('describe', async () => ++calls);
      },
    };
    const other: Input<number> = { name: 'other', steps: [], resolve: (c) => c.step('describe', async () => ++calls) };
    expect(await Promise.all([ctx.input(shared), ctx.input(shared), ctx.input(other)])).toEqual([1, 1, 1]);
    expect([calls, resolved]).toEqual([1, 1]);
  });

  it('turns an input that throws synchronously into a rejection, not an exception', async () => {
    const { ctx } = context();
    const broken: Input<number> = {
      name: 'broken',
      steps: [],
      resolve: () => {
        throw new Error('thrown at once');
      },
    };
    await expect(ctx.input(broken)).rejects.toThrow('thrown at once');
  });

  it('lists the inputs asked for in the order they settled, with their outcomes', async () => {
    const handle = context();
    let release = () => {};
    const slow: Input<number> = {
      name: 'slow',
      steps: [],
      resolve: () => new Promise<number>((r) => (release = () => r(1))),
    };
    const fast: Input<number> = { name: 'fast', steps: [], resolve: () => Promise.reject(new Error('down')) };
    const pending = handle.ctx.input(slow);
    await handle.ctx.input(fast).catch(() => undefined);
    release();
    await pending;
    expect(handle.inputs().map((i) => [i.input.name, i.settled?.ok])).toEqual([
      ['fast', false],
      ['slow', true],
    ]);
  });
});

describe('the run context: settling', () => {
  it('lists inputs that resolved in the order they settled, those still pending last', async () => {
    const handle = context();
    const releases: (() => void)[] = [];
    const later = (name: string): Input<string> => ({
      name,
      steps: [],
      resolve: () => new Promise<string>((r) => releases.push(() => r(name))),
    });
    const [first, second, third] = [later('first'), later('second'), later('third')];
    const asked = [handle.ctx.input(third), handle.ctx.input(first), handle.ctx.input(second)];
    releases[1]?.();
    await asked[1];
    releases[2]?.();
    await asked[2];
    expect(handle.inputs().map((i) => [i.input.name, i.settled?.ok])).toEqual([
      ['first', true],
      ['second', true],
      ['third', undefined],
    ]);
  });

  it('waits in settleAll for an input that does no step', async () => {
    const handle = context();
    let done = false;
    const slow: Input<number> = {
      name: 'slow',
      steps: [],
      resolve: async () => {
        for (let i = 0; i < 20; i++) await null;
        done = true;
        return 1;
      },
    };
    handle.ctx.input(slow);
    await handle.settleAll();
    expect([done, handle.inputs()[0]?.settled]).toEqual([true, { ok: true, value: 1 }]);
  });
});

describe('the run context: steps', () => {
  const ticks = async (n: number) => {
    for (let i = 0; i < n; i++) await null;
  };

  it('records each step in execution.stages in the order it started, with its status and duration', async () => {
    const handle = context();
    const { ctx } = handle;
    let release = () => {};
    const first = ctx.step('describe', () => new Promise<void>((r) => (release = r)));
    await ctx.step('sitemap', () => Promise.reject(new Error('down'))).catch(() => undefined);
    release();
    await first;
    await handle.settleAll();
    const stages = handle.stages();
    expect(Object.keys(stages)).toEqual(['describe', 'sitemap']);
    expect(stages).toEqual({
      describe: { status: 'ok', duration_ms: 15 },
      sitemap: { status: 'failed', duration_ms: 5 },
    });
  });

  it('announces a step to the progress listener when it starts and when it ends', async () => {
    const events: ProgressEvent[] = [];
    const { ctx } = context({ progress: (e) => events.push(e) });
    await ctx.step('catalog', async () => 1);
    expect(events).toEqual([
      { kind: 'stage', stage: 'catalog', status: 'started' },
      { kind: 'stage', stage: 'catalog', status: 'finished' },
    ]);
  });

  it('cuts a pending step when the run is aborted, naming it and what it waits on, and marks it cut', async () => {
    const abort = new AbortController();
    const handle = context({ signal: abort.signal });
    const pending = handle.ctx.step('inventory', never);
    abort.abort();
    await expect(pending).rejects.toThrow('inventory (Qdrant (scroll)) was cut: the run had to stop');
    await handle.settleAll();
    expect(handle.stages().inventory?.status).toBe('cut');
  });

  it('cuts a step started after the run was aborted without running it', async () => {
    const abort = new AbortController();
    abort.abort();
    const { ctx } = context({ signal: abort.signal });
    let ran = false;
    const step = ctx.step('describe', async () => {
      ran = true;
    });
    await expect(step).rejects.toThrow('describe (Qdrant (get collection)) was cut: the run had to stop');
    expect(ran).toBe(false);
  });

  it('reads "failed" for a step that resolved with a value its judge calls unusable, though it finished', async () => {
    const events: ProgressEvent[] = [];
    const handle = context({ progress: (e) => events.push(e) });
    await handle.ctx.step(
      'queries',
      async () => 0,
      (n) => (n === 0 ? 'nothing came back' : null),
    );
    await handle.settleAll();
    expect(handle.stages().queries?.status).toBe('failed');
    expect(events.at(-1)).toEqual({ kind: 'stage', stage: 'queries', status: 'finished' });
  });

  it('turns a step that throws synchronously into a failed step, not an exception', async () => {
    const handle = context();
    const step = handle.ctx.step('profile', () => {
      throw new Error('thrown at once');
    });
    await expect(step).rejects.toThrow('thrown at once');
    await handle.settleAll();
    expect(handle.stages().profile?.status).toBe('failed');
  });

  it('keeps a failed step nobody awaits from being an unhandled rejection', async () => {
    const handle = context();
    handle.ctx.step('agent', () => Promise.reject(new Error('nobody listens')));
    await handle.settleAll();
    expect(handle.stages().agent?.status).toBe('failed');
  });

  it('leaves a step still running out of the stages, and waits for the only pending step', async () => {
    const handle = context();
    handle.ctx.step('exact_search', async () => ticks(5));
    expect(handle.stages()).toEqual({});
    await handle.settleAll();
    expect(Object.keys(handle.stages())).toEqual(['exact_search']);
  });

  it('waits for a step that another step’s settling started', async () => {
    const handle = context();
    handle.ctx.step('canary_sample', async () => 1).then(() => handle.ctx.step('canary_embed', async () => ticks(10)));
    await handle.settleAll();
    expect(Object.keys(handle.stages())).toEqual(['canary_sample', 'canary_embed']);
  });

  it('names only the steps still pending, not those that settled', async () => {
    const { ctx } = context();
    await ctx.step('describe', async () => 1);
    ctx.step('inventory', never);
    expect(ctx.pendingSteps()).toBe('inventory (Qdrant (scroll))');
  });

  it('names the pending steps and what each waits on, the inventory scroll among them', () => {
    const { ctx } = context();
    ctx.step('queries', never);
    ctx.step('inventory', never);
    ctx.step('sitemap', never);
    expect(ctx.pendingSteps()).toBe(
      'queries (Cohere embed and Qdrant search), inventory (Qdrant (scroll)), sitemap (the sitemap host)',
    );
  });

  it('knows what every step of a run waits on', () => {
    expect(Object.keys(STEPS)).toEqual([
      'describe',
      'catalog',
      'queries',
      'sitemap',
      'profile',
      'agent',
      'inventory',
      'page_facets',
      'exact_search',
      'canary_sample',
      'canary_embed',
      'model_facet',
    ]);
    expect(Object.values(STEPS).every((waitsOn) => waitsOn.length > 0)).toBe(true);
  });
});

describe('CutError and failureType', () => {
  it('says only that the run had to stop when there is no signal', () => {
    const error = new CutError('the x step');
    expect(error.name).toBe('CutError');
    expect(error.message).toBe('the x step was cut: the run had to stop');
  });

  it('reports a timeout or a cut as TIMEOUT, a rate limit as RATE_LIMITED, anything else as the fallback', () => {
    expect(failureType(new IndexError('slow', 'timeout'), 'RETRIEVAL_FAILED')).toBe('TIMEOUT');
    expect(failureType(new CutError('sitemap'), 'SITEMAP_FAILED')).toBe('TIMEOUT');
    expect(failureType(new IndexError('429', 'rate_limited'), 'RETRIEVAL_FAILED')).toBe('RATE_LIMITED');
    expect(failureType(new IndexError('500', 'unavailable'), 'RETRIEVAL_FAILED')).toBe('RETRIEVAL_FAILED');
    expect(failureType(new Error('bug'), 'SITEMAP_FAILED')).toBe('SITEMAP_FAILED');
    // A rejection with no error at all (`Promise.reject()`) is reported under the input's own type, not a crash.
    expect(failureType(undefined, 'SITEMAP_FAILED')).toBe('SITEMAP_FAILED');
  });

  it('announces a step that failed as failed', async () => {
    const events: ProgressEvent[] = [];
    const { ctx } = context({ progress: (e) => events.push(e) });
    await ctx.step('model_facet', () => Promise.reject(new Error('down'))).catch(() => undefined);
    expect(events.at(-1)).toEqual({ kind: 'stage', stage: 'model_facet', status: 'failed' });
  });
});
