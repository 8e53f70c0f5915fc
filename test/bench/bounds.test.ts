/** The lower bounds the benchmark prints its measurements against: requests per endpoint and the critical path. */
import { describe, expect, it } from 'vitest';
import { criticalPath, dependentChains, type RunShape, requestLowerBounds } from '../../bench/bounds.ts';

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
  it('asks 3 + 1 embed and 2 + 2 query-batch calls for 200 queries, 3 facets, 2 + F counts and the inventory scroll on an indexed collection', () => {
    expect(requestLowerBounds(shape())).toEqual({
      embed: 4,
      chat: 0,
      get_collection: 1,
      query_batch_points: 4,
      facet: 3,
      count_points: 8,
      scroll_points: 100,
      get_points: 1,
      sitemap: 1,
    });
  });

  it('replaces the facets by ceil(P / pageSize) scroll pages, beside the inventory’s, when the payload indexes are missing', () => {
    const bounds = requestLowerBounds(shape({ payloadIndexes: false, points: 2_500 }));

    expect(bounds.facet).toBe(0);
    expect(bounds.scroll_points).toBe(6);
  });

  it('adds the catalog’s 2 facets, or its scroll without payload indexes, when the suite names a module', () => {
    expect(requestLowerBounds(shape({ catalog: true }))).toMatchObject({ facet: 5, scroll_points: 100 });
    expect(requestLowerBounds(shape({ catalog: true, payloadIndexes: false, points: 2_500 }))).toMatchObject({
      facet: 0,
      scroll_points: 9,
    });
  });

  it('asks one scroll page of an empty collection for each scroll, and no canary', () => {
    expect(requestLowerBounds(shape({ payloadIndexes: false, points: 0 }))).toMatchObject({
      scroll_points: 2,
      get_points: 0,
      embed: 3,
    });
  });

  it('adds no embed or search for agent queries (they reuse the query stage’s hits), and a chat for each that found a relevant chunk', () => {
    const bounds = requestLowerBounds(shape({ queries: 19, agentQueries: 5, agentChats: 4, points: 92 }));

    expect(bounds).toMatchObject({ embed: 2, query_batch_points: 2, chat: 4 });
  });
});

describe('dependentChains', () => {
  it('counts describe beside the embed calls, then the search, then the exact search: 4 round trips at N = 200', () => {
    expect(criticalPath(shape({ points: 1_000 }), 50)).toEqual({
      name: 'queries → exact searches',
      roundTrips: 4,
      boundMs: 200,
    });
  });

  it('makes the inventory scroll the critical path of a large indexed collection: one page after another', () => {
    expect(criticalPath(shape(), 50)).toEqual({
      name: 'inventory scroll pages → canary retrieve → canary embed',
      roundTrips: 102,
      boundMs: 5_100,
    });
  });

  it('makes the scroll the critical path without payload indexes: describe, counts, then one page after another', () => {
    expect(criticalPath(shape({ payloadIndexes: false }), 50)).toEqual({
      name: 'describe → counts → scroll pages',
      roundTrips: 102,
      boundMs: 5_100,
    });
  });

  it('adds a wave of embed calls when the batches outnumber the concurrency', () => {
    // 500 queries: 6 embed calls in 2 waves of 4, then 5 searches in 2 waves.
    const chains = dependentChains(shape({ queries: 500, concurrency: 4 }));

    expect(chains.find((c) => c.name === 'describe ∥ embed → search')).toEqual({
      name: 'describe ∥ embed → search',
      roundTrips: 4,
    });
  });

  it('makes the agent the critical path: the query stage, then its chats one after the other', () => {
    expect(criticalPath(shape({ queries: 19, agentQueries: 5, agentChats: 4, points: 92 }), 50)).toEqual({
      name: 'queries → agent chats one by one',
      roundTrips: 6,
      boundMs: 300,
    });
  });
});
