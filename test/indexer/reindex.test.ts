/**
 * Re-indexing through the real clients against the stand-ins: a page's points are replaced (no leftovers), unchanged
 * chunks are not re-embedded, `prune` removes the points of pages gone from the folder, and the counts say so.
 */
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type IndexBookOptions, indexBook } from '../../functions/indexer/index.ts';
import { type CohereStandIn, startCohereStandIn } from '../../sandbox/cohere/index.ts';
import { type QdrantStandIn, startQdrantStandIn } from '../../sandbox/qdrant/index.ts';

const BASE_URL = 'https://book.example.com';
let qdrant: QdrantStandIn;
let cohere: CohereStandIn;
let client: QdrantClient;
let docs: string;
let collection: string;
let counter = 0;

beforeAll(async () => {
  [qdrant, cohere] = await Promise.all([startQdrantStandIn(), startCohereStandIn()]);
  client = new QdrantClient({ url: qdrant.url, checkCompatibility: false, timeout: 5000 });
});

afterAll(async () => {
  await Promise.all([qdrant.stop(), cohere.stop()]);
});

beforeEach(async () => {
  counter += 1;
  collection = `reindex-${counter}`;
  docs = await mkdtemp(join(tmpdir(), 'ragwatch-reindex-'));
  return () => rm(docs, { recursive: true, force: true });
});

/**
 * A page of `sections` sections, each its own chunk: 160 more words each, so no two fit the 300-token target
 * together and the chunker does not merge them.
 */
function sections(count: number, word = 'text'): string {
  const filler = (i: number) => Array.from({ length: 160 }, (_, k) => `p${i}w${k}`).join(' ');
  return Array.from({ length: count }, (_, i) => `## Part ${i}\n\nThe ${word} of part ${i}. ${filler(i)}`).join('\n\n');
}

async function writePage(name: string, body: string): Promise<void> {
  await writeFile(join(docs, `${name}.md`), `---\ntitle: ${name}\n---\n\n${body}\n`);
}

function run(overrides: Partial<IndexBookOptions> = {}) {
  return indexBook({
    docsDir: docs,
    baseUrl: BASE_URL,
    qdrant: { url: qdrant.url, collection, timeoutMs: 5000 },
    cohere: { apiKey: 'k', baseUrl: cohere.url, model: 'embed-english-v3.0', timeoutMs: 5000, maxRetries: 0 },
    payloadIndexes: true,
    recreate: false,
    ...overrides,
  });
}

async function pointsByUrl(): Promise<Record<string, number>> {
  const { points } = await client.scroll(collection, { limit: 10_000, with_payload: ['source_url'] });
  const counts: Record<string, number> = {};
  for (const p of points) {
    const url = String(p.payload?.source_url);
    counts[url] = (counts[url] ?? 0) + 1;
  }
  return counts;
}

