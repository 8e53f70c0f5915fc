/**
 * What the sitemap source refused or cut short, as findings: SITEMAP_URL_REFUSED (HIGH) when it would not fetch or
 * keep a URL (another origin, another scheme, credentials), SITEMAP_TRUNCATED (MEDIUM) when a cap stopped the
 * reading, so coverage was computed on part of the sitemap. One error per kind, naming the first URL, with the
 * first messages in `details`: a hostile sitemap cannot flood the report.
 */
import type { SitemapIssue } from '../ports.ts';
import type { ValidationError } from '../report/findings.ts';

const LISTED_IN_DETAILS = 20;
const NOTED = 5;

const AS_ERROR = {
  refused: { error_type: 'SITEMAP_URL_REFUSED', severity: 'HIGH', what: 'sitemap URL(s) refused' },
  over_cap: { error_type: 'SITEMAP_TRUNCATED', severity: 'MEDIUM', what: 'sitemap limit(s) reached' },
} as const;

/** One ValidationError per kind of issue, naming the first URL at fault. */
export function sitemapIssueErrors(
  issues: readonly SitemapIssue[],
  runId: string,
  newId: () => string,
): ValidationError[] {
  return (['refused', 'over_cap'] as const).flatMap((kind) => {
    const ofKind = issues.filter((i) => i.kind === kind);
    const first = ofKind[0];
    if (first === undefined) return [];
    const { error_type, severity, what } = AS_ERROR[kind];
    return [
      {
        id: newId(),
        validation_id: runId,
        error_type,
        severity,
        message: `${ofKind.length} ${what}: ${first.message}`,
        details: {
          count: ofKind.length,
          urls: ofKind.slice(0, LISTED_IN_DETAILS).map((i) => i.url),
          messages: ofKind.slice(0, LISTED_IN_DETAILS).map((i) => i.message),
        },
      },
    ];
  });
}

/** The first issues as coverage notes, so the coverage section says on what it was computed. */
export function sitemapIssueNotes(issues: readonly SitemapIssue[]): string[] {
  const notes = issues.slice(0, NOTED).map((i) => i.message);
  if (issues.length > NOTED) notes.push(`… and ${issues.length - NOTED} more sitemap issues (see errors)`);
  return notes;
}
