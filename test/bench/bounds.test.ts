/** The lower bounds the benchmark prints its measurements against: requests per endpoint and the critical path. */
import { describe, expect, it } from 'vitest';
import {
  criticalPath,
  dependentChains,
  engineChain,
  partitionedScroll,
  type RunShape,
  requestLowerBounds,
} from '../../bench/bounds.ts';

const shape = (overrides: Partial<RunShape> = {}): RunShape => ({
  queries: 200,
  agentQueries: 0,
  agentChats: 0,
  points: 100_000,
  payloadIndexes: true,
  requiredFields: 6,
  pageSize: 1000,
  concurrency: 4,
  sitemapLevels: 1,
  ...overrides,
});

describe('requestLowerBounds', () => {
  it('asks 3 + 1 embed and 2 + 1 query-batch calls for 200 queries (20 of them exact), 5 facets, 2 + F counts and one canary page on an indexed collection', () => {
    expect(requestLowerBounds(shape())).toEqual({
      embed: 4,
      chat: 0,
      get_collection: 1,
      query_batch_points: 3,
      facet: 5,
      count_points: 8,
      scroll_points: 1,
      get_points: 0,
      sitemap: 1,
    });
  });

  it('asks the same number of requests of an indexed collection at every size: 23 at N = 200', () => {
    const total = (points: number) => Object.values(requestLowerBounds(shape({ points }))).reduce((a, b) => a + b, 0);
    expect([total(10_000), total(100_000), total(1_000_000), total(10_000_000)]).toEqual([23, 23, 23, 23]);
  });

  it('adds one page_version facet per indexing time when the collection holds several', () => {
    expect(requestLowerBounds(shape({ indexingTimes: 1 })).facet).toBe(5);
    expect(requestLowerBounds(shape({ indexingTimes: 3 })).facet).toBe(8);
  });

  it('replaces the facets by ceil(P / pageSize) scroll pages, once for the profile and the inventory riding it, when the payload indexes are missing', () => {
    const bounds = requestLowerBounds(shape({ payloadIndexes: false, points: 2_500 }));

    expect(bounds.facet).toBe(0);
    expect(bounds.scroll_points).toBe(1 + 3);
  });

  it('adds the catalog’s 2 facets, or its scroll without payload indexes, when the suite names a module', () => {
    expect(requestLowerBounds(shape({ catalog: true }))).toMatchObject({ facet: 7, scroll_points: 1 });
    expect(requestLowerBounds(shape({ catalog: true, payloadIndexes: false, points: 2_500 }))).toMatchObject({
      facet: 0,
      scroll_points: 1 + 6,
    });
  });

  it('asks one scroll page of an empty collection for each scroll, and embeds no canary', () => {
    expect(requestLowerBounds(shape({ payloadIndexes: false, points: 0 }))).toMatchObject({
      scroll_points: 1 + 1,
      get_points: 0,
      embed: 3,
    });
  });

  it('adds no embed or search for agent queries (they reuse the query stage’s hits), and a chat for each that found a relevant chunk', () => {
    const bounds = requestLowerBounds(shape({ queries: 19, agentQueries: 5, agentChats: 4, points: 92 }));

    expect(bounds).toMatchObject({ embed: 2, query_batch_points: 2, chat: 4 });
  });

  it('adds one chat call per claim the judge was asked about, and none without the judge', () => {
    const judged = requestLowerBounds(
      shape({ queries: 22, agentQueries: 6, agentChats: 5, judgeCalls: 5, points: 92 }),
    );
    const lexical = requestLowerBounds(
      shape({ queries: 22, agentQueries: 6, agentChats: 5, judgeCalls: 0, points: 92 }),
    );

    expect(judged.chat).toBe(10);
    expect(lexical.chat).toBe(5);
  });
});

