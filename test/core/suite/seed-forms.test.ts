import { describe, expect, it } from 'vitest';
import { InputError } from '../../../functions/core/shared/errors.ts';
import { parseSuite, parseSuiteFile, resolveQueries } from '../../../functions/core/suite/suite.ts';

const REQUEST_FORM = {
  name: 'requests',
  queries: [
    {
      query_id: 'ros2',
      query: 'What is ROS 2?',
      query_category: 'semantic',
      expected_sources: ['/docs/module-1-ros2/ch1-ros2-basics'],
      filters: { module: 'Module 1 Ros2' },
      validation_criteria: { min_precision: 0.2, max_latency_ms: 1500, require_expected_sources: true },
      similarity_threshold: 0.3,
      top_k: 8,
    },
  ],
};
const PROJECT_FORM = {
  name: 'requests',
  queries: [
    {
      id: 'ros2',
      query_text: 'What is ROS 2?',
      category: 'semantic',
      expected_sources: ['/docs/module-1-ros2/ch1-ros2-basics'],
      filters: { module: 'Module 1 Ros2' },
      criteria: { min_precision: 0.2, max_latency_ms: 1500, require_expected_sources: true },
      min_similarity: 0.3,
      top_k: 8,
    },
  ],
};
const BENCHMARK_FORM = {
  benchmark_name: 'nightly',
  question_set: ['What is ROS 2?', 'How does Gazebo simulate physics?'],
  ground_truth_mappings: {
    'What is ROS 2?': ['/docs/module-1-ros2/ch1-ros2-basics', 'ch2-rclpy-and-launch-files.md'],
    'How does Gazebo simulate physics?': ['5f0c9d2e-1b3a-5c4d-8e6f-7a8b9c0d1e2f'],
  },
  metrics: ['precision@5', 'recall@10', 'MRR'],
};
const parse = (value: unknown, name = 'suite.json') => parseSuite(JSON.stringify(value), name);
const problemsOf = (value: unknown): string[] => {
  try {
    parse(value);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('the suite loaded');
};

describe('a suite in seed 003’s request form', () => {
  it('loads with each name mapped to the project’s, exactly as the project form would', () => {
    expect(parse(REQUEST_FORM)).toEqual(parse(PROJECT_FORM));
  });

  it('loads as a bare list of ValidationRequests too', () => {
    expect(parse(REQUEST_FORM.queries).queries).toEqual(parse(PROJECT_FORM).queries);
  });

  it('names a problem with the file’s own field name', () => {
    // Prepare
    const bad = { queries: [{ query: 'What is ROS 2?', similarity_threshold: 1.5 }] };

    // Assess
    expect(problemsOf(bad)).toEqual(['queries[0].similarity_threshold: must be 0..1']);
  });
});

describe('seed 003’s filters.min_similarity', () => {
  const withFilter = (filters: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    queries: [{ query: 'What is ROS 2?', filters, ...extra }],
  });

  it('loads as the query’s threshold, in either form, and leaves the other filters as they are', () => {
    const [query] = parse(withFilter({ module: 'Module 1 Ros2', min_similarity: 0.42 })).queries;
    expect(query?.min_similarity).toBe(0.42);
    expect(query?.filters).toEqual({ module: 'Module 1 Ros2' });
    const [project] = parse({ queries: [{ query_text: 'What is ROS 2?', filters: { min_similarity: 0 } }] }).queries;
    expect(project?.min_similarity).toBe(0);
  });

  it('agrees with the query’s own threshold when both say the same', () => {
    const [query] = parse(withFilter({ min_similarity: 1 }, { similarity_threshold: 1 })).queries;
    expect(query?.min_similarity).toBe(1);
  });

  it('is refused when the query gives another threshold, naming both as written', () => {
    expect(problemsOf(withFilter({ min_similarity: 0.4 }, { similarity_threshold: 0.5 }))).toEqual([
      'queries[0].filters.min_similarity (0.4) and queries[0].similarity_threshold (0.5) disagree: give the query’s threshold once'.replace(
        '’',
        "'",
      ),
    ]);
  });

  it('is refused outside 0..1 or when it is not a number', () => {
    expect(problemsOf(withFilter({ min_similarity: 1.01 }))).toEqual([
      'queries[0].filters.min_similarity: must be a number between 0 and 1 (seed 003), not 1.01',
    ]);
    expect(problemsOf(withFilter({ min_similarity: -0.01 }))).toHaveLength(1);
    expect(problemsOf(withFilter({ min_similarity: '0.5' }))).toEqual([
      'queries[0].filters.min_similarity: must be a number between 0 and 1 (seed 003), not "0.5"',
    ]);
  });
});

