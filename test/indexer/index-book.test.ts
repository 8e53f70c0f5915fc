import { describe, expect, it } from 'vitest';
import type { Clock, EmbeddingResult } from '../../functions/core/ports.ts';
import { EmbeddingError, InputError } from '../../functions/core/shared/errors.ts';
import {
  type DocumentEmbedder,
  type IndexPoint,
  indexPages,
  type PointSink,
  sha256,
} from '../../functions/indexer/index-book.ts';
import { pointIdFor } from '../../functions/indexer/point-id.ts';
import type { DocPage } from '../../functions/indexer/read-docs.ts';

const MODEL = 'embed-english-v3.0';

/** Embeds each text as [its length, 1, 0], recording the size of every call. */
class FakeEmbedder implements DocumentEmbedder {
  readonly model = MODEL;
  readonly calls: number[] = [];
  readonly maxBatchSize: number;
  constructor(maxBatchSize = 96) {
    this.maxBatchSize = maxBatchSize;
  }
  async embedDocuments(texts: string[]): Promise<EmbeddingResult> {
    this.calls.push(texts.length);
    return { vectors: texts.map((t) => [t.length, 1, 0]), billedInputTokens: texts.length * 10 };
  }
}

/** Keeps every point and records the order of calls. */
class FakeSink implements PointSink {
  readonly events: string[] = [];
  readonly points: IndexPoint[] = [];
  async prepare({ vectorSize }: { vectorSize: number }): Promise<void> {
    this.events.push(`prepare ${vectorSize}`);
  }
  async prepareIndexes(): Promise<void> {
    this.events.push('prepare indexes');
  }
  async upsert(points: IndexPoint[]): Promise<void> {
    this.events.push(`upsert ${points.length}`);
    this.points.push(...points);
  }
  // A fresh sink holds nothing; re-indexing is tested against the Qdrant stand-in (reindex.test.ts).
  async stored() {
    return new Map();
  }
  async vectors() {
    return new Map<string, number[]>();
  }
  async setPayload(ids: string[]): Promise<void> {
    this.events.push(`set payload ${ids.length}`);
  }
  async delete(ids: string[]): Promise<void> {
    this.events.push(`delete ${ids.length}`);
  }
}

function fakeClock(): Clock {
  const ticks = [1000, 1250];
  return { now: () => new Date('2025-12-23T18:30:00Z'), monotonicMs: () => ticks.shift() ?? 9999 };
}

function page(overrides: Partial<DocPage> = {}): DocPage {
  return {
    file: 'module-1-ros2/ch1-ros2-basics.md',
    title: 'ROS 2 Basics',
    sourceUrl: 'https://book.example.com/docs/module-1-ros2/ch1-ros2-basics',
    chapterId: 'module-1-ros2/ch1-ros2-basics',
    moduleName: 'Module 1 Ros2',
    body: 'ROS 2 is middleware.\n\n## Nodes\n\nA node does one thing.\n',
    ...overrides,
  };
}

/**
 * Chunk sizes under which page()'s two short sections stay two chunks (together they pass the 10-token target);
 * merging is tested in chunk-markdown.test.ts and below with the default sizes.
 */
const SEPARATE = { targetTokens: 10, maxTokens: 440 };

/** A page with `sections` sections of about 170 tokens, hence that many chunks (no two fit the target together). */
function pageWithSections(sections: number, slug: string): DocPage {
  const filler = (i: number) => Array.from({ length: 160 }, (_, k) => `p${i}w${k}`).join(' ');
  const body = Array.from({ length: sections }, (_, i) => `## Part ${i}\n\nText of part ${i}. ${filler(i)}`).join(
    '\n\n',
  );
  return page({ file: `${slug}.md`, sourceUrl: `https://book.example.com/docs/${slug}`, chapterId: slug, body });
}

