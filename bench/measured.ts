/** What one benchmark scenario is, and what was measured of it. */
import { ENDPOINTS, type Endpoint, type RunShape, requestLowerBounds } from './bounds.ts';
import type { EngineFigures } from './engine-child.ts';

/** One scenario of the benchmark. */
export interface Scenario {
  name: string;
  queries: number;
  points: number;
  payloadIndexes: boolean;
  /** Repeat warm at two latencies (only where the bound is a few round trips and a run is short). */
  warm: boolean;
  /** The suite names a module or chapter (the run reads the book's catalog). */
  catalog?: boolean;
  /** Distinct indexed_at values in the collection (RunShape.indexingTimes; default 1). */
  indexingTimes?: number;
}

/** The figures of one scenario: its cold run, and the warm runs when there were some. */
export interface Measured {
  scenario: Scenario;
  shape: RunShape;
  /** Requests of the cold run, by endpoint, as the stand-ins counted them. */
  counts: Record<Endpoint, number>;
  /** Requests to any other Qdrant endpoint (there should be none). */
  other: Record<string, number>;
  baselineRssMb: number;
  cold: EngineFigures;
  /** CPU the stand-ins (this process) spent during the cold run. */
  standInCpuMs: number;
  warm: {
    wallMs: number;
    p50LatencyMs: number | null;
    /** (wall at L + step − wall at L) / step: the round trips the run waits for one after the other. */
    effectiveRoundTrips: number;
    engineCpuMs: number;
    standInCpuMs: number;
  } | null;
}

/** True when every endpoint saw exactly its lower bound, and no other endpoint was called. */
export function atRequestBound(m: Measured): boolean {
  const bound = requestLowerBounds(m.shape);
  return ENDPOINTS.every((e) => m.counts[e] === bound[e]) && Object.values(m.other).every((n) => n === 0);
}