describe('a suite in seed 004’s benchmark form', () => {
  it('loads each question as a query judged by its ground truth, page ids by source and point ids by chunk', () => {
    // Act
    const suite = parse(BENCHMARK_FORM);

    // Assess
    expect(suite.name).toBe('nightly');
    expect(suite.queries.map((q) => [q.id, q.query_text, q.relevant])).toEqual([
      [
        'q1',
        'What is ROS 2?',
        [
          { url: '/docs/module-1-ros2/ch1-ros2-basics', grade: 1 },
          { url: 'ch2-rclpy-and-launch-files.md', grade: 1 },
        ],
      ],
      ['q2', 'How does Gazebo simulate physics?', [{ chunk_id: '5f0c9d2e-1b3a-5c4d-8e6f-7a8b9c0d1e2f', grade: 1 }]],
    ]);
  });

  it('keeps its metrics as the suite’s benchmark metrics, searched as deep as the deepest cut-off', () => {
    // Act
    const suite = parse(BENCHMARK_FORM);

    // Assess
    expect(suite.metrics).toEqual(['precision@5', 'recall@10', 'MRR']);
    expect(resolveQueries(suite, {}).map((q) => q.search_limit)).toEqual([10, 10]);
  });

  it('refuses a question without a mapping, a mapping without a question and an unsupported metric', () => {
    // Prepare
    const bad = {
      ...BENCHMARK_FORM,
      ground_truth_mappings: { 'What is ROS 2?': ['/docs/intro'], 'What is URDF?': ['/docs/urdf'] },
      metrics: ['precision@5', 'f1'],
    };

    // Assess
    expect(problemsOf(bad)).toEqual([
      'ground_truth_mappings: no mapping for question_set[1] "How does Gazebo simulate physics?" (seed 004: each question needs one)',
      'ground_truth_mappings: "What is URDF?" is not in question_set',
      'metrics[1]: "f1" is not supported; use precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k',
    ]);
  });

  it('refuses a metrics entry that is not a list of metric names', () => {
    expect(problemsOf({ ...BENCHMARK_FORM, metrics: [] })).toEqual([
      'metrics: must list at least one metric, e.g. ["precision@5", "mrr"]',
    ]);
    expect(problemsOf({ ...BENCHMARK_FORM, metrics: 'precision@5' })).toEqual([
      'metrics: must list at least one metric, e.g. ["precision@5", "mrr"]',
    ]);
    expect(problemsOf({ ...BENCHMARK_FORM, metrics: ['mrr', 5] })).toEqual([
      'metrics[1]: 5 is not supported; use precision@k, recall@k, ndcg@k, hit_rate@k (k 1..50), mrr or mrr@k',
    ]);
  });

  it('refuses an empty benchmark_name and an empty question_set', () => {
    expect(problemsOf({ benchmark_name: ' ', question_set: [], ground_truth_mappings: {} })).toEqual([
      'benchmark_name: must not be empty (seed 004)',
      'question_set: must list at least one question (seed 004)',
    ]);
  });

  it('names a problem with the question’s place in question_set', () => {
    // Prepare
    const question = 'x'.repeat(1001);
    const bad = { benchmark_name: 'b', question_set: [question], ground_truth_mappings: { [question]: ['/docs/a'] } };

    // Assess
    expect(problemsOf(bad)).toEqual(['question_set[0]: must be at most 1000 characters']);
  });
});

