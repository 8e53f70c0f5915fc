/**
 * ANN health's exact batch goes out beside the query stage's own searches, not after them: proved by order, not time.
 * The index below holds every approximate batch until an exact batch has been sent; if the exact batch still waited
 * for the approximate answers (the chain before), the held batch gives up and says so, and the run's query stage fails.
 */
import { describe, expect, it } from 'vitest';
import { annHealthCheck } from '../../../functions/core/index-health/ann-health-check.ts';
import type { SearchHit, SearchRequest } from '../../../functions/core/ports.ts';
import { MemoryIndex } from '../../fakes/memory-index.ts';
import { buildRunContext, runCheck } from '../../fakes/run-context.ts';
import { point } from './context.ts';

/** How many turns of the event loop a held approximate batch waits for an exact batch before it gives up. */
const PATIENCE = 200;

/** A MemoryIndex whose approximate batches answer only once an exact batch has been called; the order is recorded. */
class OverlapIndex extends MemoryIndex {
  readonly order: string[] = [];
  /** The approximate batches fail (after the exact batch went out) when set. */
  approximateFailure: Error | undefined;
  /** Set by the first exact batch (or by a test where none may come). */
  exactSent = false;

  override async searchBatch(requests: SearchRequest[]): Promise<SearchHit[][]> {
    const exact = requests.every((r) => r.exact === true);
    this.order.push(`${exact ? 'exact' : 'approximate'} sent (${requests.length})`);
    if (exact) {
      this.exactSent = true;
      return super.searchBatch(requests);
    }
    for (let turn = 0; !this.exactSent; turn += 1) {
      if (turn === PATIENCE) {
        this.order.push('approximate gave up');
        throw new Error('the exact batch was not sent while the approximate batch was in flight');
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.order.push('approximate answered');
    if (this.approximateFailure) throw this.approximateFailure;
    return super.searchBatch(requests);
  }
}

const POINTS = Array.from({ length: 6 }, (_, i) =>
  point(`p${i}`, { chunk_index: i, module_name: 'Module 1 Ros2' }, [1, i * 0.2, 0]),
);

const setup = (queries: unknown[], annSample?: number) => {
  const index = new OverlapIndex(POINTS);
  const run = buildRunContext({
    index,
    suite: { queries },
    options: { requiredFields: ['source_url'], ...(annSample === undefined ? {} : { indexHealth: { annSample } }) },
  });
  return { index, ctx: run.ctx, stages: () => run.stages() };
};

describe('ANN health beside the query stage', () => {
  it('sends the exact batch while the approximate batch is still unanswered, and pairs them once both are back', async () => {
    const { index, ctx } = setup([
      { id: 'a', query_text: 'a', top_k: 3 },
      { id: 'b', query_text: 'b', top_k: 2 },
    ]);

    const result = await runCheck(annHealthCheck, ctx);

    expect(index.order).toEqual(['approximate sent (2)', 'exact sent (2)', 'approximate answered']);
    expect(result.failures).toEqual([]);
    expect(result.sections?.index_health?.ann).toMatchObject({
      queries_compared: 2,
      queries_searched: 2,
      recall: 1,
      per_query: [
        { query_id: 'a', k: 3, recall: 1 },
        { query_id: 'b', k: 2, recall: 1 },
      ],
    });
    // The same requests as the approximate ones, exact and without payload.
    const [exact, approximate] = index.searches;
    expect(exact).toEqual(approximate?.map((r) => ({ ...r, payloadFields: [], exact: true })));
  });

  it('compares the exact hits with the approximate hits of the same query, not of the same position', async () => {
    const { index, ctx } = setup([
      { id: 'a', query_text: 'a', top_k: 3 },
      { id: 'b', query_text: 'b', top_k: 3 },
    ]);
    // Approximate search misses p1 (a degraded graph): every query finds 2 of its 3 exact neighbours.
    index.unreachable.add('p1');

    const ann = (await runCheck(annHealthCheck, ctx)).sections?.index_health?.ann;

    expect(ann).toMatchObject({ queries_compared: 2, recall: 0.6667 });
    expect(index.order.slice(0, 2)).toEqual(['approximate sent (2)', 'exact sent (2)']);
  });

  it('draws the sample from the searches the stage sends: a query kept from searching is never sent exact', async () => {
    const { index, ctx } = setup([
      { id: 'known', query_text: 'ros', filters: { module: 'Module 1 Ros2' } },
      { id: 'unknown', query_text: 'isaac', filters: { module: 'Module 9 Isaac' } },
    ]);

    const ann = (await runCheck(annHealthCheck, ctx)).sections?.index_health?.ann;

    expect(index.order).toEqual(['approximate sent (1)', 'exact sent (1)', 'approximate answered']);
    expect(ann).toMatchObject({ queries_compared: 1, queries_searched: 1, per_query: [{ query_id: 'known' }] });
  });

  it('leaves ANN health not applicable when the query stage fails, its failure reported once, as the queries', async () => {
    const { index, ctx } = setup([{ id: 'a', query_text: 'a' }]);
    index.approximateFailure = new Error('search refused');

    const result = await runCheck(annHealthCheck, ctx);

    // The exact batch went out beside it and answered; it is not compared with searches that failed.
    expect(index.order).toEqual(['approximate sent (1)', 'exact sent (1)', 'approximate answered']);
    // As when the exact batch went after the searches: nothing searched, nothing compared, no finding of its own.
    expect(result).toMatchObject({ status: 'not_applicable', errors: [], verdicts: [] });
    expect(result.sections?.index_health?.ann).toMatchObject({ queries_compared: 0, queries_searched: 0 });
    expect(result.failures).toEqual([expect.stringMatching(/^queries: no query could be run: search refused/)]);
  });

  it('sends nothing exact and times no exact step with a sample of 0', async () => {
    const { index, ctx, stages } = setup([{ id: 'a', query_text: 'a' }], 0);
    // Nothing exact will come: the approximate batch must not wait for it.
    index.exactSent = true;

    const result = await runCheck(annHealthCheck, ctx);

    expect(index.order).toEqual(['approximate sent (1)', 'approximate answered']);
    expect(Object.keys(stages())).not.toContain('exact_search');
    expect(result.status).toBe('not_applicable');
  });
});
