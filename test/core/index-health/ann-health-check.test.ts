import { describe, expect, it } from 'vitest';
import { annHealthCheck } from '../../../functions/core/index-health/ann-health-check.ts';
import type { PayloadFilter } from '../../../functions/core/ports.ts';
import { runCheck } from '../../fakes/run-context.ts';
import { healthContext, point } from './context.ts';

const Q = [1, 0, 0];
/** Ten points ranked p0 (closest to Q) to p9 by exact search. */
const POINTS = Array.from({ length: 10 }, (_, i) => point(`p${i}`, { chunk_index: i }, [1, i * 0.2, 0]));
const TOP5 = ['p0', 'p1', 'p2', 'p3', 'p4'];

/** A search of the query step, answered by the approximate index with these ids. */
const search = (queryId: string, found: string[], limit = 5, filter?: PayloadFilter) => ({
  queryId,
  request: { vector: Q, limit, payloadFields: ['source_url'], ...(filter ? { filter } : {}) },
  hits: found.map((id) => ({ id, score: 0, payload: {} })),
});

const run = (searched: ReturnType<typeof search>[] | Error, criteria = {}, annSample?: number) => {
  const setup = healthContext({
    points: POINTS,
    searched,
    criteria,
    ...(annSample === undefined ? {} : { options: { indexHealth: { annSample } } }),
  });
  return { setup, result: runCheck(annHealthCheck, setup.ctx) };
};

