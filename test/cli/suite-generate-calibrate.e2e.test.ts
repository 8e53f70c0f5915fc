/**
 * Day one through the real clients: the fixture project-site book indexed into the stand-ins, a known-item suite
 * generated from the index (and from the docs folder), calibrated against the same services, then run.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../functions/cli/main.ts';
import { parseSuite } from '../../functions/core/suite/suite.ts';
import { nonEmpty } from '../helpers/non-empty.ts';
import {
  PROJECT_SITE_BASE_URL as BASE_URL,
  PROJECT_SITE_BOOK_DIR as BOOK_DIR,
  type IndexedProjectSiteBook,
  startIndexedProjectSiteBook,
} from '../helpers/project-site-book.ts';

let book: IndexedProjectSiteBook;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  book = await startIndexedProjectSiteBook();
  env = book.env;
  dir = mkdtempSync(path.join(tmpdir(), 'ragwatch-day-one-'));
});

afterAll(async () => {
  await book?.stop();
});

const file = (name: string) => path.join(dir, name);
const read = (name: string) => readFileSync(file(name), 'utf8');

describe('ragwatch suite generate', () => {
  it('writes a suite that passes validation: known items per page with module and chapter, and probes', async () => {
    // Act
    const code = await main(['suite', 'generate', '--out', file('suite.json'), '--per-page', '2'], env);

    // Assess
    expect(code).toBe(0);
    const suite = parseSuite(read('suite.json'), 'suite.json');
    const known = suite.queries.filter((q) => q.expect_match);
    const probes = suite.queries.filter((q) => !q.expect_match);
    expect(known).toHaveLength(10); // 5 pages x 2
    expect(probes.map((q) => q.category)).toEqual(['probe', 'probe', 'probe']);
    expect(known.find((q) => q.id === 'module1-ros2-ch1-ros2-basics-1')).toMatchObject({
      query_text: 'What about Nodes and topics in ROS 2 Basics?',
      expected_module: 'Module 1 Ros2',
      expected_chapter: 'module1-ros2/ch1-ros2-basics',
      relevant: [{ url: 'https://user.github.io/repo/docs/module1-ros2/ch1-ros2-basics', grade: 2 }, { grade: 3 }],
    });
    expect(suite.metrics).toEqual(['precision@5', 'recall@10', 'mrr', 'ndcg@10']);
  });

  it('asks at most --per-page questions of each page', async () => {
    // Act
    await main(['suite', 'generate', '--out', file('one.json'), '--per-page', '1', '--probes', '0'], env);

    // Assess
    const ids = parseSuite(read('one.json'), 'one.json').queries.map((q) => q.id);
    expect(ids).toEqual([
      'intro-1',
      'module1-ros2-ch1-ros2-basics-1',
      'module1-ros2-ch2-services-and-actions-1',
      'module2-simulation-ch1-gazebo-1',
      'quick-reference-1',
    ]);
  });

  it('is deterministic, and the docs folder gives the same suite as the index', async () => {
    // Act
    await main(['suite', 'generate', '--out', file('again.json')], env);
    const docsArgs = ['--docs', path.join(BOOK_DIR, 'docs'), '--base-url', BASE_URL];
    await main(['suite', 'generate', '--out', file('from-docs.json'), ...docsArgs], env);

    // Assess
    expect(read('again.json')).toBe(read('suite.json'));
    expect(read('from-docs.json')).toBe(read('suite.json'));
  });

  it('exits 2 naming the flag when --per-page is out of range', async () => {
    expect(await main(['suite', 'generate', '--out', file('bad.json'), '--per-page', '0'], env)).toBe(2);
  });
});

describe('ragwatch calibrate', () => {
  it('proposes thresholds that separate the known items from the probes, and writes them with --write', async () => {
    // Prepare
    await main(['suite', 'generate', '--out', file('calibrated.json')], env);
    const before = read('calibrated.json');

    // Act
    const dry = await main(['calibrate', '--suite', file('calibrated.json')], env);
    const unchanged = read('calibrated.json');
    const code = await main(['calibrate', '--suite', file('calibrated.json'), '--write'], env);

    // Assess
    expect([dry, code]).toEqual([0, 0]);
    expect(unchanged).toBe(before);
    const suite = parseSuite(read('calibrated.json'), 'calibrated.json');
    const known = suite.queries.filter((q) => q.expect_match).map((q) => q.min_similarity);
    const probes = suite.queries.filter((q) => !q.expect_match).map((q) => q.min_similarity);
    expect(new Set(known).size).toBe(1);
    expect(nonEmpty(probes, 'probe thresholds').every((t) => t === known[0])).toBe(true);
    expect(known[0]).toBeGreaterThan(0);
    expect(suite.success_criteria.max_p95_latency_ms).toBeGreaterThanOrEqual(100);
  });

  it('refuses a suite that is not UTF-8, naming the file, and leaves it as it was with --write', async () => {
    // Prepare: "café" in Latin-1, which a UTF-8 decoder would silently turn into "caf\uFFFD"
    const latin1 = Buffer.from('{"queries":[{"id":"cafe","query_text":"caf\xe9 robots"}]}', 'latin1');
    writeFileSync(file('latin1.json'), latin1);
    const stderr: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr.push(String(chunk));
      return true;
    });

    // Act
    const code = await main(['calibrate', '--suite', file('latin1.json'), '--write'], env).finally(() =>
      spy.mockRestore(),
    );

    // Assess
    expect(code).toBe(2);
    expect(stderr.join('')).toContain(`${file('latin1.json')} is invalid`);
    expect(stderr.join('')).toContain('UTF-8');
    expect(readFileSync(file('latin1.json')).equals(latin1)).toBe(true);
  });

  it('gives a calibrated suite on which every known item is found and no probe matches', async () => {
    // Prepare
    await main(['suite', 'generate', '--out', file('walk.json')], env);
    await main(['calibrate', '--suite', file('walk.json'), '--write'], env);

    // Act
    const code = await main(
      ['run', '--suite', file('walk.json'), '--out', file('reports'), '--json', '--no-progress'],
      env,
    );

    // Assess
    // The latency budget is a wall-clock figure (this machine's load decides it): the run is PASSED unless that
    // budget alone is breached, and its exit code follows its status.
    const report = JSON.parse(read('reports/repo/latest.json')) as {
      status: string;
      success_criteria: { name: string; passed: boolean }[];
      pass_rate: number;
      coverage_report: { coverage_percentage: number };
      query_results: { category: string; query_category: string; status: string }[];
      validation_metrics: { benchmark: Record<string, number> };
    };
    expect(report.coverage_report.coverage_percentage).toBe(100);
    expect(report.query_results.filter((q) => q.query_category === 'probe').map((q) => q.status)).toEqual([
      'PASS',
      'PASS',
      'PASS',
    ]);
    expect(report.pass_rate).toBe(100);
    expect(Object.keys(report.validation_metrics.benchmark)).toEqual(['precision@5', 'recall@10', 'mrr', 'ndcg@10']);
    const breached = report.success_criteria.filter((c) => !c.passed).map((c) => c.name);
    expect(breached.filter((name) => name !== 'p95_latency_ms')).toEqual([]);
    expect(report.status).toBe(breached.length === 0 ? 'PASSED' : 'FAILED');
    expect(code).toBe(report.status === 'PASSED' ? 0 : 1);
  });

  it('sets aside a known item whose page is not in its top k: marked in the file, not run, not counted', async () => {
    // Prepare: a generated Gazebo question (its chapter, module and page expected) asking about ROS 2 basics
    // instead, for its top 1: its page cannot come first, whatever the threshold.
    await main(['suite', 'generate', '--out', file('aside.json')], env);
    const generated = JSON.parse(read('aside.json')) as { queries: Record<string, unknown>[] };
    const gazebo = generated.queries.find((q) => q.id === 'module2-simulation-ch1-gazebo-1');
    generated.queries.push({
      ...gazebo,
      id: 'wrong-page',
      query_text: 'What about Nodes and topics in ROS 2 Basics?',
      top_k: 1,
    });
    writeFileSync(file('aside.json'), JSON.stringify(generated, null, 2));
    const stdout: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout.push(String(chunk));
      return true;
    });

    // Act
    const code = await main(['calibrate', '--suite', file('aside.json'), '--write'], env).finally(() =>
      spy.mockRestore(),
    );
    await main(['run', '--suite', file('aside.json'), '--out', file('aside-reports'), '--json', '--no-progress'], env);

    // Assess: the file keeps the query, marked with the reason; the run neither runs nor counts it, and says so.
    expect(code).toBe(0);
    const printed = stdout.join('');
    expect(printed).toContain('Set aside (kept in the file, marked set_aside, neither run nor counted): 1 known item');
    expect(printed).toMatch(/Predicted pass rate at these thresholds: 100 % \(\d+\/\d+; 1 set aside, not counted\)/);
    const written = parseSuite(read('aside.json'), 'aside.json').queries.find((q) => q.id === 'wrong-page');
    expect(written?.set_aside).toMatch(
      /^calibrate: its page was not in its top 1 \(rank 1 was https:\/\/user\.github\.io\/repo\/docs\/module1-ros2\/ch1-ros2-basics at /,
    );
    const report = JSON.parse(read('aside-reports/repo/latest.json')) as {
      pass_rate: number;
      suite: { query_count: number; set_aside?: { id: string; reason: string }[] };
      query_results: { id: string }[];
    };
    expect(report.suite.set_aside?.map((q) => q.id)).toEqual(['wrong-page']);
    expect(report.query_results.map((q) => q.id)).not.toContain('wrong-page');
    expect(report.suite.query_count).toBe(generated.queries.length - 1);
    expect(report.pass_rate).toBe(100);
  });

  it('runs a set-aside query again: kept while its page misses its top k, brought back once it is in', async () => {
    const calibrate = async () => {
      const stdout: string[] = [];
      const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
        stdout.push(String(chunk));
        return true;
      });
      const code = await main(['calibrate', '--suite', file('aside.json'), '--write'], env).finally(() =>
        spy.mockRestore(),
      );
      const query = parseSuite(read('aside.json'), 'aside.json').queries.find((q) => q.id === 'wrong-page');
      return { code, printed: stdout.join(''), query };
    };

    // Still asking about ROS 2 basics for its Gazebo page: run again, still set aside, nothing newly set aside.
    const still = await calibrate();
    expect(still.code).toBe(0);
    expect(still.printed).toContain(
      'Set aside before, run again: 0 brought back, their page in the top k again (set_aside removed); 1 still set aside: wrong-page',
    );
    expect(still.printed).not.toContain('Set aside (kept in the file');
    expect(still.query?.set_aside).toMatch(/^calibrate: its page was not in its top 1 /);

    // Reworded to ask about its own page, the mark left in the file as a user would: calibrate removes it.
    const suite = JSON.parse(read('aside.json')) as { queries: Record<string, unknown>[] };
    const gazebo = suite.queries.find((q) => q.id === 'module2-simulation-ch1-gazebo-1');
    const wrong = suite.queries.find((q) => q.id === 'wrong-page');
    if (wrong === undefined || gazebo === undefined) throw new Error('the suite lost its queries');
    wrong.query_text = gazebo.query_text;
    writeFileSync(file('aside.json'), JSON.stringify(suite, null, 2));
    const back = await calibrate();
    expect(back.code).toBe(0);
    expect(back.printed).toContain(
      'Set aside before, run again: 1 brought back, their page in the top k again (set_aside removed): wrong-page; 0 still set aside',
    );
    expect(back.printed).toMatch(/Wrote the thresholds into .*aside\.json \(1 mark removed\)\./);
    expect(back.query).toBeDefined();
    expect(back.query?.set_aside).toBeUndefined();
    await main(['run', '--suite', file('aside.json'), '--out', file('back-reports'), '--json', '--no-progress'], env);
    const report = JSON.parse(read('back-reports/repo/latest.json')) as {
      suite: { set_aside?: unknown[] };
      query_results: { id: string; status: string }[];
    };
    expect(report.suite.set_aside ?? []).toEqual([]);
    expect(report.query_results.find((q) => q.id === 'wrong-page')?.status).toBe('PASS');
  });
});
