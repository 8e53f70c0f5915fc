/**
 * The faults a scenario can inject, one entry each: which incident track should hear of it, and what it does to
 * the night's world (the points indexed, the sitemap, the stand-ins). A fault acts on a fresh copy of the clean
 * world every night, so ending a fault is simply not applying it.
 */
import { createHash } from 'node:crypto';
import type { NightWorld } from './world.ts';

export interface FaultKindSpec {
  /** The incident track whose emails announce this fault. */
  track: 'quality' | 'infrastructure' | 'suite';
  needs: ('target' | 'to')[];
  describe: string;
  apply(world: NightWorld, fault: { target?: string; to?: string }): void;
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
    apply: (world) => {
      world.qdrantDown = true;
    },
  },
  /** (f) The book published a new page that nobody indexed. */
  'page-not-indexed': {
    track: 'quality',
    needs: ['target'],
    describe: 'a new page in the sitemap never indexed',
    apply: (world, { target }) => {
      world.sitemapPaths.push(target ?? '');
    },
  },
  /** (h) A page renamed in the book (and re-indexed under its new URL): the suite still expects the old one. */
  'page-renamed': {
    track: 'suite',
    needs: ['target', 'to'],
    describe: 'a page renamed in the book, so the suite’s expectation is stale',
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
    apply: (world) => {
      world.annVisitFraction = 0.3;
    },
  },
} satisfies Record<string, FaultKindSpec>;

export type FaultKind = keyof typeof FAULT_KINDS;
