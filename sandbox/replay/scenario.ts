/**
 * The replay's scenario: how many nights, from which date, the noise on every night, and the faults injected on
 * given nights. Faults on the same incident track may not overlap or touch (a clean night must separate them;
 * when the target wants each fault's recovery, the DEFAULT_RECOVERY_RUNS (2) clean nights that send it), so each
 * email can be attributed to exactly one fault and the tally stays honest.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_RECOVERY_RUNS } from '../../functions/core/incident/advance-incidents.ts';
import { FAULT_KINDS, type FaultKind } from './faults.ts';

export const ScenarioFault = z.object({
  id: z.string().min(1),
  kind: z.enum(Object.keys(FAULT_KINDS) as [FaultKind, ...FaultKind[]]),
  /** The page path or module folder the fault acts on (for the faults that need one). */
  target: z.string().optional(),
  /** For a renamed page: its new path. */
  to: z.string().optional(),
  /** For lowered scores: the fall of every similarity per night of the ramp, as a share (0.015: -1.5 % a night). */
  fall: z.number().gt(0).lt(1).optional(),
  /** For lowered scores: nights the fall grows before it is held (1: the whole fall at once). */
  ramp_nights: z.number().int().min(1).optional(),
  /** For a truncated module: the chunks kept per page. */
  keep_chunks: z.number().int().min(0).optional(),
  /** For a Qdrant timeout: the operation whose requests hang, and how many of them that night (default 1). */
  operation: z.enum(['query_batch_points', 'facet', 'scroll_points', 'count_points']).optional(),
  times: z.number().int().min(1).optional(),
  /** For slowed searches: the delay added to each of the night's query batches (ms). */
  delay_ms: z.number().int().min(1).max(20_000).optional(),
  /**
   * A blip: it must never reach a HIGH or CRITICAL email (on its track, from its first night to its recovery's), and
   * need not be told at all; when it is told, its recovery is still owed.
   */
  quiet: z.boolean().default(false),
  /** It must page (a HIGH or CRITICAL email on its track) within this many of its nights. */
  page_within: z.number().int().min(1).optional(),
  from: z.number().int().min(1),
  nights: z.number().int().min(1),
});
export type ScenarioFault = z.infer<typeof ScenarioFault>;

/** What the scenario must show for `npm run replay` to exit 0 (the defaults are the a-h target). */
const ScenarioTarget = z.object({
  /** Every fault named in an email within this many of its nights (1: on its first night). */
  detect_within: z.number().int().min(1).default(1),
  /** Only the first fault must be detected (a flapping fault: its returns may reopen the same incident quietly). */
  detect_first_only: z.boolean().default(false),
  /** Every fault that ended is followed by its recovery. */
  recover: z.boolean().default(true),
  max_duplicates: z.number().int().min(0).default(0),
  max_false: z.number().int().min(0).default(0),
  /** Emails on nights with no fault at all, and how many of those may be HIGH or CRITICAL. */
  max_clean_emails: z.number().int().min(0).default(0),
  max_clean_pages: z.number().int().min(0).default(0),
  /** Emails in all (null: no limit). */
  max_emails: z.number().int().min(0).nullable().default(null),
});

export const Scenario = z.object({
  /** What the scenario shows, in a line. */
  name: z.string().min(1).default('faults a-h'),
  nights: z.number().int().min(1).max(366),
  start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  noise: z.object({
    /** Each night, Qdrant answers with a delay drawn uniformly from this range (ms). */
    latency_jitter_ms: z.tuple([z.number().min(0), z.number().min(0)]),
    /** Each night, this many chunks are re-indexed with the same content. */
    reindexed_chunks: z.number().int().min(0),
    seed: z.number().int(),
    /** Per-(chunk, query) score noise, N(0, sigma) every night (noise.ts); `--sigma` overrides it. */
    sigma: z.number().min(0).max(0.2).default(0.01),
    /** Share of nights that are busy: the latency drawn is multiplied by 5. */
    busy_nights: z.number().min(0).max(1).default(0.1),
    /** A query that fails on this share of nights (its module pushed out of its results), and passes the others. */
    flaky_query: z
      .object({ id: z.string().min(1), share: z.number().min(0).max(1) })
      .nullable()
      .default(null),
  }),
  faults: z.array(ScenarioFault),
  /**
   * What happens to the incident state object on a night, apart from any fault (issue 21 §5): a body that is not
   * JSON written over it, or the object deleted, before the night's run; or two runs of the handler at once.
   */
  state_events: z
    .array(z.object({ night: z.number().int().min(1), kind: z.enum(['corrupt', 'deleted', 'overlap']) }))
    .default([]),
  target: ScenarioTarget.prefault({}),
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
  const gap = scenario.target.recover ? DEFAULT_RECOVERY_RUNS : 1;
  for (const [track, faults] of byTrack) {
    const sorted = [...faults].sort((a, b) => a.from - b.from);
    for (const [i, f] of sorted.entries()) {
      const next = sorted[i + 1];
      if (next && next.from < f.from + f.nights + gap)
        problems.push(`faults ${f.id} and ${next.id} (${track}) must be separated by ${gap} clean night(s)`);
    }
  }
  if (problems.length > 0) throw new Error(`${source}: ${problems.join('; ')}`);
  return scenario;
}

/** Reads a scenario file. */
export function loadScenario(file: string): Scenario {
  return parseScenario(JSON.parse(readFileSync(file, 'utf8')), file);
}
