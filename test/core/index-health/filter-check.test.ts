import { describe, expect, it } from 'vitest';
import { filterCheck, satisfies } from '../../../functions/core/index-health/filter-check.ts';
import type { Payload, PayloadFilter } from '../../../functions/core/ports.ts';
import { runCheck } from '../../fakes/run-context.ts';
import { healthContext } from './context.ts';

const MODULE_1 = { must: [{ key: 'module_name', match: { value: 'Module 1' } }] };

const search = (queryId: string, payloads: Payload[], filter?: PayloadFilter) => ({
  queryId,
  request: { vector: [1, 0, 0], limit: 5, payloadFields: ['module_name'], ...(filter ? { filter } : {}) },
  hits: payloads.map((payload, i) => ({ id: `${queryId}-${i}`, score: 1, payload })),
});

const run = (searched: ReturnType<typeof search>[] | Error, criteria = {}) =>
  runCheck(filterCheck, healthContext({ searched, criteria }).ctx);

describe('the filter-correctness check', () => {
  it('finds every hit of a filtered query inside its filter, ignores unfiltered ones, and passes', async () => {
    const result = await run([
      search('f', [{ module_name: 'Module 1' }, { module_name: 'Module 1' }], MODULE_1),
      search('free', [{ module_name: 'Module 2' }]),
    ]);
    expect(result.sections?.index_health?.filters).toEqual({
      filtered_queries: 1,
      hits_checked: 2,
      violations: 0,
      examples: [],
    });
    expect(result.errors).toEqual([]);
    expect(result.verdicts).toEqual([
      {
        name: 'filter_violations',
        description: 'Hits of filtered queries that do not satisfy the filter',
        value: 0,
        threshold: 0,
        comparator: '<=',
        passed: true,
        severity: 'HIGH',
      },
    ]);
  });

  it('reports a hit outside its filter as FILTER_VIOLATION, high, naming the point and the query', async () => {
    const result = await run([search('f', [{ module_name: 'Module 1' }, { module_name: 'Module 2' }], MODULE_1)]);
    const block = {
      filtered_queries: 1,
      hits_checked: 2,
      violations: 1,
      examples: [{ query_id: 'f', point_id: 'f-1' }],
    };
    expect(result.sections?.index_health?.filters).toEqual(block);
    expect(result.errors).toEqual([
      {
        id: 'id-1',
        validation_id: 'run-1',
        error_type: 'FILTER_VIOLATION',
        severity: 'HIGH',
        message: '1 hit(s) of filtered queries do not satisfy their filter, e.g. point f-1 for query f',
        details: block,
      },
    ]);
    expect(result.verdicts?.[0]).toMatchObject({ value: 1, passed: false });
  });

  it('counts every violation and lists the first 10', async () => {
    const outside = Array.from({ length: 6 }, () => ({ module_name: 'Module 2' }));
    const result = await run([search('a', outside, MODULE_1), search('b', outside, MODULE_1)]);
    const block = result.sections?.index_health?.filters;
    expect([block?.violations, block?.hits_checked, block?.examples.length]).toEqual([12, 12, 10]);
    expect(block?.examples[9]).toEqual({ query_id: 'b', point_id: 'b-3' });
    expect(result.errors[0]?.message).toMatch(/^12 hit\(s\)/);
  });

  it('judges the violations against max_filter_violations on both sides of equality', async () => {
    const searched = [search('f', [{ module_name: 'Module 2' }], MODULE_1)];
    const at = await run(searched, { max_filter_violations: 1 });
    expect(at.verdicts?.[0]).toMatchObject({ value: 1, threshold: 1, passed: true });
    const under = await run(searched, { max_filter_violations: 0 });
    expect(under.verdicts?.[0]).toMatchObject({ value: 1, threshold: 0, passed: false });
  });

  it('has no verdict for a suite without filtered queries', async () => {
    const result = await run([search('free', [{ module_name: 'Module 2' }])]);
    expect(result.sections?.index_health?.filters).toEqual({
      filtered_queries: 0,
      hits_checked: 0,
      violations: 0,
      examples: [],
    });
    expect(result.verdicts).toEqual([]);
  });

  it('is skipped when the query step failed, which is reported once, as the queries', async () => {
    expect(await run(new Error('search refused'))).toMatchObject({
      status: null,
      errors: [],
      failures: ['queries: search refused'],
    });
  });
});

describe('satisfies (Qdrant filter semantics)', () => {
  const on = (payload: Payload, filter: PayloadFilter) => satisfies(payload, filter);

  it('holds every must condition, and fails when one does not', () => {
    const filter = {
      must: [
        { key: 'module_name', match: { value: 'M1' } },
        { key: 'chapter_id', match: { value: 'c1' } },
      ],
    };
    expect(on({ module_name: 'M1', chapter_id: 'c1' }, filter)).toBe(true);
    expect(on({ module_name: 'M1', chapter_id: 'c2' }, filter)).toBe(false);
  });

  it('needs one should condition when there are any, and none when should is empty', () => {
    const should = {
      should: [
        { key: 'm', match: { value: 1 } },
        { key: 'm', match: { value: 2 } },
      ],
    };
    expect([on({ m: 2 }, should), on({ m: 3 }, should), on({ m: 3 }, { should: [] })]).toEqual([true, false, true]);
  });

  it('fails when a must_not condition holds', () => {
    const filter = { must_not: [{ key: 'm', match: { value: 'x' } }] };
    expect([on({ m: 'x' }, filter), on({ m: 'y' }, filter), on({}, {})]).toEqual([false, true, true]);
  });

  it('matches an array field when any element matches, by value and by any', () => {
    expect(on({ h: ['Intro', 'Setup'] }, { must: [{ key: 'h', match: { value: 'Setup' } }] })).toBe(true);
    expect(on({ h: ['Intro'] }, { must: [{ key: 'h', match: { value: 'Setup' } }] })).toBe(false);
    expect(on({ h: ['Intro', 'Setup'] }, { must: [{ key: 'h', match: { any: ['x', 'Setup'] } }] })).toBe(true);
    expect(on({ h: 'Setup' }, { must: [{ key: 'h', match: { any: ['x', 'y'] } }] })).toBe(false);
  });

  it('treats a missing key, null and [] as empty, and only an explicit null as null', () => {
    const empty = (payload: Payload) => on(payload, { must: [{ is_empty: { key: 'k' } }] });
    const isNull = (payload: Payload) => on(payload, { must: [{ is_null: { key: 'k' } }] });
    expect([empty({}), empty({ k: null }), empty({ k: [] }), empty({ k: [0] }), empty({ k: '' })]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect([isNull({ k: null }), isNull({}), isNull({ k: [] })]).toEqual([true, false, false]);
  });
});