describe('a suite that mixes forms', () => {
  it('is refused when its queries use both the 003 names and the project’s, naming where each was found', () => {
    // Prepare
    const mixed = { queries: [{ query: 'What is ROS 2?' }, { query_text: 'What is URDF?' }] };

    // Assess
    expect(problemsOf(mixed)).toEqual([
      "mixes suite forms: the seed 003 request form (queries[0].query); the project's form (queries[1].query_text). Write the whole file in one form, renaming the fields named here (docs/DATA-MODEL.md maps each seed's names to the project's); `ragwatch suite normalize` converts a file once it is wholly in one seed's form",
    ]);
  });

  it('is refused when one query carries a 003 name beside its project twin', () => {
    expect(problemsOf({ queries: [{ query: 'a', query_text: 'a' }] })[0]).toMatch(
      /^mixes suite forms: .*queries\[0\]\.query\b/,
    );
  });

  it('is refused when a benchmark also lists queries', () => {
    expect(problemsOf({ ...BENCHMARK_FORM, queries: [{ query_text: 'a' }] })[0]).toMatch(
      /^mixes suite forms: the seed 004 benchmark form \(benchmark_name, question_set, ground_truth_mappings\); the project's form/,
    );
  });
});

describe('parseSuiteFile', () => {
  it('gives the project form as written, which loads to the same suite', () => {
    // Act
    const { written, form, suite } = parseSuiteFile(JSON.stringify(REQUEST_FORM), 'requests.json');

    // Assess
    expect(form).toBe('request-003');
    expect(written).toEqual(PROJECT_FORM);
    expect(parse(written)).toEqual(suite);
  });

  it('leaves a project-form suite as it is', () => {
    expect(parseSuiteFile(JSON.stringify(PROJECT_FORM), 's.json')).toMatchObject({
      form: 'project',
      written: PROJECT_FORM,
    });
  });
});

describe('a file that is not a suite at all', () => {
  it.each([
    [null, '(root): must be an object, got null'],
    ['queries', '(root): must be an object, got string "queries"'],
    [7, '(root): must be an object, got number 7'],
  ])('is refused as the project form would refuse it: %s', (value, problem) => {
    expect(problemsOf(value)).toEqual([problem]);
  });

  it('does not take an entry of queries that is not an object for a seed 003 request', () => {
    expect(problemsOf({ queries: [5, { query_text: 'What is ROS 2?' }] })).toEqual([
      'queries[0]: must be an object, got number 5',
    ]);
  });

  it('reads entries of queries that are not objects as the project form would, without guessing a form', () => {
    expect(problemsOf({ queries: [5, { query: 'What is ROS 2?' }] })).toEqual([
      'queries[0]: must be an object, got number 5',
    ]);
  });
});

describe('a suite in seed 003’s request form: paths', () => {
  it('names a problem in the eleventh query with the file’s own field name', () => {
    const queries = Array.from({ length: 11 }, (_, i) => ({
      query: `q${i}`,
      similarity_threshold: i === 10 ? 2 : 0.5,
    }));
    expect(problemsOf({ queries })).toEqual(['queries[10].similarity_threshold: must be 0..1']);
  });

  it('leaves a path outside the queries as it is', () => {
    expect(problemsOf({ name: '', queries: [{ query: 'q' }] })).toEqual([
      'name: Too small: expected string to have >=1 characters',
    ]);
  });
});