describe('re-indexing a docs folder', () => {
  it('replaces a shortened page’s points, leaving no leftovers', async () => {
    await writePage('a', sections(6));
    await run();
    await writePage('a', sections(3));
    const summary = await run();
    expect(await pointsByUrl()).toEqual({ [`${BASE_URL}/docs/a`]: 3 });
    expect([summary.written, summary.unchanged, summary.deleted]).toEqual([0, 3, 3]);
  });

  it('embeds only the chunks that changed', async () => {
    await writePage('a', sections(4));
    await writePage('b', sections(4));
    await run();
    await writePage('b', sections(4).replace('part 2.', 'part two.'));
    cohere.resetCounts();
    const summary = await run();
    expect([summary.written, summary.unchanged, summary.deleted]).toEqual([1, 7, 0]);
    expect(cohere.requestCounts().embed).toBe(1);
  });

  it('gives the unchanged chunks of an edited page its new page hash and version, so the page has one', async () => {
    await writePage('a', sections(3));
    await run();
    await writePage('a', sections(3).replace('part 0.', 'part zero.'));
    await run();
    const { points } = await client.scroll(collection, { limit: 100, with_payload: ['page_hash', 'page_version'] });
    expect(new Set(points.map((p) => p.payload?.page_hash)).size).toBe(1);
    const versions = [...new Set(points.map((p) => p.payload?.page_version))];
    expect(versions).toHaveLength(1);
    expect(String(versions[0])).toMatch(
      new RegExp(` ${String(points[0]?.payload?.page_hash)} ${points.length} \\d{4}-\\d{2}-\\d{2}$`),
    );
  });

  it('gives every point of an edited page the day of its edit, re-embedding only the changed chunk', async () => {
    // The day a date-only sitemap <lastmod> is compared with (freshness-check.ts): the file's time here, no git.
    const dated = async (when: string) => utimes(join(docs, 'a.md'), new Date(when), new Date(when));
    await writePage('a', sections(3));
    await dated('2025-01-01T12:00:00Z');
    await run();
    await writePage('a', sections(3).replace('part 0.', 'part zero.'));
    await dated('2025-02-03T23:59:00Z');
    cohere.resetCounts();
    await run();
    expect(cohere.requestCounts().embed).toBe(1);
    const { points } = await client.scroll(collection, { limit: 100, with_payload: ['page_version'] });
    expect(points.map((p) => String(p.payload?.page_version).slice(-11))).toEqual(Array(3).fill(' 2025-02-03'));
  });

  it('gives points written before page_version existed their page’s version on the next run, unchanged', async () => {
    await writePage('a', sections(3));
    await run();
    const before = await client.scroll(collection, { limit: 100, with_payload: false });
    await client.setPayload(collection, {
      wait: true,
      payload: { page_version: null },
      points: before.points.map((p) => p.id),
    });
    cohere.resetCounts();
    const summary = await run();
    const { points } = await client.scroll(collection, { limit: 100, with_payload: ['page_version'] });
    expect([summary.written, summary.unchanged, cohere.requestCounts().embed ?? 0]).toEqual([0, 3, 0]);
    expect(new Set(points.map((p) => p.payload?.page_version)).size).toBe(1);
    expect(points.every((p) => typeof p.payload?.page_version === 'string')).toBe(true);
  });

  it('creates the payload indexes an existing collection lacks even when nothing needs embedding', async () => {
    await writePage('a', sections(2));
    await run();
    const schema = async () => Object.keys((await client.getCollection(collection)).payload_schema ?? {}).sort();
    const before = await schema();
    expect(before).toContain('page_version');
    // The collection as an indexer without page_version left it: same points, no index on the new fields.
    const { points } = await client.scroll(collection, { limit: 100, with_payload: true, with_vector: true });
    await client.deleteCollection(collection);
    await client.createCollection(collection, {
      vectors: { size: (points[0]?.vector as number[] | undefined)?.length ?? 0, distance: 'Cosine' },
    });
    await client.upsert(collection, {
      wait: true,
      points: points.map((p) => ({ id: p.id, vector: p.vector as number[], payload: p.payload ?? {} })),
    });
    cohere.resetCounts();
    const summary = await run();
    expect([summary.written, cohere.requestCounts().embed ?? 0]).toEqual([0, 0]);
    expect(await schema()).toEqual(before);
  });

  it('reuses the stored vector of a chunk that moved, and embeds nothing when a section was only removed', async () => {
    // Prepare: six sections, one chunk each; the first is then deleted, so every later chunk's index shifts.
    await writePage('a', sections(6));
    await run();
    const vectorsByHash = async () => {
      const { points } = await client.scroll(collection, {
        limit: 100,
        with_payload: ['content_hash'],
        with_vector: true,
      });
      return new Map(points.map((p) => [String(p.payload?.content_hash), p.vector]));
    };
    const before = await vectorsByHash();
    await writePage('a', sections(6).replace(/^## Part 0\n\n.*\n\n/, ''));
    cohere.resetCounts();

    // Act
    const summary = await run();

    // Assess: five chunks written under their new ids with their old vectors, none embedded, the leftover deleted.
    expect([summary.written, summary.reused, summary.unchanged, summary.deleted]).toEqual([5, 5, 0, 1]);
    expect(cohere.requestCounts().embed).toBe(0);
    const after = await vectorsByHash();
    expect(after.size).toBe(5);
    for (const [hash, vector] of after) expect(vector).toEqual(before.get(hash));
  });

  it('embeds a moved chunk whose text changed, and reuses the others', async () => {
    await writePage('a', sections(4));
    await run();
    await writePage(
      'a',
      `${sections(1, 'new first section').replace('Part 0', 'Intro')}\n\n${sections(4).replace('part 3.', 'part three.')}`,
    );
    cohere.resetCounts();
    const summary = await run();
    expect([summary.written, summary.reused, summary.unchanged]).toEqual([5, 3, 0]);
    expect(cohere.requestCounts().embed).toBe(1);
  });

  it('keeps the points of a page deleted from the folder without prune, and removes them with it', async () => {
    await writePage('a', sections(2));
    await writePage('b', sections(2));
    await run();
    await rm(join(docs, 'b.md'));
    const kept = await run();
    expect([kept.deleted, Object.keys(await pointsByUrl()).length]).toEqual([0, 2]);
    const pruned = await run({ prune: true });
    expect(pruned.deleted).toBe(2);
    expect(await pointsByUrl()).toEqual({ [`${BASE_URL}/docs/a`]: 2 });
  });

  it('re-embeds every chunk when the embedding model changed', async () => {
    await writePage('a', sections(2));
    await run();
    const summary = await run({
      cohere: { apiKey: 'k', baseUrl: cohere.url, model: 'embed-multilingual-v3.0', timeoutMs: 5000, maxRetries: 0 },
    });
    expect([summary.written, summary.unchanged, summary.deleted]).toEqual([2, 0, 0]);
  });
});