describe('indexPages', () => {
  it('writes one point per chunk with a deterministic id and the full payload', async () => {
    // Prepare
    const sink = new FakeSink();

    // Act
    await indexPages({ embedder: new FakeEmbedder(), sink, clock: fakeClock() }, { pages: [page()], sizes: SEPARATE });

    // Assess
    const url = 'https://book.example.com/docs/module-1-ros2/ch1-ros2-basics';
    expect(sink.points).toEqual([
      {
        id: pointIdFor(url, 0),
        // The vector is of the contextual header above the text: 'ROS 2 Basics\n\nROS 2 is middleware.'
        vector: [34, 1, 0],
        payload: {
          chunk_text: 'ROS 2 is middleware.',
          source_url: url,
          chapter_id: 'module-1-ros2/ch1-ros2-basics',
          module_name: 'Module 1 Ros2',
          heading_hierarchy: ['ROS 2 Basics'],
          token_count: 5,
          chunk_index: 0,
          indexed_at: '2025-12-23T18:30:00.000Z',
          content_hash: sha256('ROS 2 Basics\n\nROS 2 is middleware.'),
          page_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          page_version: expect.stringMatching(new RegExp(`^${url} [0-9a-f]{64} 2$`)),
          model_version: MODEL,
          embed_header: 'ROS 2 Basics',
        },
      },
      {
        id: pointIdFor(url, 1),
        vector: ['ROS 2 Basics › Nodes\n\n## Nodes\n\nA node does one thing.'.length, 1, 0],
        payload: {
          chunk_text: '## Nodes\n\nA node does one thing.',
          source_url: url,
          chapter_id: 'module-1-ros2/ch1-ros2-basics',
          module_name: 'Module 1 Ros2',
          heading_hierarchy: ['ROS 2 Basics', 'Nodes'],
          token_count: 9,
          chunk_index: 1,
          indexed_at: '2025-12-23T18:30:00.000Z',
          content_hash: sha256('ROS 2 Basics › Nodes\n\n## Nodes\n\nA node does one thing.'),
          page_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          page_version: expect.stringMatching(new RegExp(`^${url} [0-9a-f]{64} 2$`)),
          model_version: MODEL,
          embed_header: 'ROS 2 Basics › Nodes',
        },
      },
    ]);
  });

  it('gives every chunk of a page one page hash, which changes when any of the page changes', async () => {
    const hashes = async (pages: DocPage[]) => {
      const sink = new FakeSink();
      await indexPages({ embedder: new FakeEmbedder(), sink, clock: fakeClock() }, { pages });
      return [...new Set(sink.points.map((p) => p.payload.page_hash))];
    };
    const before = await hashes([page()]);
    const edited = await hashes([page({ body: 'ROS 2 is middleware.\n\n## Nodes\n\nA node does two things.\n' })]);
    const retitled = await hashes([page({ title: 'ROS 2 Basics, revised' })]);
    expect(before).toHaveLength(1);
    expect(new Set([...before, ...edited, ...retitled]).size).toBe(3);
  });

  it('names the page’s last update day (UTC) in its page_version, and nothing when it is unknown', async () => {
    const versions = async (updatedAt: string | undefined) => {
      const sink = new FakeSink();
      await indexPages({ embedder: new FakeEmbedder(), sink, clock: fakeClock() }, { pages: [page({ updatedAt })] });
      return [...new Set(sink.points.map((p) => p.payload.page_version))];
    };
    const url = 'https://book.example.com/docs/module-1-ros2/ch1-ros2-basics';
    expect(await versions('2025-12-20T23:30:00.000Z')).toEqual([
      expect.stringMatching(new RegExp(`^${url} [0-9a-f]{64} 1 2025-12-20$`)),
    ]);
    expect(await versions(undefined)).toEqual([expect.stringMatching(new RegExp(`^${url} [0-9a-f]{64} 1$`))]);
  });

  it('hashes chunk text with SHA-256 in hex', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('returns a summary of the run', async () => {
    // Act
    const summary = await indexPages(
      { embedder: new FakeEmbedder(), sink: new FakeSink(), clock: fakeClock() },
      {
        pages: [page(), page({ sourceUrl: 'https://book.example.com/docs/intro', body: 'Welcome.' })],
        sizes: SEPARATE,
      },
    );

    // Assess
    expect(summary).toEqual({
      documents: 2,
      chunks: 3,
      pointsUpserted: 3,
      written: 3,
      unchanged: 0,
      deleted: 0,
      keptGonePages: [],
      reused: 0,
      vectorSize: 3,
      model: MODEL,
      billedInputTokens: 30,
      indexedAt: '2025-12-23T18:30:00.000Z',
      durationMs: 250,
    });
  });

  it('embeds in calls of at most 96 texts, across pages', async () => {
    // Prepare
    const embedder = new FakeEmbedder();

    // Act
    await indexPages(
      { embedder, sink: new FakeSink(), clock: fakeClock() },
      { pages: [pageWithSections(120, 'a'), pageWithSections(80, 'b')] },
    );

    // Assess
    expect(embedder.calls).toEqual([96, 96, 8]);
  });

  it('uses smaller calls when the embedder allows fewer texts', async () => {
    // Prepare
    const embedder = new FakeEmbedder(40);

    // Act
    await indexPages({ embedder, sink: new FakeSink(), clock: fakeClock() }, { pages: [pageWithSections(100, 'a')] });

    // Assess
    expect(embedder.calls).toEqual([40, 40, 20]);
  });

  it('prepares the sink once with the vector size, then upserts in batches of 256', async () => {
    // Prepare
    const sink = new FakeSink();

    // Act
    await indexPages(
      { embedder: new FakeEmbedder(), sink, clock: fakeClock() },
      { pages: [pageWithSections(600, 'a')] },
    );

    // Assess
    expect(sink.events).toEqual(['prepare 3', 'upsert 256', 'upsert 256', 'upsert 88']);
  });

  it('gives the same ids and payloads when the same pages are indexed again', async () => {
    // Prepare
    const first = new FakeSink();
    const second = new FakeSink();
    const pages = [page(), pageWithSections(5, 'b')];

    // Act
    await indexPages({ embedder: new FakeEmbedder(), sink: first, clock: fakeClock() }, { pages });
    await indexPages({ embedder: new FakeEmbedder(), sink: second, clock: fakeClock() }, { pages });

    // Assess
    expect(second.points).toEqual(first.points);
    expect(new Set(first.points.map((p) => p.id)).size).toBe(first.points.length);
  });

  it('reports progress after each embedding call', async () => {
    // Prepare
    const progress: string[] = [];

    // Act
    await indexPages(
      {
        embedder: new FakeEmbedder(),
        sink: new FakeSink(),
        clock: fakeClock(),
        onProgress: (p) => progress.push(`${p.chunksDone}/${p.chunksTotal}`),
      },
      { pages: [pageWithSections(100, 'a')] },
    );

    // Assess
    expect(progress).toEqual(['96/100', '100/100']);
  });

  it('refuses a book with no text before calling any service', async () => {
    // Prepare
    const embedder = new FakeEmbedder();
    const sink = new FakeSink();

    // Act
    const error = await indexPages(
      { embedder, sink, clock: fakeClock() },
      { pages: [page({ body: '# Only a title\n' })] },
    ).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual(['no text to index in 1 page(s): every page is empty or a draft']);
    expect([embedder.calls, sink.events]).toEqual([[], []]);
  });

  it('stops before writing when the embedder answers fewer vectors than texts', async () => {
    // Prepare
    const embedder: DocumentEmbedder = {
      model: MODEL,
      maxBatchSize: 96,
      embedDocuments: async () => ({ vectors: [[1, 0, 0]] }),
    };
    const sink = new FakeSink();

    // Act
    const error = await indexPages({ embedder, sink, clock: fakeClock() }, { pages: [page()], sizes: SEPARATE }).catch(
      (e: unknown) => e,
    );

    // Assess
    expect(error).toBeInstanceOf(EmbeddingError);
    expect((error as EmbeddingError).message).toBe(
      'embedding model embed-english-v3.0 answered 1 vectors of size(s) 3 for 2 texts',
    );
    expect(sink.events).toEqual([]);
  });

  it('stops when a later call answers vectors of another size', async () => {
    // Prepare
    let call = 0;
    const embedder: DocumentEmbedder = {
      model: MODEL,
      maxBatchSize: 1,
      embedDocuments: async () => ({ vectors: [call++ === 0 ? [1, 0, 0] : [1, 0]] }),
    };
    const sink = new FakeSink();

    // Act
    const error = await indexPages({ embedder, sink, clock: fakeClock() }, { pages: [page()], sizes: SEPARATE }).catch(
      (e: unknown) => e,
    );

    // Assess
    expect((error as EmbeddingError).message).toBe(
      'embedding model embed-english-v3.0 answered 1 vectors of size(s) 2 for 1 texts, expected size 3',
    );
    expect(sink.events).toEqual(['prepare 3']);
  });
});
