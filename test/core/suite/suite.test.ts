import { describe, expect, it } from 'vitest';
import { InputError } from '../../../functions/core/shared/errors.ts';
import { parseSuite, resolveQueries, setAsideQueries } from '../../../functions/core/suite/suite.ts';

function problemsOf(text: string, source = 'suite.json'): string[] {
  try {
    parseSuite(text, source);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('parseSuite', () => {
  it('lists every problem at once, each with its path', () => {
    // Prepare
    const suite = {
      defaults: { top_k: 0 },
      queries: [
        { query_text: 'What is ROS 2?', min_similarity: 1.5 },
        { query_text: '   ', top_k: 51 },
        { query_text: 'x'.repeat(1001), relevant: [{ url: 'https://b/docs/a', grade: 4 }], filters: { modul: 'x' } },
        { query_text: 'ok', criteria: { max_latency_ms: -1 }, relevant: [{ grade: 2 }] },
      ],
    };

    // Act
    const problems = problemsOf(JSON.stringify(suite));

    // Assess
    expect(problems).toEqual([
      'defaults.top_k: must be 1..50',
      'queries[0].min_similarity: must be 0..1',
      'queries[1].query_text: must not be empty',
      'queries[1].top_k: must be 1..50',
      'queries[2].query_text: must be at most 1000 characters',
      'queries[2].relevant[0].grade: must be 1, 2 or 3',
      'queries[2].filters.modul: is not a field here (check its spelling, or remove it)',
      'queries[3].relevant[0]: give exactly one of chunk_id or url',
      'queries[3].criteria.max_latency_ms: must be > 0',
    ]);
  });

  it('names the file and says when the JSON itself is broken', () => {
    expect(() => parseSuite('{"queries": [', 'golden.json')).toThrow(
      /^golden\.json is invalid:\n {2}- not valid JSON: /,
    );
  });

  it('rejects duplicate query ids, pointing at the first', () => {
    const problems = problemsOf(
      JSON.stringify({
        queries: [
          { id: 'a', query_text: 'x' },
          { id: 'a', query_text: 'y' },
        ],
      }),
    );

    expect(problems).toEqual(['queries[1].id: duplicates queries[0].id "a"']);
  });

  it('requires at least one query', () => {
    expect(problemsOf('{"queries": []}')).toEqual(['queries: must hold at least one query']);
  });

  it('reads YAML when the file name says so', () => {
    const suite = parseSuite(
      'name: nightly\nqueries:\n  - query_text: What is ROS 2?\n    expected_module: Module 1 Ros2\n',
      'suite.yaml',
    );

    expect(suite.queries[0]?.expected_module).toBe('Module 1 Ros2');
  });
});

describe('parseSuite: formats', () => {
  it('reads YAML from a .yml file and says YAML when it is broken', () => {
    expect(parseSuite('queries:\n  - query_text: x\n', 'suite.YML').queries).toHaveLength(1);
    expect(() => parseSuite('queries: [', 'suite.yml')).toThrow(/^suite\.yml is invalid:\n {2}- not valid YAML: /);
  });

  it('reads JSON from a file whose name only contains .yaml', () => {
    expect(() => parseSuite('queries: [', 'suite.yaml.json')).toThrow(/- not valid JSON: /);
  });

  it('says (root) for a problem with the suite as a whole', () => {
    expect(problemsOf('[]')).toEqual(['(root): must be an object, got a list']);
  });
});

describe('resolveQueries: relevance judgments', () => {
  it('reads a plain string as a URL when it starts with http(s):// or /, else as a chunk id', () => {
    // Prepare
    const suite = parseSuite(
      JSON.stringify({
        queries: [
          {
            query_text: 'x',
            relevant: ['https://b/docs/a', 'HTTP://b/docs/b', '/docs/c', 'chunk-7', 'docs/d/', 'ftp://b/e'],
          },
        ],
      }),
      'suite.json',
    );

    // Act
    const [query] = resolveQueries(suite);

    // Assess
    expect(query?.relevant?.map((r) => [r.kind, r.target, r.grade])).toEqual([
      ['url', 'https://b/docs/a', 1],
      ['url', 'HTTP://b/docs/b', 1],
      ['url', '/docs/c', 1],
      ['chunk_id', 'chunk-7', 1],
      ['chunk_id', 'docs/d/', 1],
      ['chunk_id', 'ftp://b/e', 1],
    ]);
  });

  it('keeps the kind and grade of a judgment written as an object', () => {
    // Prepare
    const suite = parseSuite(
      JSON.stringify({
        queries: [
          {
            query_text: 'x',
            relevant: [
              { url: '/docs/a', grade: 3 },
              { chunk_id: 'c9', grade: 2 },
            ],
          },
        ],
      }),
      'suite.json',
    );

    // Act
    const [query] = resolveQueries(suite);

    // Assess
    expect(query?.relevant).toEqual([
      { kind: 'url', target: '/docs/a', grade: 3 },
      { kind: 'chunk_id', target: 'c9', grade: 2 },
    ]);
  });
});

describe('resolveQueries', () => {
  it('applies query values first, then configuration overrides, then suite defaults', () => {
    // Prepare
    const suite = parseSuite(
      JSON.stringify({
        defaults: { top_k: 3, min_similarity: 0.4, category: 'keyword' },
        queries: [
          {
            query_text: ' What is ROS 2? ',
            top_k: 7,
            relevant: ['https://b/docs/a', 'chunk-9', { chunk_id: 'c1', grade: 3 }],
          },
          { id: 'custom', query_text: 'Gazebo', category: 'semantic' },
        ],
      }),
      'suite.json',
    );

    // Act
    const [first, second] = resolveQueries(suite, { min_similarity: 0.6 });

    // Assess
    expect(first).toMatchObject({
      id: 'q1',
      query_text: 'What is ROS 2?',
      category: 'keyword',
      top_k: 7,
      min_similarity: 0.6,
      relevant: [
        { kind: 'url', target: 'https://b/docs/a', grade: 1 },
        { kind: 'chunk_id', target: 'chunk-9', grade: 1 },
        { kind: 'chunk_id', target: 'c1', grade: 3 },
      ],
    });
    expect(second).toMatchObject({
      id: 'custom',
      category: 'semantic',
      top_k: 3,
      relevant: null,
      expected_sources: [],
    });
  });
});

describe('resolveQueries: the expected module and chapter', () => {
  it('keeps the module and chapter a query expects, and null where it names none', () => {
    const suite = parseSuite(
      JSON.stringify({
        queries: [
          { query_text: 'What is a node?', expected_module: 'ROS 2 Basics', expected_chapter: 'Nodes' },
          { query_text: 'Gazebo' },
        ],
      }),
      'suite.json',
    );
    expect(resolveQueries(suite).map((q) => [q.expected_module, q.expected_chapter])).toEqual([
      ['ROS 2 Basics', 'Nodes'],
      [null, null],
    ]);
  });
});

describe('resolveQueries: the defaults of last resort', () => {
  const resolve = (suite: Record<string, unknown>, overrides = {}) =>
    resolveQueries(parseSuite(JSON.stringify(suite), 'suite.json'), overrides);

  it('files a query under "semantic" with no description when neither it nor the suite says otherwise', () => {
    expect(resolve({ queries: [{ query_text: 'q' }] })[0]).toMatchObject({ category: 'semantic', description: null });
  });

  it('keeps a query’s description', () => {
    expect(resolve({ queries: [{ query_text: 'q', description: 'why' }] })[0]?.description).toBe('why');
  });

  it('reads a relevant string as a URL only when it starts with http(s):// or /', () => {
    const [query] = resolve({ queries: [{ query_text: 'q', relevant: ['see-https://b/x', 'HTTP://b/y', '/docs/z'] }] });
    expect(query?.relevant?.map((r) => r.kind)).toEqual(['chunk_id', 'url', 'url']);
  });

  it('marks a probe, and leaves a query that expects a match unmarked', () => {
    const [probe, known] = resolve({
      queries: [
        { query_text: 'p', expect_match: false },
        { query_text: 'k', expect_match: true },
      ],
    });
    expect(probe?.expect_match).toBe(false);
    expect(known && 'expect_match' in known).toBe(false);
  });

  it('searches as deep as the query’s own top_k when it is deeper than the metrics’ cut-offs', () => {
    const [deep, shallow] = resolve(
      {
        metrics: ['precision@5'],
        queries: [
          { query_text: 'a', top_k: 8 },
          { query_text: 'b', top_k: 2 },
        ],
      },
      { top_k: 20 },
    );
    expect([deep?.search_limit, shallow?.search_limit]).toEqual([8, 5]);
    expect(resolve({ metrics: ['mrr@3'], queries: [{ query_text: 'a' }] }, { top_k: 4 })[0]?.search_limit).toBe(4);
  });

  it.each([
    ['no metrics field', {}],
    ['an empty list of metrics', { metrics: [] }],
  ])('adds no benchmark metrics for a suite with %s', (_, metrics) => {
    const [query] = resolve({ ...metrics, queries: [{ query_text: 'a' }] });
    expect(query && ('benchmark_metrics' in query || 'search_limit' in query)).toBe(false);
  });
});

describe('parseSuite: the source name decides the syntax', () => {
  it('reads a file whose name only contains .yaml as JSON', () => {
    expect(problemsOf('queries: []', 'suite.yaml.json')[0]).toMatch(/^not valid JSON: /);
  });

  it('reads .yml and .YAML files as YAML', () => {
    expect(problemsOf('queries: [', 'suite.YML')[0]).toMatch(/^not valid YAML: /);
    expect(parseSuite('queries:\n  - query_text: a\n', 'suite.YAML').queries).toHaveLength(1);
  });
});

describe('set_aside: kept in the file, neither run nor counted', () => {
  const suite = (queries: Record<string, unknown>[]) => parseSuite(JSON.stringify({ queries }), 'suite.json');

  it('leaves a set-aside query out of the resolved queries, the others keeping their positional ids', () => {
    const s = suite([
      { query_text: 'a' },
      { query_text: 'b', set_aside: 'calibrate: not in its top 5' },
      { query_text: 'c' },
    ]);
    expect(resolveQueries(s).map((q) => q.id)).toEqual(['q1', 'q3']);
    expect(setAsideQueries(s)).toEqual([{ id: 'q2', reason: 'calibrate: not in its top 5' }]);
  });

  it('lists nothing set aside when no query is', () => {
    expect(setAsideQueries(suite([{ id: 'x', query_text: 'a' }]))).toEqual([]);
  });

  it('refuses an empty reason and a suite whose every query is set aside, naming the field', () => {
    expect(problemsOf(JSON.stringify({ queries: [{ query_text: 'a', set_aside: ' ' }, { query_text: 'b' }] }))).toEqual(
      ['queries[0].set_aside: must say why (calibrate writes the reason)'],
    );
    expect(problemsOf(JSON.stringify({ queries: [{ query_text: 'a', set_aside: 'why' }] }))).toEqual([
      'queries: every query is set_aside: nothing would run',
    ]);
  });
});
