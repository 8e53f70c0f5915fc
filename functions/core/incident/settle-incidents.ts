/**
 * Reads the incident state, moves it on with this run, and writes it back with a conditional write; only the run
 * whose write lands may send the notices. When another run wrote first, the state is read again and this run is
 * applied on top of it (at most `attempts` times), so two overlapping runs never both send an onset.
 */

import type { IncidentStore } from '../ports.ts';
import { IncidentState } from '../report/incident-state.ts';
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
      const next = advanceIncidents({
        state: before,
        ...key,
        observation,
        run,
        newId: options.newId,
        policy: options.policy ?? DEFAULT_POLICY,
      });
      if (stored.version !== null && warning === null && JSON.stringify(next.state) === JSON.stringify(before))
        return { ok: true, notices: [], revert: async () => {}, warning };
      if (stored.version === null && next.notices.length === 0 && !hasOpen(next.state))
        return { ok: true, notices: [], revert: async () => {}, warning };
      const version = await store.write(key, next.state, stored.version);
      if (version === null) continue;
      const revert = async () => {
        if (before) await store.write(key, before, version);
        else
          await store.write(
            key,
            { ...next.state, open: { quality: null, infrastructure: null, suite: null } },
            version,
          );
      };
      return { ok: true, notices: next.notices, revert, warning };
    }
    return { ok: false, error: 'other runs kept writing the incident state first; this run sent nothing' };
  } catch (error) {
    return { ok: false, error: `incident state unavailable: ${describeError(error)}` };
  }
}

function hasOpen(state: IncidentState): boolean {
  return Object.values(state.open).some((i) => i !== null);
}