describe('dependentChains', () => {
  it('judges a run by the work’s own chain: describe beside the embed calls, then the search, 2 round trips at N = 200', () => {
    expect(criticalPath(shape({ points: 1_000 }), 50)).toEqual({
      name: 'describe ∥ embed → search',
      roundTrips: 2,
      kind: 'work',
      boundMs: 100,
    });
  });

  it('reads the fallback scroll in W id ranges: the first page, then ceil((P - page) / (page W)) pages deep', () => {
    const scroll = (points: number, partitions: number) => partitionedScroll({ points, pageSize: 1000, partitions });
    expect(scroll(1_000_000, 1)).toEqual({ requests: 1000, depth: 1000 });
    // 999,000 points in 8 ranges of 124,875: 125 pages each, the last one shared with the next range's first ids.
    expect(scroll(1_000_000, 8)).toEqual({ requests: 1 + 8 * 125, depth: 1 + 125 });
    expect(scroll(100_000, 8)).toEqual({ requests: 1 + 8 * 13, depth: 1 + 13 });
    // No range smaller than a page: 2,500 points are 3 pages, 2 deep, at W = 8.
    expect(scroll(2_500, 8)).toEqual({ requests: 3, depth: 2 });
    expect(scroll(3_000, 8)).toEqual({ requests: 3, depth: 2 });
    expect(scroll(1_000, 8)).toEqual({ requests: 1, depth: 1 });
    expect(scroll(0, 8)).toEqual({ requests: 1, depth: 1 });
    expect(requestLowerBounds(shape({ payloadIndexes: false, points: 100_000, partitions: 8 })).scroll_points).toBe(
      1 + 105,
    );
    expect(engineChain(shape({ payloadIndexes: false, points: 1_000_000, partitions: 8 }), 50).roundTrips).toBe(
      2 + 126,
    );
  });

  it('keeps the bound at the work’s whatever the engine adds: the scroll of a large collection is the engine’s chain', () => {
    expect(criticalPath(shape({ payloadIndexes: false, points: 1_000_000 }), 50).roundTrips).toBe(2);
    expect(engineChain(shape({ payloadIndexes: false, points: 1_000_000 }), 50)).toEqual({
      name: 'describe → counts → scroll pages',
      roundTrips: 1002,
      kind: 'engine',
      boundMs: 50_100,
    });
  });

  it('gives the inventory no chain of its own without payload indexes: it rides the profile’s scroll', () => {
    const names = (payloadIndexes: boolean) =>
      dependentChains(shape({ payloadIndexes, points: 1_000_000, partitions: 8 })).map((c) => c.name);
    expect(names(false)).not.toContain('describe → page facets');
    expect(names(false).filter((n) => n.includes('scroll'))).toEqual(['describe → counts → scroll pages']);
    expect(names(true)).toContain('describe → page facets');
  });

  it('gives an indexed collection’s engine 3 round trips at every size: the exact searches after the query chain', () => {
    for (const points of [10_000, 1_000_000, 10_000_000])
      expect(engineChain(shape({ points }), 50)).toMatchObject({ name: 'queries → exact searches', roundTrips: 3 });
    const chains = dependentChains(shape({ indexingTimes: 2 }));
    expect(chains.find((c) => c.name === 'describe → page facets')?.roundTrips).toBe(3);
    expect(chains.find((c) => c.name === 'canary sample → canary embed')?.roundTrips).toBe(2);
  });

  it('adds a wave of embed calls when the batches outnumber the concurrency', () => {
    // 500 queries: 6 embed calls in 2 waves of 4, then 5 searches in 2 waves.
    const chains = dependentChains(shape({ queries: 500, concurrency: 4 }));

    expect(chains.find((c) => c.name === 'describe ∥ embed → search')).toEqual({
      name: 'describe ∥ embed → search',
      roundTrips: 4,
      kind: 'work',
    });
  });

  it('makes the agent the critical path: the query stage, then its chats one after the other', () => {
    expect(criticalPath(shape({ queries: 19, agentQueries: 5, agentChats: 4, points: 92 }), 50)).toEqual({
      name: 'queries → agent chats one by one',
      roundTrips: 6,
      kind: 'work',
      boundMs: 300,
    });
  });

  it('puts the judge calls on the agent’s chain, one after the other after the chats', () => {
    expect(criticalPath(shape({ queries: 22, agentQueries: 6, agentChats: 5, judgeCalls: 5, points: 92 }), 50)).toEqual(
      {
        name: 'queries → agent chats and judge calls one by one',
        roundTrips: 2 + 5 + 5,
        kind: 'work',
        boundMs: 600,
      },
    );
  });

  it('makes a sitemap index’s two levels the bound when the queries take fewer', () => {
    expect(criticalPath(shape({ queries: 20, sitemapLevels: 3 }), 50)).toMatchObject({
      name: 'sitemap',
      roundTrips: 3,
    });
  });
});

describe('the exact searches of ANN health in the bounds', () => {
  it('count the sample, not the suite: 1 call at the default 20, 2 when the sample is the suite of 200, none at 0', () => {
    expect(requestLowerBounds(shape()).query_batch_points).toBe(2 + 1);
    expect(requestLowerBounds(shape({ annSample: 200 })).query_batch_points).toBe(2 + 2);
    expect(requestLowerBounds(shape({ annSample: 0 })).query_batch_points).toBe(2);
    expect(requestLowerBounds(shape({ queries: 5 })).query_batch_points).toBe(1 + 1);
  });
});
