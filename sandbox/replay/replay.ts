/**
 * Runs a scenario night by night in one replay world and records, per night, the faults active, the run's
 * status and every email SNS delivered. The noise (score noise per chunk and query, latency jitter with busy
 * nights, a flaky query, chunks re-indexed with the same content; noise.ts) comes from a seeded generator, so a
 * replay is repeatable.
 */
import { FAULT_KINDS } from './faults.ts';
import { activeFaults, type Scenario } from './scenario.ts';
import type { DeliveredEmail, QueryOutcome, ReplayWorld } from './world.ts';

export interface NightRecord {
  night: number;
  date: string;
  faults: string[];
  status: string;
  emails: DeliveredEmail[];
  /** The stored report's regression findings (kind, or kind:metric), for checks; not printed. */
  findings: string[];
  queries: QueryOutcome[];
  /** The stored report's latency percentiles (ms); null without a report. Not printed. */
  latency: { p50: number | null; p95: number | null; p99: number | null } | null;
  /** On a night with a state event: the incident state object's body before and after the run. Not printed. */
  incidentState?: { before: string | null; after: string | null };
}

/** The ISO time of night n's run: 02:00 UTC, n-1 days after the start date. */
function nightDate(scenario: Scenario, night: number): string {
  const start = Date.parse(`${scenario.start_date}T02:00:00.000Z`);
  return new Date(start + (night - 1) * 86_400_000).toISOString();
}

/** A fault's label in the output: its id and kind. */
function faultLabel(fault: { id: string; kind: string }): string {
  return `${fault.id}:${fault.kind}`;
}

/** Runs nights 1..`nights` (default: all) of the scenario; `onNight` sees each record as it is made. */
export async function runReplay(
  world: ReplayWorld,
  scenario: Scenario,
  options: { nights?: number; onNight?: (record: NightRecord) => void } = {},
): Promise<NightRecord[]> {
  const replay = await startReplay(world, scenario);
  const records: NightRecord[] = [];
  const last = Math.min(options.nights ?? scenario.nights, scenario.nights);
  for (let night = 1; night <= last; night += 1) {
    const record = await replay.next();
    records.push(record);
    options.onNight?.(record);
  }
  return records;
}

/** A replay run one night at a time (nights 1, 2, ... in order), for callers that check each night as it ends. */
export async function startReplay(world: ReplayWorld, scenario: Scenario): Promise<{ next(): Promise<NightRecord> }> {
  const random = mulberry32(scenario.noise.seed);
  const flaky = await flakyQuery(world, scenario);
  let night = 0;
  return {
    async next() {
      night += 1;
      if (night > scenario.nights) throw new Error(`the scenario has ${scenario.nights} nights`);
      const faults = activeFaults(scenario, night);
      const [low, high] = scenario.noise.latency_jitter_ms;
      const date = nightDate(scenario, night);
      const busy = random() < scenario.noise.busy_nights ? 5 : 1;
      const latencyMs = Math.round((low + random() * (high - low)) * busy);
      const reindexed = Array.from({ length: scenario.noise.reindexed_chunks }, () => Math.floor(random() * 1_000_000));
      const noiseSeed = Math.floor(random() * 4_294_967_296);
      const flakyTonight = flaky !== null && random() < flaky.share ? flaky : null;
      const state = scenario.state_events.find((e) => e.night === night)?.kind;
      const outcome = await world.runNight({
        date,
        ...(state === undefined ? {} : { state }),
        latencyMs,
        reindexed,
        noise: { sigma: scenario.noise.sigma, seed: noiseSeed, flaky: flakyTonight },
        shape: (w) => {
          for (const fault of faults) FAULT_KINDS[fault.kind].apply(w, fault, night - fault.from + 1);
        },
      });
      return { night, date: date.slice(0, 10), faults: faults.map(faultLabel), ...outcome };
    },
  };
}

/** The scenario's flaky query: its embedding, its module and its share of bad nights; null when there is none. */
async function flakyQuery(
  world: ReplayWorld,
  scenario: Scenario,
): Promise<{ vector: number[]; module: string; share: number } | null> {
  const wanted = scenario.noise.flaky_query;
  if (wanted === null) return null;
  const query = world.cleanQueries().find((q) => q.id === wanted.id);
  if (query === undefined) throw new Error(`noise.flaky_query: no query "${wanted.id}" in the replay suite`);
  return { vector: await world.embedQuery(query.text), module: query.module, share: wanted.share };
}

/** A small seeded PRNG (mulberry32): repeatable noise without a dependency. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