describe('the ANN-health check', () => {
  it('finds recall 1 when approximate search returns what exact search does, and passes', async () => {
    const result = await run([search('a', TOP5), search('b', ['p0', 'p1'], 2)]).result;
    expect(result.sections?.index_health?.ann).toEqual({
      queries_compared: 2,
      queries_searched: 2,
      sample_size: 20,
      recall: 1,
      threshold: 0.95,
      per_query: [
        { query_id: 'a', k: 5, recall: 1 },
        { query_id: 'b', k: 2, recall: 1 },
      ],
    });
    expect(result.errors).toEqual([]);
    expect(result.verdicts).toEqual([
      {
        name: 'ann_recall',
        description: 'Mean recall@k of approximate search against exact search',
        value: 1,
        threshold: 0.95,
        comparator: '>=',
        passed: true,
        severity: 'HIGH',
      },
    ]);
  });

  it('sends the searches once more, exact, with their vector, limit and filter and no payload', async () => {
    const filter = { must: [{ key: 'chunk_index', match: { any: [1, 2, 3] } }] };
    const { setup, result } = run([search('a', TOP5), search('f', ['p1', 'p2', 'p3'], 3, filter)]);
    await result;
    expect(setup.index.searches).toEqual([
      [
        { vector: Q, limit: 5, payloadFields: [], exact: true },
        { vector: Q, limit: 3, payloadFields: [], exact: true, filter },
      ],
    ]);
    expect((await result).sections?.index_health?.ann?.recall).toBe(1);
  });

  it('sends 100 searches in one exact batch, timed as the step "exact_search"', async () => {
    const { setup, result } = run(
      Array.from({ length: 100 }, (_, i) => search(`q${i}`, TOP5)),
      {},
      100,
    );
    await result;
    expect(setup.index.searches.map((batch) => batch.length)).toEqual([100]);
    expect(setup.stages()).toEqual(['exact_search', 'queries']);
  });

  it('sends the exact searches in batches of 100', async () => {
    const searches = Array.from({ length: 101 }, (_, i) => search(`q${i}`, TOP5));
    const { setup, result } = run(searches, {}, 101);
    expect((await result).sections?.index_health?.ann?.queries_compared).toBe(101);
    expect(setup.index.searches.map((batch) => batch.length)).toEqual([100, 1]);
  });

  it('reports one query below the threshold while the mean holds as ANN_RECALL_LOW, medium, naming it', async () => {
    const searched = [
      ...Array.from({ length: 9 }, (_, i) => search(`ok${i}`, TOP5)),
      search('worse', ['p0', 'p1', 'p2', 'p3', 'p9']),
    ];
    const result = await run(searched).result;
    expect(result.sections?.index_health?.ann).toMatchObject({ queries_compared: 10, recall: 0.98 });
    expect(result.errors).toEqual([
      {
        id: 'id-1',
        validation_id: 'run-1',
        error_type: 'ANN_RECALL_LOW',
        severity: 'MEDIUM',
        message:
          'approximate search recall@k is 0.98 overall against exact search (threshold 0.95); 1 of 10 queries below it, e.g. worse at 0.8',
        details: { recall: 0.98, threshold: 0.95, queries: [{ query_id: 'worse', k: 5, recall: 0.8 }] },
      },
    ]);
    expect(result.verdicts?.[0]).toMatchObject({ value: 0.98, passed: true });
  });

  it('reports a mean below the threshold as ANN_RECALL_LOW, high, and fails the criterion', async () => {
    const result = await run([search('a', TOP5), search('b', ['p0', 'p5', 'p6', 'p7', 'p8'])]).result;
    expect(result.sections?.index_health?.ann).toMatchObject({ recall: 0.6 });
    expect(result.errors[0]).toMatchObject({ error_type: 'ANN_RECALL_LOW', severity: 'HIGH' });
    expect(result.errors[0]?.message).toBe(
      'approximate search recall@k is 0.6 overall against exact search (threshold 0.95); 1 of 2 queries below it, e.g. b at 0.2',
    );
    expect(result.verdicts?.[0]).toMatchObject({ value: 0.6, passed: false });
  });

  it('judges a query and the mean at the threshold as holding, and just under it as not', async () => {
    const searched = [search('a', ['p0', 'p1', 'p2', 'p3', 'p9'])];
    const at = await run(searched, { min_ann_recall: 0.8 }).result;
    expect([at.errors, at.verdicts?.[0]?.passed]).toEqual([[], true]);
    const above = await run(searched, { min_ann_recall: 0.8001 }).result;
    expect([above.errors[0]?.severity, above.verdicts?.[0]?.passed]).toEqual(['HIGH', false]);
  });

  it('calls a mean exactly at the threshold with one query under it a medium finding', async () => {
    const result = await run([search('a', TOP5), search('b', ['p0', 'p1', 'p2', 'p8', 'p9'])], {
      min_ann_recall: 0.8,
    }).result;
    expect(result.sections?.index_health?.ann?.recall).toBe(0.8);
    expect(result.errors.map((e) => [e.severity, e.details.queries])).toEqual([
      ['MEDIUM', [{ query_id: 'b', k: 5, recall: 0.6 }]],
    ]);
    expect(result.verdicts?.[0]?.passed).toBe(true);
  });

  it('rounds each recall and the mean to 4 decimals', async () => {
    const result = await run([search('a', ['p0', 'p1', 'p2']), search('b', ['p0', 'p8', 'p9'], 3)], {
      min_ann_recall: 0,
    }).result;
    expect(result.sections?.index_health?.ann).toMatchObject({
      recall: 0.4667,
      per_query: [
        { query_id: 'a', k: 5, recall: 0.6 },
        { query_id: 'b', k: 3, recall: 0.3333 },
      ],
    });
  });

  it('names at most 10 queries below the threshold in the finding', async () => {
    const searched = Array.from({ length: 12 }, (_, i) => search(`low${i}`, ['p9']));
    const details = (await run(searched).result).errors[0]?.details as { queries: unknown[] };
    expect(details.queries).toHaveLength(10);
  });

  it('does not compare a query that exact search finds nothing for, and judges nothing without one', async () => {
    const nothing = { must: [{ key: 'chunk_index', match: { value: 99 } }] };
    const result = await run([search('empty', [], 5, nothing)]).result;
    expect(result.sections?.index_health?.ann).toEqual({
      queries_compared: 0,
      queries_searched: 1,
      sample_size: 20,
      recall: null,
      threshold: 0.95,
      per_query: [],
    });
    expect([result.errors, result.verdicts]).toEqual([[], []]);
  });

  it('is skipped when the query step failed, which is reported once, as the queries', async () => {
    const { setup, result } = run(new Error('embed refused'));
    expect(await result).toMatchObject({ status: null, errors: [], failures: ['queries: embed refused'] });
    expect(setup.index.calls).toEqual([]);
  });

  it('says ANN health could not be measured when the exact search fails', async () => {
    const setup = healthContext({ points: POINTS, searched: [search('a', TOP5)] });
    setup.index.failWith.searchBatch = new Error('search refused');
    expect(await runCheck(annHealthCheck, setup.ctx)).toMatchObject({
      status: null,
      errors: [],
      failures: ['ann health: search refused'],
    });
  });

  it("repeats only tonight's sample of 20 searches by default, in one batch, and says what it was drawn from", async () => {
    const searches = Array.from({ length: 101 }, (_, i) => search(`q${i}`, TOP5));
    const { setup, result } = run(searches);
    const ann = (await result).sections?.index_health?.ann;
    expect(setup.index.searches.map((batch) => batch.length)).toEqual([20]);
    expect(ann).toMatchObject({ queries_compared: 20, queries_searched: 101, sample_size: 20, recall: 1 });
  });

  it('with a sample of 0 sends no exact search and leaves the criterion not evaluated', async () => {
    const { setup, result } = run([search('a', TOP5), search('b', ['p0', 'p9'], 2)], {}, 0);
    const judged = await result;
    expect(setup.index.searches).toEqual([]);
    expect(setup.stages()).toEqual(['queries']);
    expect(judged.sections?.index_health?.ann).toEqual({
      queries_compared: 0,
      queries_searched: 2,
      sample_size: 0,
      recall: null,
      threshold: 0.95,
      per_query: [],
    });
    expect([judged.errors, judged.verdicts]).toEqual([[], []]);
  });

  it('compares every search when the sample is at least the suite, and one fewer when it is one short', async () => {
    const searches = Array.from({ length: 3 }, (_, i) => search(`q${i}`, TOP5));
    const all = await run(searches, {}, 3).result;
    expect(all.sections?.index_health?.ann?.queries_compared).toBe(3);
    const short = await run(searches, {}, 2).result;
    expect(short.sections?.index_health?.ann?.queries_compared).toBe(2);
  });
});
