/**
 * The faults a scenario can inject, one entry each: which incident track should hear of it, and what it does to
 * the night's world (the points indexed, the sitemap, the stand-ins). A fault acts on a fresh copy of the clean
 * world every night, so ending a fault is simply not applying it.
 */
import { createHash } from 'node:crypto';
import type { NightWorld, QdrantHang } from './world.ts';

export interface FaultKindSpec {
  /** The incident track whose emails announce this fault. */
  track: 'quality' | 'infrastructure' | 'suite';
  needs: ('target' | 'to' | 'fall' | 'operation' | 'delay_ms')[];
  describe: string;
  /**
   * What the fault breaks, as an email names it (a finding kind, or a criterion's words): an onset or escalation
   * counts as detecting the fault only when its subject or body names at least one of these. For a `reported`
   * fault, the stored report's regression findings (kind, or kind:metric) instead.
   */
  names: string[];
  /**
   * Its findings are LOW, reported and never emailed (observe-run.ts): it is named when the night's stored report
   * holds one of `names`, not by an email.
   */
  reported?: true;
  /** `night` is the fault's own night, 1 on its first. */
  apply(world: NightWorld, fault: FaultParams, night: number): void;
}

interface FaultParams {
  target?: string | undefined;
  to?: string | undefined;
  fall?: number | undefined;
  ramp_nights?: number | undefined;
  keep_chunks?: number | undefined;
  operation?: QdrantHang['operationId'] | undefined;
  times?: number | undefined;
  delay_ms?: number | undefined;
}

