import { describe, expect, it } from 'vitest';
import {
  createRetrievalTool,
  parseRetrievalArguments,
  RETRIEVAL_TOOL_DEFINITION,
} from '../../../functions/core/grounding/retrieval-tool.ts';
import { DeadlineError, IndexError, InputError } from '../../../functions/core/shared/errors.ts';
import { createFakeClock, createFakeEmbedder, createFakeIndex, hit } from '../../agent/fakes.ts';

describe('RETRIEVAL_TOOL_DEFINITION', () => {
  it('describes the tool as a JSON function schema with query required and top_k bounded 1..50', () => {
    // Act
    const { tool_name, parameters, function_schema } = RETRIEVAL_TOOL_DEFINITION;

    // Assess
    expect(tool_name).toBe('search_book');
    expect(parameters.required).toEqual(['query']);
    expect(parameters.properties.top_k).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(Object.keys(parameters.properties.filters.properties)).toEqual(['module', 'chapter', 'section', 'url']);
    expect(function_schema).toEqual({
      type: 'function',
      function: { name: 'search_book', description: RETRIEVAL_TOOL_DEFINITION.description, parameters },
    });
  });
});

describe('parseRetrievalArguments', () => {
  it('trims the query and applies top_k 5 and no filters by default', () => {
    // Act
    const args = parseRetrievalArguments({ query: '  How do topics work?  ' });

    // Assess
    expect(args).toEqual({ query: 'How do topics work?', top_k: 5, filters: {} });
  });

  it('lists every bad argument with its path in one InputError', () => {
    // Act
    const act = () => parseRetrievalArguments({ query: '   ', top_k: 51, filters: { module: 'm', page: 'p' } });

    // Assess
    expect(act).toThrow(InputError);
    try {
      act();
    } catch (error) {
      expect((error as InputError).problems).toEqual([
        'query: must not be empty',
        'top_k: must be 1..50',
        'filters.page: is not a field here (check its spelling, or remove it)',
      ]);
    }
  });

  it('refuses a query longer than 1000 characters', () => {
    // Act
    const act = () => parseRetrievalArguments({ query: 'x'.repeat(1001) });

    // Assess
    expect(act).toThrow(/query: must be at most 1000 characters/);
  });

  it('refuses a top_k of zero and a fractional top_k', () => {
    // Act
    const problems = [0, 2.5].map((top_k) => {
      try {
        parseRetrievalArguments({ query: 'q', top_k });
        return null;
      } catch (error) {
        return (error as InputError).problems;
      }
    });

    // Assess
    expect(problems).toEqual([['top_k: must be 1..50'], ['top_k: must be a whole number']]);
  });
});

