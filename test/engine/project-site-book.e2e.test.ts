/**
 * Issue 11's book, in small: a Docusaurus book published as a GitHub Pages project site (base path /repo/), with
 * top-level pages beside `moduleN-name` folders, indexed by `ragwatch index` and validated by `ragwatch run`
 * through the real Qdrant and Cohere clients against the stand-ins. Nothing here sets COVERAGE_PATH_PREFIX: the
 * prefix must follow from DOCUSAURUS_BASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineAdapters, runOptionsFromConfig } from '../../functions/adapters/engine-adapters.ts';
import { parseEngineConfig } from '../../functions/core/config.ts';
import type { ValidationReport } from '../../functions/core/report/report.ts';
import { runValidation } from '../../functions/core/run/run-validation.ts';
import { parseSuite } from '../../functions/core/suite/suite.ts';
import { type IndexedProjectSiteBook, startIndexedProjectSiteBook } from '../helpers/project-site-book.ts';

const PAGE = (p: string) => `https://user.github.io/repo/docs/${p}`;

let book: IndexedProjectSiteBook;
let report: ValidationReport;

/** The suite a user of that book writes: each spelling of a module the issue names, and a module it lacks. */
const SUITE = {
  defaults: { top_k: 3, min_similarity: 0.05 },
  queries: [
    { id: 'intro-by-slug', query_text: 'Who is the humanoid robotics course for?', expected_module: 'intro' },
    {
      id: 'reference-by-slug',
      query_text: 'Which command compiles the workspace?',
      expected_module: 'quick-reference',
    },
    { id: 'module-by-folder', query_text: 'What is a ROS 2 node?', expected_module: 'module1-ros2' },
    { id: 'module-by-seed-form', query_text: 'What is a ROS 2 node?', expected_module: 'Module 1 Ros2' },
    { id: 'chapter-bare', query_text: 'When should I use an action?', expected_chapter: 'ch2-services-and-actions' },
    { id: 'filter-seed-form', query_text: 'robot', filters: { module: 'Module 1 Ros2' } },
    { id: 'filter-folder', query_text: 'robot', filters: { module: 'module1-ros2' } },
    { id: 'filter-top-level', query_text: 'course', filters: { module: 'intro' } },
    { id: 'filter-unknown', query_text: 'robot', filters: { module: 'Module 3 Perception' } },
    { id: 'expect-unknown', query_text: 'What is a ROS 2 node?', expected_module: 'Module 3 Perception' },
  ],
};

beforeAll(async () => {
  book = await startIndexedProjectSiteBook();
  const config = parseEngineConfig(book.env);
  report = await runValidation(createEngineAdapters(config), {
    ...runOptionsFromConfig(config),
    suite: parseSuite(JSON.stringify(SUITE), 'suite.json'),
    suiteSource: 'suite.json',
  });
});

afterAll(async () => {
  await book?.stop();
});

const result = (id: string) => report.query_results.find((q) => q.id === id);

describe('a project-site book (base path /repo/, top-level pages, moduleN-name folders)', () => {
  it('counts coverage under /repo/docs/: 5 of 5 pages, the home page and the blog outside', () => {
    expect(report.coverage_report).toMatchObject({
      path_prefix: '/repo/docs/',
      total_sitemap_urls: 5,
      outside_prefix_urls: 2,
      coverage_percentage: 100,
      missing_urls: [],
      extra_urls: [],
      suggested_prefix: null,
    });
  });

  it('stores module names by the one rule: top-level pages in no module (issue 23), folders in the seed’s form', () => {
    const modules = new Map(
      report.query_results.flatMap((q) => q.top_results).map((r) => [r.chapter_id, r.module_name]),
    );

    expect(Object.fromEntries([...modules].sort())).toEqual({
      intro: '',
      'module1-ros2/ch1-ros2-basics': 'Module 1 Ros2',
      'module1-ros2/ch2-services-and-actions': 'Module 1 Ros2',
      'module2-simulation/ch1-gazebo': 'Module 2 Simulation',
      'quick-reference': '',
    });
  });

  it.each(['intro-by-slug', 'reference-by-slug', 'module-by-folder', 'module-by-seed-form', 'chapter-bare'])(
    'passes %s: the expectation matches the page it names',
    (id) => {
      expect(result(id)).toMatchObject({ status: 'PASS', fail_reason: null });
    },
  );

  it.each([
    ['filter-seed-form', ['Module 1 Ros2']],
    ['filter-folder', ['Module 1 Ros2']],
  ])('filters %s to the module it names, and nothing else', (id, modules) => {
    const rows = result(id)?.top_results ?? [];

    expect(rows.length).toBeGreaterThan(0);
    expect([...new Set(rows.map((r) => r.module_name))]).toEqual(modules);
  });

  it('filters filter-top-level to the page its module names (by chapter: a top-level page has no module)', () => {
    const rows = result('filter-top-level')?.top_results ?? [];

    expect(rows.length).toBeGreaterThan(0);
    expect([...new Set(rows.map((r) => r.chapter_id))]).toEqual(['intro']);
  });

  it('reports a filter on a module the index lacks as such, with the known modules, not as no results', () => {
    // Not searched, so no result: the error state (seed 000), with the mismatch as its reason.
    expect(result('filter-unknown')).toMatchObject({
      status: 'ERROR',
      error_types: ['METADATA_MISMATCH'],
      fail_reason:
        "not searched: filter module 'Module 3 Perception' is not in the index (known modules: Module 1 Ros2, Module 2 Simulation)",
    });
  });

  it('reports an expectation of a module the index lacks as such, with the known modules', () => {
    expect(result('expect-unknown')).toMatchObject({
      status: 'FAIL',
      error_types: ['METADATA_MISMATCH'],
      fail_reason:
        "expected module 'Module 3 Perception' is not in the index (known modules: Module 1 Ros2, Module 2 Simulation)",
    });
  });

  it('stores each page under its project-site URL', () => {
    const urls = new Set(report.query_results.flatMap((q) => q.top_results).map((r) => r.source_url));

    expect(urls.has(PAGE('module1-ros2/ch1-ros2-basics'))).toBe(true);
    expect(urls.has(PAGE('intro'))).toBe(true);
  });
});
