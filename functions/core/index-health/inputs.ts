/**
 * The index-health inputs: the index inventory (facets where the payload indexes allow, else one scroll), and the
 * I/O three checks once did themselves (the exact searches of ANN health, the drift canary's sample and embed, the
 * mixed-models facet), each through its named step. A failure of these is not reported when the collection itself
 * could not be read (the profile says so, once).
 */
import pLimit from 'p-limit';
import { CANARY_FIELDS, embeddedText, type PayloadField } from '../book/payload.ts';
import { type Input, outcome } from '../checks/input.ts';
import { DEFAULT_ANN_SAMPLE } from '../config.ts';
import type { SearchHit, SearchRequest } from '../ports.ts';
import { collectionProfile, inventoryRides } from '../quality/inputs.ts';
import { hasPageIndexes, type IndexInventory, NO_MODEL, type ScrolledInventory } from '../quality/page-inventory.ts';
import { collectionDescription, searchedQueries } from '../queries/inputs.ts';
import { SEARCH_BATCH_SIZE } from '../queries/query-stage.ts';
import { annSample } from './ann-sample.ts';
import { readInventory } from './inventory.ts';
import { readPageVersions } from './page-versions.ts';

/**
 * The inventory scroll, read at most once per run: folded from the profile's own scroll when both must read every
 * point (inventoryRides: one pass, no step of its own), else its own scroll as the step `inventory`
 * (ceil(P / page size) requests in W id ranges).
 */
export const scrolledInventory: Input<ScrolledInventory> = {
  name: 'inventory scroll',
  steps: ['inventory'],
  resolve: async (ctx) => {
    const info = await outcome(ctx.input(collectionDescription));
    // The profile carries it whenever inventoryRides (it then always scrolls); its own scroll otherwise.
    const riding = info.ok && inventoryRides(info.value) ? (await ctx.input(collectionProfile)).inventory : undefined;
    return riding ?? readInventory(ctx);
  },
  failure: { label: 'index inventory', silentWhen: [collectionProfile] },
};

/**
 * Every page's versions, duplicate chunks and oldest indexing time: by the page_version and indexed_at facets where
 * both keyword indexes exist (a constant number of requests), else (or when a facet may have been cut) by the scroll.
 */
export const indexInventory: Input<IndexInventory> = {
  name: 'inventory',
  steps: ['page_facets'],
  resolve: async (ctx) => {
    const info = await outcome(ctx.input(collectionDescription));
    if (info.ok && hasPageIndexes(info.value)) {
      const profiled = ctx.input(collectionProfile);
      // Awaited inside readPageVersions once the first facets are back; a failure is the profile's to report.
      profiled.catch(() => undefined);
      const read = await ctx.step('page_facets', () => readPageVersions(ctx.deps.index, profiled));
      if (read !== undefined) return read;
    }
    return ctx.input(scrolledInventory);
  },
  failure: { label: 'index inventory', silentWhen: [collectionProfile] },
};

/** Each searched query's approximate hits beside the exact hits of the same request (vector, filter, k). */
interface ExactComparison {
  queryId: string;
  request: SearchRequest;
  approximate: SearchHit[];
  exact: SearchHit[];
}

/** Tonight's exact-search sample beside the approximate hits, and what it was drawn from. */
export interface ExactSample {
  /** The searches the query stage made (the sample's population). */
  searched: number;
  /** The configured sample size (ANN_RECALL_SAMPLE). */
  sampleSize: number;
  compared: ExactComparison[];
}

