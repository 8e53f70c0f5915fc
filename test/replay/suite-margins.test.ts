/**
 * The replay suite's description holds: on a clean night without noise every query passes, and its best result in
 * its expected module scores at least min_similarity + 0.03, so the replay's score noise (sigma 0.01) does not
 * fail it: a failing query on a replay night is a fault's doing (or the flaky query's, on purpose).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NightRecord, runReplay } from '../../sandbox/replay/replay.ts';
import { parseScenario } from '../../sandbox/replay/scenario.ts';
import { type ReplayWorld, startReplayWorld } from '../../sandbox/replay/world.ts';

const suite = JSON.parse(readFileSync(path.join(import.meta.dirname, '../../sandbox/replay/suite.json'), 'utf8')) as {
  defaults: { min_similarity: number };
  queries: { id: string; expected_module: string }[];
};
const MARGIN = 0.03;

let world: ReplayWorld;
let night: NightRecord | undefined;

beforeAll(async () => {
  world = await startReplayWorld();
  const scenario = parseScenario(
    {
      nights: 1,
      start_date: '2026-03-01',
      noise: { latency_jitter_ms: [0, 0], reindexed_chunks: 0, seed: 1, sigma: 0, busy_nights: 0 },
      faults: [],
    },
    'margins',
  );
  [night] = await runReplay(world, scenario);
});

afterAll(async () => {
  await world?.stop();
});

describe('the replay suite on a clean night without noise', () => {
  it('passes every query', () => {
    expect(night?.queries.map((q) => `${q.id}:${q.status}`)).toEqual(suite.queries.map((q) => `${q.id}:PASS`));
  });

  it.each(suite.queries)('gives $id a margin of at least 0.03 over min_similarity in its module', (query) => {
    const outcome = night?.queries.find((q) => q.id === query.id);
    // Module names in payloads are display names ("Module 3 Nvidia Isaac"); the suite names the folder.
    const words = query.expected_module.replace(/-/g, ' ').toLowerCase();
    const inModule = (outcome?.top_results ?? []).filter((r) => r.module_name?.toLowerCase() === words);
    expect(inModule.length).toBeGreaterThan(0);
    const best = Math.max(...inModule.map((r) => r.similarity_score));
    expect(best - suite.defaults.min_similarity).toBeGreaterThanOrEqual(MARGIN);
  });
});
