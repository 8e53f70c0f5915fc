/**
 * The replay's scenario: how many nights, from which date, the noise on every night, and the faults injected on
 * given nights. Faults on the same incident track may not overlap or touch (a clean night must separate them),
 * so each email can be attributed to exactly one fault and the tally stays honest.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { FAULT_KINDS, type FaultKind } from './faults.ts';

export const ScenarioFault = z.object({
  id: z.string().min(1),
  kind: z.enum(Object.keys(FAULT_KINDS) as [FaultKind, ...FaultKind[]]),
  /** The page path or module folder the fault acts on (for the faults that need one). */
  target: z.string().optional(),
  /** For a renamed page: its new path. */
  to: z.string().optional(),
  from: z.number().int().min(1),
  nights: z.number().int().min(1).max(3),
});
export type ScenarioFault = z.infer<typeof ScenarioFault>;

export const Scenario = z.object({
  nights: z.number().int().min(1).max(366),
  start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  noise: z.object({
    /** Each night, Qdrant answers with a delay drawn uniformly from this range (ms). */
    latency_jitter_ms: z.tuple([z.number().min(0), z.number().min(0)]),
    /** Each night, this many chunks are re-indexed with the same content. */
    reindexed_chunks: z.number().int().min(0),
    seed: z.number().int(),
  }),
  faults: z.array(ScenarioFault),
});
export type Scenario = z.infer<typeof Scenario>;

/** The faults active on night n (1-based). */
export function activeFaults(scenario: Scenario, night: number): ScenarioFault[] {
  return scenario.faults.filter((f) => night >= f.from && night < f.from + f.nights);
}

/** Parses and checks a scenario; throws naming the file and every problem. */
export function parseScenario(raw: unknown, source: string): Scenario {
  const parsed = Scenario.safeParse(raw);
  if (!parsed.success)
    throw new Error(`${source}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const scenario = parsed.data;
  const problems: string[] = [];
  for (const fault of scenario.faults) {
    if (fault.from + fault.nights - 1 > scenario.nights)
      problems.push(`fault ${fault.id} ends after night ${scenario.nights}`);
    const needs = FAULT_KINDS[fault.kind].needs;
    for (const field of needs) if (fault[field] === undefined) problems.push(`fault ${fault.id}: ${field} is required`);
  }
  const byTrack = Map.groupBy(scenario.faults, (f) => FAULT_KINDS[f.kind].track);
  for (const [track, faults] of byTrack) {
    const sorted = [...faults].sort((a, b) => a.from - b.from);
    for (const [i, f] of sorted.entries()) {
      const next = sorted[i + 1];
      if (next && next.from <= f.from + f.nights)
        problems.push(`faults ${f.id} and ${next.id} (${track}) must be separated by a clean night`);
    }
  }
  if (problems.length > 0) throw new Error(`${source}: ${problems.join('; ')}`);
  return scenario;
}

/** Reads a scenario file. */
export function loadScenario(file: string): Scenario {
  return parseScenario(JSON.parse(readFileSync(file, 'utf8')), file);
}
