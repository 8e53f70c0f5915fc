import { describe, expect, it } from 'vitest';
import { type Check, type CriterionDeclaration, defineCheck, verdict } from '../../../functions/core/checks/check.ts';
import { type Input, optional } from '../../../functions/core/checks/input.ts';
import { runChecks } from '../../../functions/core/checks/run-checks.ts';
import { createRunContext } from '../../../functions/core/checks/run-context.ts';
import type { EngineDeps, RunOptions } from '../../../functions/core/checks/run-options.ts';
import { DeadlineError } from '../../../functions/core/shared/errors.ts';
import { SuccessCriteria, Suite } from '../../../functions/core/suite/suite.ts';
import { FakeEmbedder } from '../../fakes/fake-embedder.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';

function context(extra: Partial<EngineDeps> = {}) {
  let ids = 0;
  const deps: EngineDeps = {
    index: new MemoryIndex([]),
    embedder: new FakeEmbedder(),
    sitemap: { location: 'https://b/sitemap.xml', list: async () => ({ entries: [], issues: [] }) },
    clock: { now: () => new Date('2026-11-23T00:00:00Z'), monotonicMs: () => 0 },
    newId: () => `id-${++ids}`,
    ...extra,
  };
  const suite = Suite.parse({ queries: [{ id: 'q', query_text: 'q' }] });
  return createRunContext({
    deps,
    options: { suite } as RunOptions,
    runId: 'run',
    startedAt: new Date(0),
    queries: [],
    criteria: SuccessCriteria.parse({ min_mrr: 0.5 }),
  });
}

const value = <T>(name: string, v: T): Input<T> => ({ name, steps: [], resolve: async () => v });
const failing = (name: string, error: Error, label = name): Input<never> => ({
  name,
  steps: [],
  resolve: () => Promise.reject(error),
  failure: {
    label,
    finding: {
      type: 'RETRIEVAL_FAILED',
      severity: 'CRITICAL',
      message: (reason) => `${name} could not be read: ${reason}`,
    },
  },
});

/** A check that reports one finding naming what it read. */
function reading<T>(name: string, input: Input<T>, criteria: CriterionDeclaration[] = []): Check {
  return defineCheck({
    name,
    description: `reads ${input.name}`,
    needs: { input },
    errorTypes: ['LOW_RELEVANCE'],
    criteria,
    metrics: [],
    section: 'errors',
    judge: ({ input: read }, ctx) =>
      verdict({ sections: {}, errors: [ctx.error('LOW_RELEVANCE', 'LOW', `${name} read ${String(read)}`)] }),
  }) as Check;
}

/** A check that judges one criterion at 100. */
function judging(name: string, declaration: CriterionDeclaration): Check {
  return defineCheck({
    ...reading(name, value(name, 1)),
    criteria: [declaration],
    judge: (_, ctx) => verdict({ sections: {}, errors: [], criteria: [ctx.criterion(declaration, 100)] }),
  }) as Check;
}

const COVERAGE: CriterionDeclaration = {
  name: 'coverage',
  description: 'coverage',
  threshold: 'min_coverage',
  comparator: '>=',
  decimals: 2,
  unit: '%',
  severity: () => 'HIGH',
  judgedWhenSkipped: true,
};
const MRR: CriterionDeclaration = { ...COVERAGE, name: 'mrr', threshold: 'min_mrr', judgedWhenSkipped: false };

