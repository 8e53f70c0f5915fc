/**
 * The page of past runs (render/html/runs-page.ts), written after the alert step so its open incidents are the ones
 * this run left: the incident state the alert step last read or wrote, remembered by a watch on the store (a run
 * that moved no incident read it anyway; one in a maintenance window or before any state exists reads it here). A
 * convenience like the latest copies: its failure is logged, never the run's.
 */
import type { IncidentStore } from '../ports.ts';
import { renderRunsPage } from '../render/html/runs-page.ts';
import { emptyState, IncidentState } from '../report/incident-state.ts';
import type { ValidationReport } from '../report/report.ts';
import { describeError } from '../shared/errors.ts';
import type { PostRunPorts, StoredReport } from './ports.ts';

/** The store, and the last state seen through it: undefined before any read, null when none was stored. */
export function watchIncidents(store: IncidentStore): { store: IncidentStore; last: () => unknown } {
  let last: unknown;
  return {
    store: {
      read: async (key) => {
        const stored = await store.read(key);
        last = stored.state;
        return stored;
      },
      write: async (key, state, version) => {
        const written = await store.write(key, state, version);
        if (written !== null) last = state;
        return written;
      },
    },
    last: () => last,
  };
}

/** Writes the runs page through the report sink, when the sink has one; logs why it could not. */
export async function saveRunsPage<S extends StoredReport>(
  ports: PostRunPorts<S>,
  report: ValidationReport,
  seen: unknown,
): Promise<void> {
  const sink = ports.reports;
  if (sink.saveRunsPage === undefined) return;
  try {
    const key = { collection: report.collection, environment: report.environment };
    // The state unread by the alert step (maintenance): read it now; unreadable, the page says incidents unknown.
    const raw =
      seen === undefined
        ? await ports.incidents.read(key).then(
            (s) => s.state,
            () => undefined,
          )
        : seen;
    const parsed = raw === null ? null : IncidentState.safeParse(raw);
    const incidents = raw === null ? emptyState(key.collection, key.environment) : parsed?.success ? parsed.data : null;
    await sink.saveRunsPage(report, (runs) =>
      renderRunsPage({ ...key, generated_at: report.finished_at, runs, incidents }),
    );
  } catch (error) {
    ports.log({ kind: 'runs_page_not_written', reason: describeError(error) });
  }
}