/** Tonight's sample of the suite's searches sent once more with exact search: one query-batch call per 100, all at once. */
export const exactSearches: Input<ExactSample> = {
  name: 'exact_search',
  steps: ['exact_search'],
  resolve: async (ctx) => {
    const all = (await ctx.input(searchedQueries)).searches;
    const sampleSize = ctx.options.indexHealth?.annSample ?? DEFAULT_ANN_SAMPLE;
    const searches = annSample(all, sampleSize, ctx.startedAt);
    // No exact search requested at all (ANN_RECALL_SAMPLE=0, or no query was searched): no step, no request.
    if (searches.length === 0) return { searched: all.length, sampleSize, compared: [] };
    // Every batch at once (one round trip up to the limiter's share), as the query stage sends its own.
    const exact = await ctx.step('exact_search', async () => {
      const limit = pLimit(Math.max(1, ctx.options.searchConcurrency));
      const batches: SearchRequest[][] = [];
      for (let start = 0; start < searches.length; start += SEARCH_BATCH_SIZE) {
        batches.push(
          searches
            .slice(start, start + SEARCH_BATCH_SIZE)
            .map((s) => ({ ...s.request, payloadFields: [], exact: true })),
        );
      }
      const answers = await Promise.all(batches.map((batch) => limit(() => ctx.deps.index.searchBatch(batch))));
      return answers.flat();
    });
    const compared = searches.map((s, i) => ({
      queryId: s.queryId,
      request: s.request,
      approximate: s.hits,
      exact: exact[i] ?? [],
    }));
    return { searched: all.length, sampleSize, compared };
  },
  failure: { label: 'ann health' },
};

/** A stored chunk of the canary's sample: its vector as stored, and its text embedded again now. */
export interface CanaryPoint {
  pointId: string;
  sourceUrl: string | null;
  stored: number[];
  embedded: number[];
}

/**
 * A fixed sample of stored chunks read back with their vectors (the collection's first points in its own order, one
 * scroll request of at most one embed call's worth) and its text re-embedded (one embed call): two round trips,
 * whatever the collection's size.
 */
export const canarySample: Input<CanaryPoint[]> = {
  name: 'canary',
  steps: ['canary_sample', 'canary_embed'],
  resolve: async (ctx) => {
    const size = Math.min(ctx.options.indexHealth?.canarySample ?? 8, ctx.deps.embedder.maxBatchSize);
    if (size <= 0) return [];
    const points = await ctx.step('canary_sample', () => ctx.deps.index.firstPoints(size, CANARY_FIELDS));
    const withText = points.filter((p) => typeof p.payload.chunk_text === 'string' && p.vector.length > 0);
    if (withText.length === 0) return [];
    const embedded = await ctx.step('canary_embed', () =>
      ctx.deps.embedder.embedDocuments(
        withText.map((p) =>
          embeddedText({ chunk_text: p.payload.chunk_text as string, embed_header: p.payload.embed_header }),
        ),
      ),
    );
    return withText.map((p, i) => ({
      pointId: p.id,
      sourceUrl: typeof p.payload.source_url === 'string' ? p.payload.source_url : null,
      stored: p.vector,
      embedded: embedded.vectors[i] ?? [],
    }));
  },
  failure: { label: 'drift canary' },
};

const MODEL_FIELD: PayloadField = 'model_version';
/** A facet answering this many models may have been cut short: the scroll then counts them all. */
export const MODEL_FACET_LIMIT = 100;

/** Points per embedding model (NO_MODEL: points that do not say), and how they were counted. */
export interface ModelCounts {
  models: Map<string, number>;
  source: 'facet' | 'scroll';
}

/**
 * One exact facet on model_version where it has a keyword payload index (the indexer creates one); the points
 * without a model are then the profile's exact total minus the facet's counts. Without that index (or with a facet
 * cut at its limit), from the inventory's one scroll.
 */
export const embeddingModels: Input<ModelCounts> = {
  name: 'embedding models',
  steps: ['model_facet'],
  resolve: async (ctx) => {
    const info = await outcome(ctx.input(collectionDescription));
    if (info.ok && info.value.payloadIndexes[MODEL_FIELD] === 'keyword') {
      const [hits, profile] = await Promise.all([
        ctx.step('model_facet', () => ctx.deps.index.facet(MODEL_FIELD, MODEL_FACET_LIMIT)),
        ctx.input(collectionProfile),
      ]);
      if (hits.length < MODEL_FACET_LIMIT) {
        const models = new Map(hits.map((h) => [String(h.value), h.count]));
        const unlabelled = profile.totalPoints - hits.reduce((sum, h) => sum + h.count, 0);
        if (unlabelled > 0) models.set(NO_MODEL, unlabelled);
        return { models, source: 'facet' };
      }
    }
    return { models: (await ctx.input(scrolledInventory)).models, source: 'scroll' };
  },
  failure: { label: 'embedding models facet', silentWhen: [collectionProfile] },
};
