/**
 * "Act on this first": the top of the report at 3 a.m. The run's findings grouped by type (twelve LOW_RELEVANCE
 * queries are one thing to do, not twelve), most severe first, each with one line of what to do and the docs section
 * that explains it (finding-actions.ts), so the first CRITICAL finding is on the first screen, not 6,000 px down.
 */
import { type ErrorType, SEVERITIES, type Severity, type ValidationError, worstFirst } from '../../report/findings.ts';
import type { ValidationReport } from '../../report/report.ts';
import { FINDING_ACTIONS } from '../finding-actions.ts';
import { cut, html, type Markup } from './escape.ts';

/** Groups shown; the rest are a line pointing at the findings table. */
export const ACT_FIRST_LIMIT = 5;

export interface FindingGroup {
  type: ErrorType;
  /** The most severe of the group. */
  severity: Severity;
  findings: ValidationError[];
}

/**
 * The findings by type, most severe first, then the largest group. A breached criterion is the consequence of the
 * other findings and has its own row in the criteria table just below, so it is listed only when nothing else is.
 */
export function groupFindings(errors: readonly ValidationError[]): FindingGroup[] {
  const byType = new Map<ErrorType, ValidationError[]>();
  for (const e of errors) byType.set(e.error_type, [...(byType.get(e.error_type) ?? []), e]);
  const groups = [...byType].map(([type, findings]) => {
    const sorted = [...findings].sort(worstFirst);
    return { type, severity: (sorted[0] as ValidationError).severity, findings: sorted };
  });
  const causes = groups.filter((g) => g.type !== 'CRITERION_BREACHED');
  return (causes.length > 0 ? causes : groups).sort(
    (a, b) => worstFirst(a, b) || b.findings.length - a.findings.length || a.type.localeCompare(b.type),
  );
}

/** The section. `docsRoot` is where README.md and docs/ are (a URL); without it the docs path is shown as text. */
export function renderActFirst(report: ValidationReport, docsRoot?: string): Markup {
  const groups = groupFindings(report.errors);
  if (groups.length === 0)
    return html`<section id="act-first" class="act"><h2>Act on this first</h2><p>Nothing: no finding in this run${report.status === 'PASSED' ? ', every criterion holds' : ''}.</p></section>`;
  const shown = groups.slice(0, ACT_FIRST_LIMIT);
  const rest = groups.length - shown.length;
  return html`<section id="act-first" class="act"><h2>Act on this first</h2>
<ol class="actions">${shown.map((g) => renderGroup(report, g, docsRoot))}</ol>
${rest > 0 ? html`<p class="muted">${rest} more kind(s) of finding under <a href="#errors">Findings</a>.</p>` : ''}
</section>`;
}

function renderGroup(report: ValidationReport, g: FindingGroup, docsRoot: string | undefined): Markup {
  const first = g.findings[0] as ValidationError;
  const what = FINDING_ACTIONS[g.type];
  return html`<li><span class="sev ${g.severity.toLowerCase()}">${g.severity}</span> <b>${g.type}</b> <span class="muted">· ${whom(report, g)}</span>
<div class="what">${cut(first.message, 220)}</div>
<div class="do"><b>Do:</b> ${what.action} ${docsLink(what.doc, docsRoot)} · <a href="#${reportSection(report, g.type)}">details</a></div></li>`;
}

/**
 * Whom the group is about. The badge is the group's worst severity; when its findings differ in severity, the count
 * says how many are of which, worst first as the findings table and the CLI list them ("2 findings: 1 HIGH
 * (missing-module), 1 MEDIUM (stale-expectation)"), so a MEDIUM finding is not read as HIGH.
 */
function whom(report: ValidationReport, g: FindingGroup): string {
  const subjects = (fs: readonly ValidationError[]) => [
    ...new Set(fs.map((f) => (f.validation_id === report.run_id ? 'run' : f.validation_id))),
  ];
  const severities = SEVERITIES.filter((s) => g.findings.some((f) => f.severity === s));
  if (severities.length > 1) {
    const parts = severities.map((s) => {
      const of = g.findings.filter((f) => f.severity === s);
      const about = subjects(of);
      return `${of.length} ${s} (${cut(about.slice(0, 3).join(', '), 60)}${about.length > 3 ? ', …' : ''})`;
    });
    return `${g.findings.length} findings: ${parts.join(', ')}`;
  }
  const about = subjects(g.findings);
  if (g.findings.length === 1) return about[0] as string;
  return `${g.findings.length} findings: ${cut(about.slice(0, 4).join(', '), 80)}${about.length > 4 ? ', …' : ''}`;
}

/** The docs section as a link under `docsRoot` (http(s) or file: set by whoever renders, never from the report). */
function docsLink(doc: string, docsRoot: string | undefined): Markup {
  if (docsRoot === undefined || !/^(https?|file):/i.test(docsRoot))
    return html`<span class="muted">docs: ${doc.replace('#', ' § ')}</span>`;
  return html`<a class="docs" href="${`${docsRoot.replace(/\/+$/, '')}/${doc}`}" title="${doc}" rel="noopener noreferrer" target="_blank">docs: ${doc.split('#')[0]}</a>`;
}

/** The part of this report that holds the finding's detail; the findings table when that part is absent. */
function reportSection(report: ValidationReport, type: ErrorType): string {
  if (['COVERAGE_GAP', 'ORPHAN_URLS', 'SITEMAP_TRUNCATED', 'SITEMAP_URL_REFUSED'].includes(type)) return 'coverage';
  if (type === 'INCOMPLETE_METADATA' || type === 'SMALL_CHUNKS') return 'quality';
  if (
    [
      'STALE_CHUNKS',
      'MISSING_CHUNKS',
      'STALE_PAGES',
      'MIXED_MODELS',
      'EMBEDDING_DRIFT',
      'ANN_RECALL_LOW',
      'FILTER_VIOLATION',
    ].includes(type)
  )
    return report.index_health ? 'index-health' : 'errors';
  if (['NO_RELEVANT_DOCUMENTS', 'UNSUPPORTED_CLAIM'].includes(type))
    return report.grounding_report ? 'grounding' : 'errors';
  if (type === 'CRITERION_BREACHED') return 'criteria';
  if (
    [
      'LOW_RELEVANCE',
      'METADATA_MISMATCH',
      'MISSING_EXPECTED_SOURCE',
      'LOW_PRECISION',
      'LATENCY_EXCEEDED',
      'NO_RESULTS',
      'UNEXPECTED_MATCH',
      'CATEGORY_EXPECTATION_MISSED',
    ].includes(type)
  )
    return 'queries';
  return 'errors';
}
