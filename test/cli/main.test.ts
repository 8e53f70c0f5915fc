/**
 * The CLI as a developer meets it: exit codes, the messages for bad input, the report file and the summary,
 * against the sandbox's stand-ins through the real clients.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../functions/cli/main.ts';
import { SAMPLE_BOOK_BASE_URL, SAMPLE_BOOK_DIR } from '../../sandbox/book-server.ts';
import { indexSampleBook, SAMPLE_SUITE_PATH, type Sandbox, startSandbox } from '../../sandbox/start-sandbox.ts';
import { parseValidReport } from '../helpers/valid-report.ts';

let sandbox: Sandbox;
let dir: string;
let out: string[];
let err: string[];

const PASSING_SUITE = {
  defaults: { min_similarity: 0.2 },
  queries: [
    { id: 'vslam', query_text: 'What is visual SLAM in Isaac ROS?', expected_module: 'Module 3 Nvidia Isaac' },
    { id: 'unity', query_text: 'Why use Unity for human-robot interaction?', expected_module: 'Module 2 Digital Twin' },
  ],
};

async function cli(args: string[], env: Record<string, string> = sandbox.env): Promise<number> {
  return main(args, { ...env, REPORT_DIR: path.join(dir, 'reports') });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ragwatch-cli-'));
  await writeFile(path.join(dir, 'passing.json'), JSON.stringify(PASSING_SUITE));
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
});
afterAll(async () => {
  await sandbox.stop();
});
beforeAll(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  out = [];
  err = [];
});
out = [];
err = [];

describe('ragwatch run', () => {
  it('exits 0 when every criterion holds, and says where the report is', async () => {
    // Act
    const code = await cli(['run', '--suite', path.join(dir, 'passing.json'), '--no-progress'], {
      ...sandbox.env,
      MIN_COVERAGE: '90',
    });

    // Assess
    expect(code).toBe(0);
    const summary = out.join('');
    expect(summary).toMatch(/^ragwatch PASSED {2}collection book/);
    // The JSON and the CSV by absolute path, the HTML as a link that opens on click.
    const [, json, csv] = summary.match(/^Files {4}(\/\S+\.json) · (\/\S+\.csv)$/m) ?? [];
    const report = parseValidReport(await readFile(json ?? '', 'utf8'));
    expect(report).toMatchObject({ status: 'PASSED', total_queries: 2 });
    expect((await readFile(csv ?? '', 'utf8')).split('\n')[0]).toMatch(
      /^id,query_category,status,query_text,pass_reason,fail_reason,/,
    );
    const [verdict, counts, link] = summary.trimEnd().split('\n').slice(-3);
    expect(verdict).toMatch(/^PASSED {3}\d+ hold$/);
    const findings = report.errors.filter((e) => e.error_type !== 'CRITERION_BREACHED').length;
    expect(counts).toMatch(
      new RegExp(`^Counts {3}2 queries: 2 passed, 0 failed, 0 errored · ${findings} findings? \\(\\d+ (MEDIUM|LOW)`),
    );
    expect(link).toBe(`Report   ${pathToFileURL(json?.replace(/\.json$/, '.html') ?? '').href}`);
    expect(await readFile(fileURLToPath(link?.slice('Report   '.length) ?? ''), 'utf8')).toMatch(/^<!doctype html>/i);
  });

  it('lists every criterion with --all, and only the breached ones without', async () => {
    const env = { ...sandbox.env, MIN_COVERAGE: '90' };
    await cli(['run', '--suite', path.join(dir, 'passing.json'), '--no-progress', '--all'], env);
    expect(out.join('')).toMatch(/✔ +coverage/);
    out.length = 0;
    // A relative --out: the paths printed are still absolute.
    const relative = path.relative(process.cwd(), path.join(dir, 'relative-out'));
    await cli(['run', '--suite', path.join(dir, 'passing.json'), '--no-progress', '--out', relative], env);
    expect(out.join('')).not.toContain('coverage ');
    expect(out.join('')).toContain(`Files    ${path.join(dir, 'relative-out', 'book')}/`);
    expect(out.join('')).toContain(`Report   ${pathToFileURL(path.join(dir, 'relative-out', 'book')).href}/`);
  });

  it('exits 1 on a breach and keeps a latest.json beside the run’s own file', async () => {
    // Act
    const code = await cli(['run', '--suite', SAMPLE_SUITE_PATH, '--no-progress']);

    // Assess
    expect(code).toBe(1);
    expect(out.join('')).toMatch(/✘ (HIGH|MEDIUM) +coverage/);
    const files = await readdir(path.join(dir, 'reports', 'book'));
    expect(files).toContain('latest.json');
    expect(files.filter((f) => f.endsWith('.json')).length).toBeGreaterThanOrEqual(2);
  });

  it('exits 3 when the report cannot be written, and puts the whole report on stderr', async () => {
    // Prepare: --out is a file, so no folder can be made under it
    const blocker = path.join(dir, 'not-a-folder');
    await writeFile(blocker, 'x');

    // Act
    const code = await cli(['run', '--suite', path.join(dir, 'passing.json'), '--out', blocker, '--no-progress'], {
      ...sandbox.env,
      MIN_COVERAGE: '90',
    });

    // Assess
    expect(code).toBe(3);
    const stderr = err.join('');
    expect(stderr).toContain(`ragwatch: could not write the report under ${blocker}`);
    expect(parseValidReport(JSON.parse(stderr.split('\n')[1] ?? '')).status).toBe('PASSED');
  });

  it('exits 4 (ERROR, not FAILED) at the deadline with a report when Qdrant and Cohere hang, naming what was cut', async () => {
    // Prepare
    sandbox.qdrant.inject({ operationId: 'all', hang: true, times: 1000 });
    sandbox.cohere.inject({ hang: true, times: 1000 });

    // Act
    const code = await cli([
      'run',
      '--suite',
      path.join(dir, 'passing.json'),
      '--deadline',
      '1',
      '--json',
      '--no-progress',
    ]).finally(() => {
      sandbox.qdrant.clearFaults();
      sandbox.cohere.clearFaults();
    });

    // Assess
    expect(code).toBe(4);
    const report = parseValidReport(JSON.parse(out.join('')));
    expect(report.status).toBe('ERROR');
    expect(report.execution.stages.describe?.status).toBe('cut');
    expect(report.errors.map((e) => e.message)).toContainEqual(
      // Each cut step once, naming what it was waiting on.
      expect.stringMatching(/\(Qdrant [^)]*\)\) was cut: the run deadline \(1 s\) was reached$/),
    );
  });

  it('exits 2 on a --deadline outside 1..3600 seconds, naming the variable', async () => {
    const code = await cli(['run', '--suite', path.join(dir, 'passing.json'), '--deadline', '0', '--no-progress']);

    expect(code).toBe(2);
    expect(err.join('')).toContain('RUN_DEADLINE_SECONDS: must be a number from 1 to 3600, got "0"');
  });

  it('remembers the folder’s incident: one onset line, then silence while the breach lasts', async () => {
    // Prepare
    const reports = path.join(dir, 'incident-reports');
    const run = () =>
      main(['run', '--suite', SAMPLE_SUITE_PATH, '--no-progress'], { ...sandbox.env, REPORT_DIR: reports });

    // Act
    await run();
    const first = err.join('');
    err.length = 0;
    await run();

    // Assess
    expect(first).toMatch(/^ragwatch: quality incident onset \[HIGH\] since \S+: pass rate [\d.]+% < 90%/m);
    expect(err.join('')).not.toContain('incident');
    expect(await readdir(path.join(reports, 'book'))).toContain('incidents-sandbox.json');
  });

  it('prints the report JSON itself with --json', async () => {
    await cli(['run', '--suite', path.join(dir, 'passing.json'), '--json', '--no-progress']);

    expect(parseValidReport(out.join('')).suite.query_count).toBe(2);
  });

  it('prints the small summary form with --json summary: status, exit code, counts, breaches, the files', async () => {
    // Act: a run that breaches (the sample suite fails on purpose)
    const code = await cli(['run', '--suite', SAMPLE_SUITE_PATH, '--json', 'summary', '--no-progress']);

    // Assess: each figure is the stored report's own
    const summary = JSON.parse(out.join('')) as Record<string, unknown> & { report_files: { json: string } };
    const report = parseValidReport(await readFile(summary.report_files.json, 'utf8'));
    expect(code).toBe(1);
    expect(summary).toMatchObject({
      schema_version: report.schema_version,
      run_id: report.run_id,
      status: 'FAILED',
      exit_code: 1,
      status_reason: report.status_reason,
      total_queries: report.total_queries,
      passed_queries: report.passed_queries,
      failed_queries: report.failed_queries,
      error_queries: report.error_queries,
      pass_rate: report.pass_rate,
    });
    expect((summary.criteria_breached as { name: string }[]).map((c) => c.name)).toEqual(
      report.success_criteria.filter((c) => !c.passed && c.value !== null).map((c) => c.name),
    );
    expect(path.isAbsolute(summary.report_files.json)).toBe(true);
    expect(Buffer.byteLength(out.join(''))).toBeLessThan(8_000);
  });

  it('exits 2 on --json with a form it does not know, naming the forms', async () => {
    const code = await cli(['run', '--suite', path.join(dir, 'passing.json'), '--json', 'short']);
    expect(code).toBe(2);
    expect(err.join('')).toContain(
      'ragwatch: --json is invalid:\n  - expects no value, "report" or "summary", got "short"',
    );
  });

  it('runs a suite written in seed 004’s benchmark form, its questions judged by their ground truth', async () => {
    // Prepare
    const file = path.join(dir, 'benchmark.yaml');
    await writeFile(
      file,
      [
        'benchmark_name: sample-benchmark',
        'question_set: [What is visual SLAM in Isaac ROS?]',
        'ground_truth_mappings:',
        '  What is visual SLAM in Isaac ROS?: [ch2-isaac-ros-vslam.md]',
        'metrics: [recall@5, mrr]',
      ].join('\n'),
    );

    // Act
    await cli(['run', '--suite', file, '--json', '--no-progress']);

    // Assess
    const report = parseValidReport(out.join(''));
    expect(report.suite.name).toBe('sample-benchmark');
    expect(report.query_results[0]?.metrics).toMatchObject({ judged_relevant: 1, recall_at_k: 1, hit: true });
  });

  it('exits 2 naming every bad variable, and runs nothing', async () => {
    // Prepare
    sandbox.qdrant.resetCounts();

    // Act
    const code = await cli(['run', '--suite', SAMPLE_SUITE_PATH], { QDRANT_URL: 'not a url', TOP_K_RESULTS: '99' });

    // Assess
    expect(code).toBe(2);
    expect(err.join('')).toBe(
      [
        'ragwatch: configuration is invalid:',
        '  - QDRANT_URL: must be an http(s) URL, got "not a url"',
        '  - DOCUSAURUS_BASE_URL: required (the book’s base URL)',
        '  - COHERE_API_KEY: required (the Cohere API key)',
        '  - TOP_K_RESULTS: must be a whole number from 1 to 50, got "99"',
        '',
      ].join('\n'),
    );
    expect(sandbox.qdrant.requestCounts()).toEqual({});
  });

  it('exits 2 naming the suite file and each bad field', async () => {
    // Prepare
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ queries: [{ query_text: 'ok' }, { query_text: '', top_k: 0 }] }));

    // Act
    const code = await cli(['run', '--suite', bad]);

    // Assess
    expect(code).toBe(2);
    expect(err.join('')).toBe(
      `ragwatch: ${bad} is invalid:\n  - queries[1].query_text: must not be empty\n  - queries[1].top_k: must be 1..50\n`,
    );
  });

  it('exits 2 when the suite file does not exist', async () => {
    const code = await cli(['run', '--suite', path.join(dir, 'nope.json')]);

    expect(code).toBe(2);
    expect(err.join('')).toContain('nope.json is invalid:\n  - file not found');
  });

  it('says how to name a suite and how to make one when there is none', async () => {
    const code = await cli(['run', '--suite', path.join(dir, 'nope.json')]);

    expect(code).toBe(2);
    expect(err.join('')).toContain(
      `file not found: name the suite with --suite <file> or SUITE_PATH, or write one from the index with \`ragwatch suite generate --out ${path.join(dir, 'nope.json')}\``,
    );
  });

  it('lists the environment’s problems and the suite’s at once, and runs nothing', async () => {
    // Prepare
    sandbox.qdrant.resetCounts();

    // Act
    const code = await cli(['run', '--suite', path.join(dir, 'nope.json')], { ...sandbox.env, TOP_K_RESULTS: '99' });

    // Assess
    expect(code).toBe(2);
    expect(err.join('')).toMatch(
      /^ragwatch: configuration is invalid:\n {2}- TOP_K_RESULTS: .*\nragwatch: \S+nope\.json is invalid:\n {2}- file not found: /,
    );
    expect(sandbox.qdrant.requestCounts()).toEqual({});
  });

  it('names the collections that exist when the one asked for does not', async () => {
    const code = await cli([
      'run',
      '--suite',
      path.join(dir, 'passing.json'),
      '-c',
      'boook',
      '--json',
      '--no-progress',
    ]);

    expect(code).toBe(4);
    const report = parseValidReport(out.join(''));
    expect(report.errors.map((e) => e.message)).toContainEqual(
      expect.stringMatching(/"boook" .* 404: .*; the collections there: (\S+, )*book(, \S+)* \(QDRANT_COLLECTION/),
    );
  });

  it('exits 2 on an unknown flag', async () => {
    expect(await cli(['run', '--frobnicate'])).toBe(2);
  });

  it('never prints the API keys', async () => {
    // Prepare
    const env = { ...sandbox.env, COHERE_API_KEY: 'co-super-secret-0001', QDRANT_API_KEY: 'qd-super-secret-0002' };

    // Act
    await cli(['run', '--suite', path.join(dir, 'passing.json'), '--json'], env);

    // Assess
    const everything = out.join('') + err.join('');
    expect(everything).not.toContain('co-super-secret-0001');
    expect(everything).not.toContain('qd-super-secret-0002');
  });
});

describe('ragwatch index', () => {
  it('indexes a docs folder into the named collection and says what it did', async () => {
    // Act
    const code = await cli([
      'index',
      '--docs',
      path.join(SAMPLE_BOOK_DIR, 'docs'),
      '--base-url',
      SAMPLE_BOOK_BASE_URL,
      '--collection',
      'cli-book',
    ]);

    // Assess
    expect(code).toBe(0);
    expect(out.join('')).toMatch(
      /^Indexed 13 pages as (\d+) chunks into "cli-book" \(1024 dims, embed-english-v3\.0\): \1 written, 0 unchanged, 0 deleted in \d+ ms\nDocs served at https:\/\/book\.example\.com\/docs\/ \(routeBasePath 'docs'; no docusaurus\.config\.\* beside --docs; --route-base-path overrides\)\nmodules from the folders under the docs folder: Module 1 Ros2 \(3\), Module 2 Digital Twin \(3\), Module 3 Nvidia Isaac \(3\), Module 4 Vla \(3\); 1 page\(s\) in no module\n$/,
    );
  });

  it('exits 4 with one line naming Qdrant, and no stack trace, when Qdrant cannot be reached', async () => {
    const code = await cli(
      ['index', '--docs', path.join(SAMPLE_BOOK_DIR, 'docs'), '--base-url', SAMPLE_BOOK_BASE_URL, '-c', 'x'],
      { ...sandbox.env, QDRANT_URL: 'http://127.0.0.1:9' },
    );
    expect(code).toBe(4);
    expect(err.join('')).toMatch(/^ragwatch: indexing failed: .*Qdrant.*\n$/);
    expect(err.join('')).not.toMatch(/\n\s+at /);
  });

  it('exits 4 with one line naming Cohere when it refuses the request, without printing the key', async () => {
    sandbox.cohere.inject({ status: 400, message: 'invalid api token' });
    const code = await cli(
      ['index', '--docs', path.join(SAMPLE_BOOK_DIR, 'docs'), '--base-url', SAMPLE_BOOK_BASE_URL, '-c', 'y'],
      { ...sandbox.env, COHERE_API_KEY: 'co-secret-index-0003' },
    );
    expect(code).toBe(4);
    expect(err.join('')).toMatch(/^ragwatch: indexing failed: .*Cohere.*\n$/);
    expect(err.join('')).not.toContain('co-secret-index-0003');
  });

  it('warns, on stderr, of pages the collection holds that are no longer in --docs when --prune is not given', async () => {
    // Prepare: the book indexed, then one page deleted from a copy of it.
    const docs = path.join(dir, 'shrinking-docs');
    await cp(path.join(SAMPLE_BOOK_DIR, 'docs'), docs, { recursive: true });
    const args = ['index', '--docs', docs, '--base-url', SAMPLE_BOOK_BASE_URL, '--collection', 'cli-gone'];
    expect(await cli(args)).toBe(0);
    await rm(path.join(docs, 'intro.md'));
    err.length = 0;

    // Act
    const kept = await cli(args);
    const keptErr = err.join('');
    err.length = 0;
    const pruned = await cli([...args, '--prune']);

    // Assess
    expect([kept, pruned]).toEqual([0, 0]);
    expect(keptErr).toBe(
      `ragwatch: warning: the collection still holds 1 page(s) no longer in --docs (orphans: the run fails on them, max_orphan_urls); give --prune to delete them: ${SAMPLE_BOOK_BASE_URL}/docs/intro\n`,
    );
    expect(err.join('')).toBe('');
  });

  it('exits 2 without a base URL', async () => {
    const { DOCUSAURUS_BASE_URL: _omitted, ...env } = sandbox.env;

    expect(await cli(['index', '--docs', path.join(SAMPLE_BOOK_DIR, 'docs')], env)).toBe(2);
  });
});

describe('ragwatch suite generate and calibrate when something is wrong', () => {
  it('names --per-page, the type expected and what was given, with the environment’s problems at once', async () => {
    const code = await cli(['suite', 'generate', '--per-page', 'abc', '--out', path.join(dir, 'g.json')], {
      QDRANT_URL: 'not a url',
    });

    expect(code).toBe(2);
    expect(err.join('')).toBe(
      [
        'ragwatch: suite generate is invalid:',
        '  - --per-page: expects a whole number from 1 to 20, got "abc"',
        'ragwatch: configuration is invalid:',
        '  - QDRANT_URL: must be an http(s) URL, got "not a url"',
        '  - DOCUSAURUS_BASE_URL: required (the book’s base URL)',
        '',
      ].join('\n'),
    );
  });

  it('exits 4 with one line naming Qdrant, no stack trace, when the index cannot be read', async () => {
    const code = await cli(['suite', 'generate', '--out', path.join(dir, 'g.json')], {
      ...sandbox.env,
      QDRANT_URL: 'http://127.0.0.1:9',
    });

    expect(code).toBe(4);
    expect(err.join('')).toMatch(/^ragwatch: Qdrant .* unreachable .*\n$/);
  });

  it('exits 2 naming the folder when --out cannot be written', async () => {
    const code = await cli(['suite', 'generate', '--out', '/nonexistent/g.json'], sandbox.env);

    expect(code).toBe(2);
    expect(err.join('')).toBe(
      'ragwatch: --out /nonexistent/g.json is invalid:\n  - its folder does not exist; name a file in a folder that exists\n',
    );
  });

  it('never replaces an existing suite without --force, and says so with the other problems at once', async () => {
    // Prepare
    const existing = path.join(dir, 'calibrated.json');
    await writeFile(existing, '{"queries": []}');

    // Act
    const refused = await cli(['suite', 'generate', '--out', existing, '--probes', '9'], sandbox.env);
    const refusal = err.join('');
    const forced = await cli(['suite', 'generate', '--out', existing, '--force'], sandbox.env);

    // Assess
    expect(refused).toBe(2);
    expect(refusal).toBe(
      [
        'ragwatch: suite generate is invalid:',
        '  - --probes: expects a whole number from 0 to 5, got "9"',
        `ragwatch: --out ${existing} is invalid:`,
        '  - the file exists (it may hold calibrated thresholds): pass --force to overwrite it, or name another file',
        '',
      ].join('\n'),
    );
    expect(forced).toBe(0);
    expect(JSON.parse(await readFile(existing, 'utf8')).queries.length).toBeGreaterThan(0);
  });

  it('proposes nothing and writes nothing when no query completed, and exits 4', async () => {
    // Prepare
    const suite = path.join(dir, 'calibrate-me.json');
    await writeFile(suite, JSON.stringify(PASSING_SUITE));

    // Act
    const code = await cli(['calibrate', '--suite', suite, '--write'], {
      ...sandbox.env,
      QDRANT_URL: 'http://127.0.0.1:9',
    });

    // Assess
    expect(code).toBe(4);
    expect(err.join('')).toMatch(/^ragwatch: nothing to calibrate from: the run could not complete: .*Qdrant/);
    expect(out.join('')).toBe('');
    expect(JSON.parse(await readFile(suite, 'utf8'))).toEqual(PASSING_SUITE);
  });
});

describe('ragwatch demo', () => {
  it('runs the full validation against a sandbox of its own, exits 0 and leaves the report', async () => {
    // Act
    const code = await cli(['demo', '--out', path.join(dir, 'demo-reports'), '--no-progress']);

    // Assess
    expect(code).toBe(0);
    const report = parseValidReport(await readFile(path.join(dir, 'demo-reports', 'book', 'latest.json'), 'utf8'));
    expect(report).toMatchObject({ status: 'FAILED', total_queries: 22, environment: 'sandbox' });
    // Abstention judged on the model's own answer: the no-answer weight question reaches chat and the model abstains.
    expect(report.grounding_report).toMatchObject({ abstentions_correct: 1, abstention_correct_rate: 100 });
    expect(report.success_criteria.find((c) => c.name === 'abstention_correct_rate')).toMatchObject({
      value: 100,
      passed: true,
    });
    expect(err.join('')).toContain('breach some criteria on purpose');
    // The judge catches the invented number and names the statement it is in, and the flipped negation.
    const claims = report.grounding_report?.responses.flatMap((r) =>
      (r.grounding_validation?.claims ?? []).map((c) => ({ id: r.query_id, ...c })),
    );
    const invented = claims?.find((c) => c.id === 'llm-planning' && c.judge?.verdict !== 'supported');
    expect(invented?.judge?.verdict).toBe('not_in_context');
    expect(invented?.judge?.statements?.map((s) => [s.statement, s.verdict])).toEqual([
      [expect.stringMatching(/^Large language models/), 'supported'],
      ['It needs 64 GB of RAM.', 'not_in_context'],
    ]);
    const negated = claims?.find((c) => c.id === 'isaac-vslam' && c.judge?.verdict !== 'supported');
    expect(negated?.judge).toMatchObject({
      verdict: 'contradicted',
      evidence: expect.stringContaining('Isaac ROS is a collection of ROS 2 packages'),
    });
    expect(out.join('')).toContain(
      'the judge finds statement "It needs 64 GB of RAM." of claim "Large language models',
    );
  });

  it('refuses a negative --latency, naming the flag, before starting anything', async () => {
    expect(await cli(['demo', '--latency', '-50', '--out', path.join(dir, 'demo-reports')])).toBe(2);
    expect(err.join('')).toBe(
      'ragwatch: demo is invalid:\n  - --latency: expects a whole number from 0 to 60000, got "-50"\n',
    );
  });

  it('exits 1 on the same run with --strict', async () => {
    expect(await cli(['demo', '--out', path.join(dir, 'demo-reports'), '--no-progress', '--strict'])).toBe(1);
  });
});

describe('ragwatch schema', () => {
  it('prints the report’s JSON Schema', async () => {
    expect(await cli(['schema'])).toBe(0);
    expect(JSON.parse(out.join(''))).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['run_id', 'status']),
    });
  });

  it('exits 2 with one line naming the folder, no stack trace, when -o cannot be written', async () => {
    expect(await cli(['schema', '-o', '/nonexistent/x.json'])).toBe(2);
    expect(err.join('')).toBe(
      'ragwatch: -o /nonexistent/x.json is invalid:\n  - its folder does not exist; name a file in a folder that exists\n',
    );
  });
});

describe('LOG_LEVEL=DEBUG', () => {
  it('traces each stage’s start and end on stderr', async () => {
    await cli(['run', '--suite', path.join(dir, 'passing.json'), '--no-progress'], {
      ...sandbox.env,
      LOG_LEVEL: 'DEBUG',
    });

    const lines = err
      .join('')
      .split('\n')
      .filter((l) => / stage /.test(l));
    expect(lines.map((l) => l.replace(/^\S+ /, ''))).toEqual(
      expect.arrayContaining([
        'stage describe started',
        'stage queries finished',
        'stage sitemap finished',
        'stage profile finished',
      ]),
    );
    expect(lines.every((l) => /^\d{4}-\d{2}-\d{2}T/.test(l))).toBe(true);
  });
});