describe('createRetrievalTool', () => {
  it('embeds the query once and searches with top_k, the chunk fields and no filter when none is given', async () => {
    // Prepare
    const embedder = createFakeEmbedder();
    const index = createFakeIndex([]);
    const tool = createRetrievalTool({ embedder, index, clock: createFakeClock() });

    // Act
    await tool.retrieve({ query: 'How do topics work?', top_k: 3 });

    // Assess
    expect(embedder.calls).toEqual([['How do topics work?']]);
    expect(index.requests).toEqual([
      {
        vector: [1, 0, 0],
        limit: 3,
        payloadFields: ['chunk_text', 'source_url', 'chapter_id', 'module_name', 'heading_hierarchy'],
      },
    ]);
  });

  it('maps module, chapter, section and url filters onto the seed payload keys', async () => {
    // Prepare
    const index = createFakeIndex([]);
    const tool = createRetrievalTool({ embedder: createFakeEmbedder(), index, clock: createFakeClock() });

    // Act
    await tool.retrieve({
      query: 'q',
      filters: { module: 'module1-ros2', chapter: 'topics', section: 'Publishing', url: 'https://book.example/docs/t' },
    });

    // Assess
    expect(index.requests[0]?.filter).toEqual({
      must: [
        { key: 'module_name', match: { value: 'module1-ros2' } },
        { key: 'chapter_id', match: { value: 'topics' } },
        { key: 'heading_hierarchy', match: { value: 'Publishing' } },
        { key: 'source_url', match: { value: 'https://book.example/docs/t' } },
      ],
    });
  });

  it('returns the seed’s Retrieved Context: chunks with metadata, ids and scores in rank order', async () => {
    // Prepare
    const index = createFakeIndex([hit('c1', 0.91, 'Topics carry messages.'), hit('c2', 0.74, 'Nodes publish.')]);
    const tool = createRetrievalTool({ embedder: createFakeEmbedder(), index, clock: createFakeClock() });

    // Act
    const context = await tool.retrieve({ query: 'How do topics work?' });

    // Assess
    expect(context).toEqual({
      document_chunks: [
        {
          id: 'c1',
          text: 'Topics carry messages.',
          source_url: 'https://book.example/docs/c1',
          chapter_id: 'topics',
          module_name: 'module1-ros2',
          heading_hierarchy: ['Topics', 'Publishing'],
          score: 0.91,
        },
        {
          id: 'c2',
          text: 'Nodes publish.',
          source_url: 'https://book.example/docs/c2',
          chapter_id: 'topics',
          module_name: 'module1-ros2',
          heading_hierarchy: ['Topics', 'Publishing'],
          score: 0.74,
        },
      ],
      chunk_ids: ['c1', 'c2'],
      relevance_scores: [0.91, 0.74],
      metadata: {
        query: 'How do topics work?',
        top_k: 5,
        filters: {},
        embedding_model: 'fake-embed',
        sources: ['https://book.example/docs/c1', 'https://book.example/docs/c2'],
        retrieved_at: '2026-03-14T02:00:00.000Z',
        embedding_ms: 0,
        search_ms: 0,
        reused_search: false,
      },
    });
  });

  it('answers from hits the run already fetched for the same arguments, without embedding or searching', async () => {
    // Prepare
    const embedder = createFakeEmbedder();
    const index = createFakeIndex([hit('c9', 0.1, 'Not this one.')]);
    const prefetched = (args: { query: string; top_k: number }) =>
      args.query === 'How do topics work?' && args.top_k === 5
        ? [hit('c1', 0.91, 'Topics carry messages.')]
        : undefined;
    const tool = createRetrievalTool({ embedder, index, clock: createFakeClock(), prefetched });

    // Act
    const reused = await tool.retrieve({ query: 'How do topics work?' });
    const searched = await tool.retrieve({ query: 'How do topics work?', top_k: 3 });

    // Assess
    expect([reused.chunk_ids, reused.metadata.reused_search]).toEqual([['c1'], true]);
    expect([searched.chunk_ids, searched.metadata.reused_search]).toEqual([['c9'], false]);
    expect(embedder.calls).toEqual([['How do topics work?']]);
    expect(index.requests).toHaveLength(1);
  });

  it('once the agent’s time is up, still serves hits already fetched but starts no search', async () => {
    // Prepare
    const embedder = createFakeEmbedder();
    const index = createFakeIndex([hit('c9', 0.1, 'Not this one.')]);
    const prefetched = (args: { query: string }) =>
      args.query === 'How do topics work?' ? [hit('c1', 0.91, 'Topics carry messages.')] : undefined;
    const stop = new AbortController();
    stop.abort(new DeadlineError("the agent's time ran out, 0.5 s before the run's deadline"));
    const tool = createRetrievalTool({ embedder, index, clock: createFakeClock(), prefetched, stop: stop.signal });

    // Act
    const reused = await tool.retrieve({ query: 'How do topics work?' });
    const refused = await tool.retrieve({ query: 'What is a node?' }).catch((e: unknown) => e);

    // Assess
    expect(reused.chunk_ids).toEqual(['c1']);
    expect(refused).toBeInstanceOf(DeadlineError);
    expect((refused as Error).message).toBe("not searched: the agent's time ran out, 0.5 s before the run's deadline");
    expect(embedder.calls).toEqual([]);
    expect(index.requests).toHaveLength(0);
  });

  it('times the embedding and the search separately on the monotonic clock', async () => {
    // Prepare
    const clock = createFakeClock();
    const embedder = createFakeEmbedder();
    const index = createFakeIndex([]);
    const embed = embedder.embedQueries;
    embedder.embedQueries = (texts) => {
      clock.advance(30);
      return embed(texts);
    };
    const search = index.searchBatch;
    index.searchBatch = (requests) => {
      clock.advance(12);
      return search(requests);
    };
    const tool = createRetrievalTool({ embedder, index, clock });

    // Act
    const { metadata } = await tool.retrieve({ query: 'q' });

    // Assess
    expect(metadata).toMatchObject({ embedding_ms: 30, search_ms: 12, retrieved_at: '2026-03-14T02:00:00.042Z' });
  });

  it('reports missing or mistyped payload fields as null rather than inventing them', async () => {
    // Prepare
    const index = createFakeIndex([
      { id: 'c1', score: 0.8, payload: { chunk_text: 'Text.', source_url: 42, heading_hierarchy: 'Topics' } },
    ]);
    const tool = createRetrievalTool({ embedder: createFakeEmbedder(), index, clock: createFakeClock() });

    // Act
    const context = await tool.retrieve({ query: 'q' });

    // Assess
    expect(context.document_chunks[0]).toEqual({
      id: 'c1',
      text: 'Text.',
      source_url: null,
      chapter_id: null,
      module_name: null,
      heading_hierarchy: null,
      score: 0.8,
    });
  });

  it('validates arguments before calling any service', async () => {
    // Prepare
    const embedder = createFakeEmbedder();
    const tool = createRetrievalTool({ embedder, index: createFakeIndex([]), clock: createFakeClock() });

    // Act
    const attempt = tool.retrieve({ query: '' });

    // Assess
    await expect(attempt).rejects.toThrow(InputError);
    expect(embedder.calls).toEqual([]);
  });

  it('lets an index failure through as the IndexError it is', async () => {
    // Prepare
    const index = createFakeIndex([]);
    index.searchBatch = () => Promise.reject(new IndexError('Qdrant query batch timed out', 'timeout'));
    const tool = createRetrievalTool({ embedder: createFakeEmbedder(), index, clock: createFakeClock() });

    // Act
    const attempt = tool.retrieve({ query: 'q' });

    // Assess
    await expect(attempt).rejects.toMatchObject({ name: 'IndexError', kind: 'timeout' });
  });

  it('names the tool in the InputError for bad arguments', () => {
    expect(() => parseRetrievalArguments({ query: '' })).toThrow(/^search_book arguments is invalid:/);
  });

  it('keeps only the string headings of a mixed heading list, and no chunk text as empty text', async () => {
    // Prepare
    const index = createFakeIndex([{ id: 'c1', score: 0.8, payload: { heading_hierarchy: ['Topics', 3, 'QoS'] } }]);
    const tool = createRetrievalTool({ embedder: createFakeEmbedder(), index, clock: createFakeClock() });

    // Act
    const [chunk] = (await tool.retrieve({ query: 'q' })).document_chunks;

    // Assess
    expect([chunk?.heading_hierarchy, chunk?.text]).toEqual([['Topics', 'QoS'], '']);
  });

  it('lists each source once, leaving out chunks without one', async () => {
    // Prepare
    const index = createFakeIndex([
      { id: 'c1', score: 0.9, payload: { source_url: 'https://book.example/docs/a' } },
      { id: 'c2', score: 0.8, payload: { source_url: 'https://book.example/docs/a' } },
      { id: 'c3', score: 0.7, payload: {} },
    ]);
    const tool = createRetrievalTool({ embedder: createFakeEmbedder(), index, clock: createFakeClock() });

    // Act
    const context = await tool.retrieve({ query: 'q' });

    // Assess
    expect(context.metadata.sources).toEqual(['https://book.example/docs/a']);
  });

  it('fails with an EmbeddingError when the embedder returns no vector, searching nothing', async () => {
    // Prepare
    const embedder = { ...createFakeEmbedder(), embedQueries: async () => ({ vectors: [] }) };
    const index = createFakeIndex([hit('c1', 0.9, 'Text.')]);
    let searched = false;
    const search = index.searchBatch;
    index.searchBatch = (requests) => {
      searched = true;
      return search(requests);
    };
    const tool = createRetrievalTool({ embedder, index, clock: createFakeClock() });

    // Act
    const attempt = tool.retrieve({ query: 'q' });

    // Assess
    await expect(attempt).rejects.toMatchObject({
      name: 'EmbeddingError',
      kind: 'unexpected',
      message: 'fake-embed returned no vector for the query',
    });
    expect(searched).toBe(false);
  });

  it('returns no chunk when the index answers with no result list', async () => {
    // Prepare
    const index = createFakeIndex([]);
    index.searchBatch = async () => [];
    const tool = createRetrievalTool({ embedder: createFakeEmbedder(), index, clock: createFakeClock() });

    // Act
    const context = await tool.retrieve({ query: 'q' });

    // Assess
    expect([context.document_chunks, context.metadata.sources]).toEqual([[], []]);
  });
});
