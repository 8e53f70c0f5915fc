/**
 * Reads the incident state, moves it on with this run, and writes it back with a conditional write; only the run
 * whose write lands may send the notices. When another run wrote first, the state is read again and this run is
 * applied on top of it (at most `attempts` times), so two overlapping runs never both send an onset.
 *
 * The state is an input like any other:
 * - a stored state that does not parse is replaced, by a write conditional on its version like any other; the
 *   warning that says so comes back only once that write landed;
 * - a run that started before the state's last run is not applied (an old run finishing late must not reopen what a
 *   newer run closed, nor open what it found clean);
 * - a state that is missing or did not parse may have lost an open incident: when the run before this one was
 *   FAILED (quality) or ERROR (infrastructure), that track counts as broken by it, so a clean run sends the
 *   recovery ops would otherwise never get, saying the state was lost.
 */

import type { IncidentStore } from '../ports.ts';
import { emptyState, type Incident, IncidentState, type Track } from '../report/incident-state.ts';
import type { ValidationReport } from '../report/report.ts';
import { describeError } from '../shared/errors.ts';
import { advanceIncidents, DEFAULT_POLICY, type IncidentPolicy, type Notice } from './advance-incidents.ts';
import { observeRun } from './observe-run.ts';

export type Settled =
  | {
      ok: true;
      notices: Notice[];
      /** Puts the state back as it was (for when the notices could not be sent: the next run sends them). */
      revert: () => Promise<void>;
      /** Set when the stored state did not parse and was replaced. */
      warning: string | null;
      /** Set when this run was not applied (it started before the state's last run), with why. */
      skipped: string | null;
    }
  | { ok: false; error: string };

/** Settles this run's incidents; never throws (a failing store comes back as { ok: false }). */
export async function settleIncidents(options: {
  store: IncidentStore;
  report: ValidationReport;
  /** Where the report is (s3://... or a path), or null when it could not be stored. */
  reportLocation: string | null;
  newId: () => string;
  policy?: IncidentPolicy;
  attempts?: number;
  /** The run before this one (its report's status), null when none, undefined when it could not be read. */
  previous?: { runId: string; status: string; startedAt: string } | null;
}): Promise<Settled> {
  const { store, report } = options;
  const key = { collection: report.collection, environment: report.environment };
  const observation = observeRun(report, options.reportLocation !== null);
  const run = { run_id: report.run_id, started_at: report.timestamp, report: options.reportLocation ?? 'not stored' };
  try {
    for (let attempt = 0; attempt < (options.attempts ?? 3); attempt += 1) {
      const stored = await store.read(key);
      const parsed = stored.state === null ? null : IncidentState.safeParse(stored.state);
      const warning =
        parsed && !parsed.success ? 'the stored incident state did not parse; it was replaced by this run’s' : null;
      const before = parsed?.success ? parsed.data : null;
      const last = before?.last_run;
      if (last !== undefined && Date.parse(run.started_at) < Date.parse(last.started_at))
        return nothing(
          `this run (started ${run.started_at}) is older than the incident state’s last run (${last.run_id}, started ${last.started_at}); not applied`,
        );
      const next = advanceIncidents({
        state: before,
        ...key,
        observation,
        run,
        newId: options.newId,
        policy: options.policy ?? DEFAULT_POLICY,
        ...(before === null ? { lost: lostIncidents(options.previous) } : {}),
      });
      if (warning === null && stored.version !== null && JSON.stringify(next.state) === JSON.stringify(before))
        return nothing();
      if (warning === null && stored.version === null && next.notices.length === 0 && !hasOpen(next.state))
        return nothing();
      const version = await store.write(key, next.state, stored.version);
      if (version === null) continue;
      const revert = async () => {
        if (before) await store.write(key, before, version);
        else await store.write(key, emptyState(key.collection, key.environment), version);
      };
      return { ok: true, notices: next.notices, revert, warning, skipped: null };
    }
    return { ok: false, error: 'other runs kept writing the incident state first; this run sent nothing' };
  } catch (error) {
    return { ok: false, error: `incident state unavailable: ${describeError(error)}` };
  }
}

/** A settled run that writes and sends nothing. */
function nothing(skipped: string | null = null): Settled {
  return { ok: true, notices: [], revert: async () => {}, warning: null, skipped };
}

/**
 * The incidents the run before this one had open as far as its status tells (FAILED: quality; ERROR:
 * infrastructure), for when the state that held them is gone. Their severity is unknown, so CRITICAL: the recovery
 * then reaches every subscription the lost onset may have reached.
 */
function lostIncidents(
  previous: { runId: string; status: string; startedAt: string } | null | undefined,
): Partial<Record<Track, Incident>> {
  const track: Track | null =
    previous?.status === 'FAILED' ? 'quality' : previous?.status === 'ERROR' ? 'infrastructure' : null;
  if (!previous || track === null) return {};
  const ref = {
    run_id: previous.runId,
    started_at: previous.startedAt,
    report: 'unknown: the incident state was lost',
  };
  const summary = `the previous run (${previous.runId}, started ${previous.startedAt}) was ${previous.status}`;
  const incident: Incident = {
    id: `lost-${previous.runId}`,
    track,
    opened: ref,
    last_seen: ref,
    severity: 'CRITICAL',
    breaches: [{ kind: `PREVIOUS_RUN_${previous.status}`, severity: 'CRITICAL', summary }],
    last_notified_at: previous.startedAt,
    clean_runs: 1,
    runs: 2,
  };
  return { [track]: incident };
}

function hasOpen(state: IncidentState): boolean {
  return Object.values(state.open).some((i) => i !== null);
}