/** A stable UUID for a name, so a replay writes the same ids every time. */
function uuidFrom(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const pageOf = (url: unknown) => (typeof url === 'string' ? new URL(url).pathname : '');

export const FAULT_KINDS = {
  /** (a) A whole module's chunks are gone from the index. */
  'module-dropped': {
    track: 'quality',
    needs: ['target'],
    describe: 'a module dropped from the index',
    names: ['pass rate', 'coverage', 'QUERY_REGRESSED'],
    apply: (world, { target }) => {
      world.points = world.points.filter((p) => !pageOf(p.payload.source_url).startsWith(`/docs/${target}/`));
    },
  },
  /**
   * (b) A page re-indexed without its old chunks removed: the previous version's points stay beside the new ones,
   * under other ids, with the old page_hash and the same chunk indexes (stale duplicates).
   */
  'stale-duplicate-chunks': {
    track: 'quality',
    needs: ['target'],
    describe: 'a page re-indexed leaving stale duplicate chunks',
    names: ['stale chunk'],
    apply: (world, { target }) => {
      const page = world.points.filter((p) => pageOf(p.payload.source_url) === target);
      for (const point of page)
        world.points.push({
          ...structuredClone(point),
          id: uuidFrom(`stale:${point.id}`),
          payload: {
            ...point.payload,
            page_hash: `previous-${String(point.payload.page_hash ?? '')}`,
            chunk_text: `${String(point.payload.chunk_text ?? '')} (previous version)`,
          },
        });
    },
  },
  /** (d) A page re-indexed by a writer that lost a payload field on its new chunks. */
  'payload-field-lost': {
    track: 'quality',
    needs: ['target'],
    describe: 'a payload field lost on newly indexed chunks',
    names: ['completeness'],
    apply: (world, { target }) => {
      for (const point of world.points)
        if (pageOf(point.payload.source_url) === target) {
          const { chapter_id: _lost, ...rest } = point.payload;
          point.payload = { ...rest, indexed_at: world.date };
        }
    },
  },
  /** (e) Qdrant answers 503 to everything all night. */
  'qdrant-down': {
    track: 'infrastructure',
    needs: [],
    describe: 'Qdrant down for the night',
    names: ['run ERROR'],
    apply: (world) => {
      world.qdrantDown = true;
    },
  },
  /**
   * Qdrant requests of one kind that hang until the client's timeout (QDRANT_TIMEOUT_MS): the next `times` of them
   * that night (1: a single blip, which the adapter's one retry of an idempotent read absorbs; many: every such
   * request of the night, so the step fails).
   */
  'qdrant-timeout': {
    track: 'infrastructure',
    needs: ['operation'],
    describe: 'Qdrant requests that time out',
    names: ['run ERROR'],
    apply: (world, { operation, times }) => {
      if (operation !== undefined) world.qdrantHangs.push({ operationId: operation, times: times ?? 1 });
    },
  },
  /**
   * Qdrant's searches slowed by `delay_ms` each (every query batch of the night answers that much later): a search
   * brute-forced after its HNSW index was lost, or vectors read from a cold disk. The run's latency percentiles (each
   * query's share of its batched calls) rise past their band: METRIC_DROPPED on a latency, LOW and reported only
   * (the p95 criterion, when the suite sets one, is the alerting line).
   */
  'search-slow': {
    track: 'quality',
    needs: ['delay_ms'],
    describe: 'Qdrant searches slowed',
    names: ['METRIC_DROPPED:p50_latency_ms', 'METRIC_DROPPED:p95_latency_ms', 'METRIC_DROPPED:p99_latency_ms'],
    reported: true,
    apply: (world, { delay_ms }) => {
      if (delay_ms !== undefined) world.qdrantSlow.push({ operationId: 'query_batch_points', delayMs: delay_ms });
    },
  },
  /** (f) The book published a new page that nobody indexed. */
  'page-not-indexed': {
    track: 'quality',
    needs: ['target'],
    describe: 'a new page in the sitemap never indexed',
    names: ['coverage', 'COVERAGE_NEWLY_MISSING'],
    apply: (world, { target }) => {
      world.sitemapPaths.push(target ?? '');
    },
  },
  /** (h) A page renamed in the book (and re-indexed under its new URL): the suite still expects the old one. */
  'page-renamed': {
    track: 'suite',
    needs: ['target', 'to'],
    describe: 'a page renamed in the book, so the suite’s expectation is stale',
    names: ['SUITE_STALE'],
    apply: (world, { target, to }) => {
      world.sitemapPaths = world.sitemapPaths.map((p) => (p === target ? (to ?? p) : p));
      for (const point of world.points)
        if (pageOf(point.payload.source_url) === target)
          point.payload = { ...point.payload, source_url: `${world.baseUrl}${to}` };
    },
  },
  /**
   * (c) The embedding model changed under the same name: the index holds vectors of one model, queries are embedded
   * by another. Simulated on the index side (each stored vector's dimensions rotated by half: a different but
   * equally valid vector space), which retrieval cannot tell from the Cohere side returning another model's vectors.
   */
  'embedding-model-swapped': {
    track: 'quality',
    needs: [],
    describe: 'the embedding model silently swapped',
    names: ['SCORE_SHIFT', 'canary'],
    apply: (world) => {
      for (const point of world.points) {
        const half = Math.floor(point.vector.length / 2);
        point.vector = [...point.vector.slice(half), ...point.vector.slice(0, half)];
      }
    },
  },
  /** (g) Approximate search degraded: the Qdrant stand-in's ANN visits only a share of the points (exact still all). */
  'ann-degraded': {
    track: 'quality',
    needs: [],
    describe: 'ANN search degraded (low recall against exact search)',
    names: ['QUERY_REGRESSED', 'ann recall'],
    apply: (world) => {
      world.annVisitFraction = 0.3;
    },
  },
  /**
   * Every similarity lower by a share, at once or growing night by night (a slow drift on the query side: a
   * query-embedding model or preprocessing update under the same name) with no criterion necessarily breached.
   * Applied to the scores Qdrant returns, so the stored vectors (and the drift canary, which re-embeds documents)
   * are untouched: only the regression detectors can see it.
   */
  'scores-lowered': {
    track: 'quality',
    needs: ['fall'],
    describe: 'every similarity lowered (a drift when it ramps)',
    names: ['SCORE_SHIFT', 'SCORE_DRIFT', 'mean best similarity'],
    apply: (world, { fall, ramp_nights }, night) => {
      world.scoreFactor = 1 - (fall ?? 0) * Math.min(night, ramp_nights ?? 1);
    },
  },
  /** A module re-indexed by a chunker that stops after a few chunks a page: its pages stay, their later text goes. */
  'module-truncated': {
    track: 'quality',
    needs: ['target'],
    describe: 'a module truncated to its first chunks on every page',
    names: ['missing chunk', 'MISSING_CHUNKS'],
    apply: (world, { target, keep_chunks }) => {
      world.points = world.points.filter(
        (p) =>
          !pageOf(p.payload.source_url).startsWith(`/docs/${target}/`) ||
          Number(p.payload.chunk_index) < (keep_chunks ?? 2),
      );
    },
  },
  /** The suite's maintainer added a query that fails from its first night: suite news, not a retrieval regression. */
  'query-added-failing': {
    track: 'suite',
    needs: [],
    describe: 'a query added to the suite that fails from its first night',
    names: ['NEW_QUERY_FAILING'],
    apply: (world) => {
      world.suite.queries.push({
        id: 'added-sourdough',
        query_text: 'How long should sourdough bread proof before baking?',
        category: 'semantic',
        expected_module: 'module-1-ros2',
        min_similarity: 0.9,
      });
    },
  },
} satisfies Record<string, FaultKindSpec>;

export type FaultKind = keyof typeof FAULT_KINDS;
