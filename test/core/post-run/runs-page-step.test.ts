/**
 * The page of past runs in the post-run use case: written after the alert step with the incidents as that step left
 * them, only beside an archived report, and a failure to write it logged, never the run's.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from '../../../functions/core/incident/advance-incidents.ts';
import { finishRun } from '../../../functions/core/post-run/finish-run.ts';
import type { PostRunPorts, StoredReport } from '../../../functions/core/post-run/ports.ts';
import type { RunsPageRow } from '../../../functions/core/render/html/runs-page.ts';
import { emptyState } from '../../../functions/core/report/incident-state.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { MemoryIncidentStore } from '../../fakes/memory-incident-store.ts';
import { buildFailedReport, buildPassedReport } from '../../nightly/fixtures/reports.ts';
import { eventsOf, type FakeOptions, fakePorts } from './fake-ports.ts';

const ROWS: RunsPageRow[] = [
  { run_id: 'r-1', started_at: '2026-03-13T02:00:00.000Z', status: 'PASSED', pass_rate: 100, href: 'r-1.html' },
];

/** finishRun with a report sink that writes the page (or fails to), recording each page and what came before it. */
async function finish(report: ValidationReport, fakes: FakeOptions = {}, pageError?: Error) {
  const { ports, seen } = fakePorts(fakes);
  const pages: string[] = [];
  const sentBeforePage: number[] = [];
  const withPage: PostRunPorts<StoredReport> = {
    ...ports,
    reports: {
      ...ports.reports,
      saveRunsPage: async (_report, render) => {
        sentBeforePage.push(seen.sent.length);
        if (pageError) throw pageError;
        pages.push(render(ROWS));
      },
    },
  };
  const outcome = await finishRun(withPage, { report, previous: null }, { html: true, policy: DEFAULT_POLICY });
  return { outcome, seen, pages, sentBeforePage };
}

describe('finishRun: the page of past runs', () => {
  it('writes the page after the alert step, with the incident this run opened', async () => {
    // Prepare
    const store = new MemoryIncidentStore();

    // Act
    const { pages, sentBeforePage, seen } = await finish(buildFailedReport(), { incidents: store });

    // Assess: the state the alert step wrote, not read again
    expect(store.reads).toBe(1);
    expect(seen.sent.length).toBeGreaterThan(0);
    expect(sentBeforePage).toEqual([seen.sent.length]);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('<h2>Open incidents (1)</h2>');
    expect(pages[0]).toContain('<td>quality</td>');
    expect(pages[0]).toContain('<a href="r-1.html" rel="noopener noreferrer">r-1</a>');
  });

  it('shows no open incident once a passing run left none', async () => {
    const { pages } = await finish(buildPassedReport());
    expect(pages[0]).toContain('<h2>Open incidents: none</h2>');
  });

  it('reads the incident state itself when the alert step did not (a maintenance window)', async () => {
    // Prepare: an incident open before the window
    const store = new MemoryIncidentStore();
    const state = emptyState('book', 'prod');
    const opened = { run_id: 'r-0', started_at: '2026-03-01T02:00:00.000Z', report: 'x' };
    state.open.infrastructure = {
      id: 'i',
      track: 'infrastructure',
      opened,
      last_seen: opened,
      severity: 'HIGH',
      breaches: [{ kind: 'run_error', severity: 'HIGH', summary: 'Qdrant down' }],
      last_notified_at: opened.started_at,
      clean_runs: 0,
      runs: 1,
    };
    store.put(state);
    const report = { ...buildPassedReport(), maintenance: { until: '2026-03-15T06:00:00.000Z', reason: 're-index' } };

    // Act
    const { pages, seen } = await finish(report, { incidents: store });

    // Assess
    expect(seen.sent).toEqual([]);
    expect(store.reads).toBe(1);
    expect(store.keys).toEqual([{ collection: 'book', environment: 'prod' }]);
    expect(pages[0]).toContain('<td class="sev high">HIGH</td><td>infrastructure</td>');
  });

  it('says the open incidents are unknown when the stored state does not parse', async () => {
    const store = new MemoryIncidentStore();
    store.put({ not: 'a state' });
    const report = { ...buildPassedReport(), maintenance: { until: '2026-03-15T06:00:00.000Z', reason: 're-index' } };
    const { pages } = await finish(report, { incidents: store });
    expect(pages[0]).toContain('open incidents unknown');
  });

  it('logs a page that could not be written, and the run’s outcome is unchanged', async () => {
    // Act
    const failed = await finish(
      buildFailedReport(),
      {},
      new Error('S3 PutObject s3://b/reports/book/index.html failed'),
    );
    const written = await finish(buildFailedReport());

    // Assess
    expect(eventsOf(failed.seen, 'runs_page_not_written')).toEqual([
      { kind: 'runs_page_not_written', reason: 'S3 PutObject s3://b/reports/book/index.html failed' },
    ]);
    expect(failed.outcome.sinks).toEqual(written.outcome.sinks);
    expect(eventsOf(written.seen, 'runs_page_not_written')).toEqual([]);
  });

  it('writes no page when the report could not be archived', async () => {
    const { pages, sentBeforePage } = await finish(buildFailedReport(), { archive: new Error('S3 down') });
    expect(pages).toEqual([]);
    expect(sentBeforePage).toEqual([]);
  });
});
