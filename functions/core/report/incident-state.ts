/**
 * The incident state of one collection and environment: what is broken now, since when, and what ops were told.
 * It outlives runs (stored beside the reports), so it is parsed like any input: a state that does not parse is
 * reported, never trusted.
 *
 * Three tracks, each its own incident with its own subject, because different people act on them:
 * - quality: the run completed and retrieval got worse (a breached criterion or a regression), for ops;
 * - infrastructure: the run could not complete (ERROR) or its report could not be stored, for ops;
 * - suite: the golden set rotted (SUITE_STALE), for whoever maintains the suite.
 */
import { z } from 'zod';
import { Severity } from './findings.ts';

export const TRACKS = ['quality', 'infrastructure', 'suite'] as const;
export const Track = z.enum(TRACKS);
export type Track = z.infer<typeof Track>;

/** One kind of breach: a breached criterion, a regression kind, a run error. */
export const Breach = z.object({ kind: z.string(), severity: Severity, summary: z.string() });
export type Breach = z.infer<typeof Breach>;

export const RunRef = z.object({ run_id: z.string(), started_at: z.string(), report: z.string() });
export type RunRef = z.infer<typeof RunRef>;

export const Incident = z.object({
  id: z.string(),
  track: Track,
  opened: RunRef,
  last_seen: RunRef,
  /** The highest severity ops have been told of. */
  severity: Severity,
  /** Every breach kind ops have been told of, with its worst severity (and those recorded untold, below). */
  breaches: z.array(Breach),
  /**
   * Kinds recorded without an email: they came below the incident's severity while a kind ops were told of still
   * broke (inhibited, as Alertmanager's inhibit rules mute a warning while a critical alert of its group fires). Told
   * once no kind ops were told of breaks any more (absent: none).
   */
  untold: z.array(z.string()).optional(),
  last_notified_at: z.string(),
  /** Clean runs in a row since the last breach; the incident closes at the recovery threshold. */
  clean_runs: z.number().int().min(0),
  runs: z.number().int().min(1),
  /** Times it came back within the flapping window after a recovery (absent: never). */
  reopened: z.number().int().min(1).optional(),
});
export type Incident = z.infer<typeof Incident>;

/** An incident as it closed, kept so that one coming back within days re-opens it instead of starting anew. */
export const ClosedIncident = Incident.extend({ closed_at: z.string() });
export type ClosedIncident = z.infer<typeof ClosedIncident>;

export const IncidentState = z.object({
  schema_version: z.literal('1'),
  collection: z.string(),
  environment: z.string(),
  open: z.object({ quality: Incident.nullable(), infrastructure: Incident.nullable(), suite: Incident.nullable() }),
  /**
   * The latest run applied to this state (by start time): a run that started before it and finishes after it is
   * not applied, so a late old run cannot reopen what a newer run closed. Absent in states written before it.
   */
  last_run: RunRef.optional(),
  /** The last incident closed on each track (absent in states written before it). */
  closed: z
    .object({
      quality: ClosedIncident.nullable(),
      infrastructure: ClosedIncident.nullable(),
      suite: ClosedIncident.nullable(),
    })
    .optional(),
});
export type IncidentState = z.infer<typeof IncidentState>;

/** No incident open. */
export function emptyState(collection: string, environment: string): IncidentState {
  return { schema_version: '1', collection, environment, open: { quality: null, infrastructure: null, suite: null } };
}

const ORDER = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;

/** The rank of a severity: LOW 0 .. CRITICAL 3. */
export function severityRank(severity: Breach['severity']): number {
  return ORDER.indexOf(severity);
}

/** The worst severity among breaches (LOW for none). */
export function worstSeverity(breaches: readonly Breach[]): Breach['severity'] {
  return breaches.reduce<Breach['severity']>(
    (w, b) => (severityRank(b.severity) > severityRank(w) ? b.severity : w),
    'LOW',
  );
}
