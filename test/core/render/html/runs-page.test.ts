/**
 * The page of past runs: each run's status, pass rate ("n/a" where no query completed) and link, the open
 * incidents as the run left them, and the report's safety (escaped, no script, no request).
 */
import { describe, expect, it } from 'vitest';
import { type RunsPageRow, renderRunsPage } from '../../../../functions/core/render/html/runs-page.ts';
import { emptyState, type Incident, type IncidentState } from '../../../../functions/core/report/incident-state.ts';

function row(overrides: Partial<RunsPageRow> = {}): RunsPageRow {
  return {
    run_id: 'r-1',
    started_at: '2026-03-14T02:00:00.000Z',
    status: 'PASSED',
    pass_rate: 95.5,
    href: 'https://eu-west-1.console.aws.amazon.com/s3/object/b?prefix=reports%2Fbook%2Fr-1.html',
    ...overrides,
  };
}

function incident(overrides: Partial<Incident> = {}): Incident {
  const ref = { run_id: 'r-0', started_at: '2026-03-12T02:00:00.000Z', report: 's3://b/reports/book/r-0.json' };
  return {
    id: 'i-1',
    track: 'quality',
    opened: ref,
    last_seen: ref,
    severity: 'CRITICAL',
    breaches: [{ kind: 'pass_rate', severity: 'CRITICAL', summary: 'pass rate 40% < 90%' }],
    last_notified_at: '2026-03-12T02:10:00.000Z',
    clean_runs: 0,
    runs: 3,
    ...overrides,
  };
}

function page(runs: RunsPageRow[], incidents: IncidentState | null = emptyState('book', 'prod')): string {
  return renderRunsPage({
    collection: 'book',
    environment: 'prod',
    generated_at: '2026-03-14T02:05:00.000Z',
    runs,
    incidents,
  });
}

/** The rows of the runs table as [started, status, pass rate, link text]. */
function rows(markup: string): string[][] {
  const body = markup.split('<section id="runs">')[1] ?? '';
  return [
    ...body.matchAll(
      /<tr><td title="[^"]*">([^<]*)<\/td><td>(?:<span[^>]*>)?([^<]*)(?:<\/span>)?<\/td><td class="num">([^<]*)<\/td><td>(?:<a [^>]*>|<span[^>]*>)([^<]*)/g,
    ),
  ].map((m) => m.slice(1));
}

describe('renderRunsPage', () => {
  it('lists each run with its start, status, pass rate and a link to its report, in the order given', () => {
    const markup = page([
      row({ run_id: 'r-3', started_at: '2026-03-14T02:00:00.000Z', status: 'FAILED', pass_rate: 40 }),
      row({ run_id: 'r-2', started_at: '2026-03-13T02:00:00.000Z', status: 'ERROR', pass_rate: 0 }),
      row({ run_id: 'r-1', started_at: '2026-03-12T02:00:00.000Z', status: null, pass_rate: null, href: null }),
    ]);
    expect(rows(markup)).toEqual([
      ['2026-03-14 02:00', 'FAILED', '40%', 'r-3'],
      ['2026-03-13 02:00', 'ERROR', 'n/a', 'r-2'],
      ['2026-03-12 02:00', 'not recorded', 'n/a', 'none'],
    ]);
    expect(markup).toContain('<h1>prod/book: the last 3 run(s)</h1>');
    expect(markup).toContain('<header class="verdict failed">\n<div class="badge">FAILED</div>');
  });

  it('says n/a for an ERROR run whatever pass rate it carries, and shows a measured 0 % of a FAILED run', () => {
    const markup = page([row({ status: 'ERROR', pass_rate: 0 }), row({ status: 'FAILED', pass_rate: 0 })]);
    expect(rows(markup).map((r) => r[2])).toEqual(['n/a', '0%']);
  });

  it('links http(s) and relative report links, and no other scheme', () => {
    const hrefs = (href: string) => [...page([row({ href })]).matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs('2026-03-14T02-00-00-000Z_r-1.html')).toEqual(['2026-03-14T02-00-00-000Z_r-1.html']);
    expect(hrefs('https://console.example/x?a=1&b=2')).toEqual(['https://console.example/x?a=1&amp;b=2']);
    expect(hrefs('javascript:alert(1)')).toEqual(['#runs']);
    expect(hrefs('data:text/html,x')).toEqual(['#runs']);
  });

  it('says no run is on record when there is none', () => {
    const markup = page([]);
    expect(markup).toContain('<p class="muted">No run on record yet.</p>');
    expect(markup).toContain('<div class="badge">NO RUN</div>');
  });

  it('lists the open incidents with severity, track, since when, runs and what broke', () => {
    const state = emptyState('book', 'prod');
    state.open.quality = incident();
    state.open.infrastructure = incident({
      track: 'infrastructure',
      severity: 'HIGH',
      runs: 1,
      breaches: [{ kind: 'run_error', severity: 'HIGH', summary: 'Qdrant failed with 503' }],
    });
    const markup = page([row()], state);
    expect(markup).toContain('<h2>Open incidents (2)</h2>');
    expect(markup).toContain(
      '<tr><td class="sev critical">CRITICAL</td><td>quality</td><td title="2026-03-12T02:00:00.000Z">2026-03-12 02:00</td><td class="num">3</td><td>pass rate 40% &lt; 90%<br></td></tr>',
    );
    expect(markup).toContain('<td class="sev high">HIGH</td><td>infrastructure</td>');
  });

  it('says no incident is open, and says so apart from an incident state that could not be read', () => {
    expect(page([row()])).toContain('<h2>Open incidents: none</h2>');
    const unknown = page([row()], null);
    expect(unknown).toContain('open incidents unknown');
    expect(unknown).not.toContain('Open incidents: none');
  });

  it('escapes what runs and incidents say, and can make no request', () => {
    const state = emptyState('book', 'prod');
    state.open.quality = incident({ breaches: [{ kind: 'x', severity: 'LOW', summary: '<script>alert(1)</script>' }] });
    const markup = renderRunsPage({
      collection: '<b>book',
      environment: 'prod',
      generated_at: 'now',
      runs: [row({ run_id: '<img src=x onerror=alert(2)>' })],
      incidents: state,
    });
    expect(markup).not.toMatch(/<(script|img|link|iframe|object|embed|base)\b/i);
    expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(markup).toContain(
      '<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:; form-action &#39;none&#39;; base-uri &#39;none&#39;">',
    );
  });

  it('colours each status with its tag: pass, fail, error', () => {
    const markup = page([row({ status: 'PASSED' }), row({ status: 'FAILED' }), row({ status: 'ERROR' })]);
    expect([...markup.matchAll(/<span class="tag (\w+)">(\w+)<\/span>/g)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      'pass PASSED',
      'fail FAILED',
      'error ERROR',
    ]);
  });

  it('keeps an http link and a relative path holding a colon, and refuses a scheme further in', () => {
    const hrefs = (href: string) => [...page([row({ href })]).matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs('http://intranet/r-1.html')).toEqual(['http://intranet/r-1.html']);
    expect(hrefs('runs/2026-03-14T02:00_r-1.html')).toEqual(['runs/2026-03-14T02:00_r-1.html']);
    expect(hrefs('x javascript:alert(1)')).toEqual(['#runs']);
  });

  it('shows a start that is not an ISO time as it is', () => {
    expect(rows(page([row({ started_at: 'unknown' })]))[0]?.[0]).toBe('unknown');
    expect(rows(page([row({ started_at: 'x2026-03-14T02:00:00Z' })]))[0]?.[0]).toBe('x2026-03-14T02:00:00Z');
  });
});