describe('a suite in seed 004’s benchmark form: what it refuses', () => {
  it('refuses a benchmark_name that is not text', () => {
    expect(problemsOf({ ...BENCHMARK_FORM, benchmark_name: 5 })).toEqual([
      'benchmark_name: must not be empty (seed 004)',
    ]);
  });

  it('refuses a question_set that is not a list', () => {
    expect(problemsOf({ ...BENCHMARK_FORM, question_set: 'What is ROS 2?' })).toEqual([
      'question_set: must list at least one question (seed 004)',
      'ground_truth_mappings: "What is ROS 2?" is not in question_set',
      'ground_truth_mappings: "How does Gazebo simulate physics?" is not in question_set',
    ]);
  });

  it('refuses ground_truth_mappings that is missing or not a map, naming every question left unmapped', () => {
    const { ground_truth_mappings: _, ...noTruth } = BENCHMARK_FORM;
    const expected = [
      'ground_truth_mappings: must map each question to its relevant document ids',
      'ground_truth_mappings: no mapping for question_set[0] "What is ROS 2?" (seed 004: each question needs one)',
      'ground_truth_mappings: no mapping for question_set[1] "How does Gazebo simulate physics?" (seed 004: each question needs one)',
    ];
    expect(problemsOf(noTruth)).toEqual(expected);
    expect(problemsOf({ ...BENCHMARK_FORM, ground_truth_mappings: ['/docs/a'] })).toEqual(expected);
  });

  it('refuses a question that is not text, and a mapping that is not a non-empty list', () => {
    const bad = {
      benchmark_name: 'b',
      question_set: ['a?', 7, 'c?'],
      ground_truth_mappings: { 'a?': '/docs/a', 'c?': [] },
    };
    expect(problemsOf(bad)).toEqual([
      'ground_truth_mappings: no mapping for question_set[0] "a?" (seed 004: each question needs one)',
      'question_set[1]: must be a question (a string)',
      'ground_truth_mappings: no mapping for question_set[2] "c?" (seed 004: each question needs one)',
    ]);
  });

  it('names a bad ground-truth entry by its question and place, whatever it was read as', () => {
    const bad = {
      ...BENCHMARK_FORM,
      ground_truth_mappings: { ...BENCHMARK_FORM.ground_truth_mappings, 'What is ROS 2?': ['', 5] },
    };
    expect(problemsOf(bad)).toEqual([
      'ground_truth_mappings["What is ROS 2?"][0]: Too small: expected string to have >=1 characters',
      'ground_truth_mappings["What is ROS 2?"][1]: must be a string or an object, got number 5',
    ]);
  });

  it('names a problem with the eleventh question by its place in question_set', () => {
    const questions = Array.from({ length: 11 }, (_, i) => (i === 10 ? 'x'.repeat(1001) : `question ${i}?`));
    const bad = {
      benchmark_name: 'b',
      question_set: questions,
      ground_truth_mappings: Object.fromEntries(questions.map((q) => [q, ['/docs/a']])),
    };
    expect(problemsOf(bad)).toEqual(['question_set[10]: must be at most 1000 characters']);
  });

  it('leaves a path outside its questions and ground truth as written', () => {
    const bad = { ...BENCHMARK_FORM, defaults: { top_k: 0 } };
    expect(problemsOf(bad)).toEqual(['defaults.top_k: must be 1..50']);
  });

  it('loads without metrics, and says it was written in the benchmark form', () => {
    const { metrics: _, ...noMetrics } = BENCHMARK_FORM;
    const { form, suite, written } = parseSuiteFile(JSON.stringify(noMetrics), 'b.json');
    expect(form).toBe('benchmark-004');
    expect(suite.metrics).toBeUndefined();
    expect(Object.keys(written as object)).toEqual(['name', 'queries']);
  });
});

describe('a suite that mixes forms: what the message lists', () => {
  it('lists at most three places of each form, comma-separated', () => {
    const queries = [
      { query: 'a', query_id: 'a', query_category: 'c' },
      { query: 'b' },
      { query_text: 'c', id: 'c', category: 'x' },
      { query_text: 'd' },
    ];
    expect(problemsOf({ queries })[0]).toMatch(
      /^mixes suite forms: the seed 003 request form \(queries\[0\]\.query, queries\[0\]\.query_id, queries\[0\]\.query_category\); the project's form \(queries\[2\]\.query_text, queries\[2\]\.id, queries\[2\]\.category\)\./,
    );
  });

  it('names a benchmark with an empty list of queries as mixing forms', () => {
    expect(problemsOf({ ...BENCHMARK_FORM, queries: [] })[0]).toMatch(
      /^mixes suite forms: the seed 004 benchmark form \(benchmark_name, question_set, ground_truth_mappings\); the project's form \(queries\)\. /,
    );
  });
});