describe('the runner', () => {
  it('judges every check on its resolved inputs and returns the verdicts in list order', async () => {
    const run = context();
    let release = (_: string) => {};
    const slow: Input<string> = { name: 'slow', steps: [], resolve: () => new Promise<string>((r) => (release = r)) };
    const outcome = runChecks([reading('a', slow), reading('b', value('fast', 'f'))], run);
    await Promise.resolve();
    release('s');
    const { verdicts, errors, failures } = await outcome;
    expect(verdicts.map((v) => [v.check.name, v.verdict?.status])).toEqual([
      ['a', 'fail'],
      ['b', 'fail'],
    ]);
    expect(errors.map((e) => e.message)).toEqual(['a read s', 'b read f']);
    expect(failures).toEqual([]);
  });

  it('reports a failed input once, as the step that failed, and skips every check that needs it', async () => {
    const run = context();
    const down = failing('profile', new Error('connection refused'), 'index profile');
    const { verdicts, errors, failures } = await runChecks([reading('a', down), reading('b', down)], run);
    expect(verdicts.map((v) => v.verdict)).toEqual([null, null]);
    expect(failures).toEqual(['index profile: connection refused']);
    expect(errors).toEqual([
      {
        id: 'id-1',
        validation_id: 'run',
        error_type: 'RETRIEVAL_FAILED',
        severity: 'CRITICAL',
        message: 'profile could not be read: connection refused',
        details: {},
      },
    ]);
  });

  it('says nothing of an input that failed because another input it read failed', async () => {
    const run = context();
    const root = failing('describe', new Error('down'));
    const reader: Input<string> = {
      name: 'reader',
      steps: [],
      resolve: async (ctx) => `${await ctx.input(root)}`,
      failure: { label: 'reader' },
    };
    const { failures } = await runChecks([reading('a', reader)], run);
    expect(failures).toEqual(['describe: down']);
  });

  it('says nothing of an input while an input of its silentWhen failed, asking that one to know', async () => {
    const run = context();
    const collection = failing('profile', new Error('collection gone'), 'index profile');
    const scroll: Input<never> = {
      name: 'inventory',
      steps: [],
      resolve: () => Promise.reject(new Error('scroll gone')),
      failure: { label: 'index inventory', silentWhen: [collection] },
    };
    const { failures } = await runChecks([reading('a', scroll)], run);
    expect(failures).toEqual(['index profile: collection gone']);
  });

  it('reports a value its input calls unusable as that input’s failure, and still judges the checks on it', async () => {
    const run = context();
    const searched: Input<string> = {
      name: 'queries',
      steps: [],
      resolve: async () => 'nothing',
      failure: { label: 'queries' },
      unusable: (v) => (v === 'nothing' ? 'no query could be run' : null),
    };
    const { verdicts, failures } = await runChecks([reading('a', searched)], run);
    expect(failures).toEqual(['queries: no query could be run']);
    expect(verdicts[0]?.verdict?.status).toBe('fail');
  });

  it('does not read the inputs of a check that does not apply, and calls its verdict not applicable', async () => {
    const run = context();
    let read = false;
    const input: Input<number> = {
      name: 'agent',
      steps: [],
      resolve: async () => {
        read = true;
        return 1;
      },
    };
    const check = { ...reading('g', input), applies: () => false };
    const { verdicts } = await runChecks([check], run);
    expect(verdicts[0]?.verdict).toEqual({ status: 'not_applicable', sections: {}, errors: [], criteria: [] });
    expect(read).toBe(false);
  });

  it('judges the criteria a skipped check is held to as not computed, and leaves out the others', async () => {
    const run = context();
    const down = failing('sitemap', new Error('gone'));
    const { criteria } = await runChecks([reading('c', down, [COVERAGE, MRR])], run);
    expect(criteria).toEqual([
      {
        name: 'coverage',
        description: 'coverage',
        value: null,
        threshold: 100,
        comparator: '>=',
        passed: false,
        severity: 'HIGH',
      },
    ]);
  });

  it('lists the criteria in the order of the suite’s success criteria, whatever the checks’ order', async () => {
    const run = context();
    const { criteria } = await runChecks([judging('m', MRR), judging('c', COVERAGE)], run);
    expect(criteria.map((c) => c.name)).toEqual(['coverage', 'mrr']);
  });

  it('turns a check that throws while judging into a failure of the run naming the check', async () => {
    const run = context();
    const broken = defineCheck({
      ...reading('broken', value('v', 1)),
      judge: () => {
        throw new Error('bug');
      },
    }) as Check;
    const { verdicts, failures } = await runChecks([broken], run);
    expect(failures).toEqual(['broken: bug']);
    expect(verdicts[0]?.verdict).toBeNull();
  });

  it('reports a step cut by the deadline once, as a TIMEOUT naming the step, what it waits on and the deadline', async () => {
    const deadline = new AbortController();
    const run = context({ signal: deadline.signal });
    const hanging: Input<never> = {
      name: 'sitemap',
      steps: [],
      resolve: (ctx) => ctx.step('sitemap', () => new Promise<never>(() => undefined)),
      failure: { label: 'sitemap' },
    };
    const outcome = runChecks([reading('a', hanging), reading('b', hanging)], run);
    deadline.abort(new DeadlineError('the run’s deadline of 60 s was reached'));
    const { errors, failures } = await outcome;
    const reason = 'sitemap (the sitemap host) was cut: the run’s deadline of 60 s was reached';
    expect(failures).toEqual([`sitemap: ${reason}`]);
    expect(errors).toEqual([
      {
        id: 'id-1',
        validation_id: 'run',
        error_type: 'TIMEOUT',
        severity: 'HIGH',
        message: reason,
        details: { step: 'sitemap' },
      },
    ]);
  });

  it('reports a failed input just before the findings of the first check that needed it, not last', async () => {
    const run = context();
    const down = failing('profile', new Error('connection refused'));
    const { errors } = await runChecks(
      [reading('a', value('fine', 'x')), reading('b', down), reading('c', value('also fine', 'y'))],
      run,
    );
    expect(errors.map((e) => e.message)).toEqual([
      'a read x',
      'profile could not be read: connection refused',
      'c read y',
    ]);
  });

  it('judges a check on null for an optional input that failed, reporting the failure before its findings', async () => {
    const run = context();
    const down = failing('searched', new Error('search down'));
    const { verdicts, errors, failures } = await runChecks(
      [reading('a', optional(down)), reading('b', value('fine', 'y'))],
      run,
    );
    expect(verdicts.map((v) => v.verdict?.status)).toEqual(['fail', 'fail']);
    expect(errors.map((e) => e.message)).toEqual([
      'searched could not be read: search down',
      'a read null',
      'b read y',
    ]);
    expect(failures).toEqual(['searched: search down']);
  });

  it('reports once an input read only through an optional read inside another input', async () => {
    const run = context();
    const down = failing('searched', new Error('search down'));
    const reader: Input<string> = {
      name: 'reader',
      steps: [],
      resolve: async (ctx) => `${await ctx.input(optional(down))}`,
    };
    const { errors, failures } = await runChecks([reading('a', reader)], run);
    expect(failures).toEqual(['searched: search down']);
    expect(errors.map((e) => e.message)).toEqual(['a read null', 'searched could not be read: search down']);
  });

  it('silences an input when any one of its silentWhen inputs failed, and not when none did', async () => {
    const run = context();
    const gone = failing('profile', new Error('collection gone'));
    const fine = value('catalog', 1);
    const scroll = (name: string, silentWhen: Input<unknown>[]): Input<never> => ({
      name,
      steps: [],
      resolve: () => Promise.reject(new Error(`${name} gone`)),
      failure: { label: name, silentWhen },
    });
    const { failures } = await runChecks(
      [reading('a', scroll('inventory', [fine, gone])), reading('b', scroll('facet', [fine]))],
      run,
    );
    expect(failures).toEqual(['facet: facet gone', 'profile: collection gone']);
  });

  it('gives an unusable value a failure line but no finding of its own: the checks reading it say what went wrong', async () => {
    const run = context();
    const searched: Input<string> = {
      name: 'queries',
      steps: [],
      resolve: async () => 'nothing',
      failure: {
        label: 'queries',
        finding: { type: 'RETRIEVAL_FAILED', severity: 'CRITICAL', message: (reason) => `queries: ${reason}` },
      },
      unusable: () => 'no query could be run',
    };
    const { errors, failures } = await runChecks([reading('a', searched)], run);
    expect(failures).toEqual(['queries: no query could be run']);
    expect(errors.map((e) => e.message)).toEqual(['a read nothing']);
  });

  it('lists a criterion named unlike its threshold after those of the suite’s order', async () => {
    const run = context();
    const renamed: CriterionDeclaration = { ...MRR, name: 'reciprocal_rank' };
    const { criteria } = await runChecks([judging('r', renamed), judging('c', COVERAGE)], run);
    expect(criteria.map((c) => c.name)).toEqual(['coverage', 'reciprocal_rank']);
  });
});
