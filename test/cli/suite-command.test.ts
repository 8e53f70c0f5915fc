import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../functions/cli/main.ts';
import { parseSuite } from '../../functions/core/suite/suite.ts';

let dir: string;
let out: string[] = [];
let err: string[] = [];

const BENCHMARK_YAML = `benchmark_name: nightly
question_set:
  - What is ROS 2?
ground_truth_mappings:
  What is ROS 2?: [/docs/module-1-ros2/ch1-ros2-basics]
metrics: [precision@5, mrr]
`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ragwatch-suite-'));
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

async function normalize(name: string, text: string): Promise<number> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return main(['suite', 'normalize', file], {});
}

describe('ragwatch suite normalize', () => {
  it('prints a seed 004 benchmark in the project’s form, which loads to the same suite', async () => {
    // Act
    const code = await normalize('bench.yaml', BENCHMARK_YAML);

    // Assess
    expect(code).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual({
      name: 'nightly',
      metrics: ['precision@5', 'mrr'],
      queries: [{ id: 'q1', query_text: 'What is ROS 2?', relevant: [{ url: '/docs/module-1-ros2/ch1-ros2-basics' }] }],
    });
    expect(parseSuite(out.join(''), 'printed.json')).toEqual(parseSuite(BENCHMARK_YAML, 'bench.yaml'));
    expect(err.join('')).toContain('is in the seed 004 benchmark form');
  });

  it('prints a seed 003 request list in the project’s form', async () => {
    // Act
    const code = await normalize('requests.json', JSON.stringify([{ query: 'What is URDF?', query_id: 'urdf' }]));

    // Assess
    expect(code).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual({ queries: [{ query_text: 'What is URDF?', id: 'urdf' }] });
  });

  it('exits 2 on a file that mixes forms, saying so', async () => {
    // Act
    const code = await normalize('mixed.json', JSON.stringify({ queries: [{ query: 'a' }, { query_text: 'b' }] }));

    // Assess
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('')).toContain('mixes suite forms');
  });

  it('exits 2 naming a file that does not exist', async () => {
    // Act
    const code = await main(['suite', 'normalize', path.join(dir, 'nope.json')], {});

    // Assess
    expect(code).toBe(2);
    expect(err.join('')).toContain('nope.json is invalid:\n  - file not found');
  });
});
