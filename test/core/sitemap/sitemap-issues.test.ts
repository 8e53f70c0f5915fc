import { describe, expect, it } from 'vitest';
import type { SitemapIssue } from '../../../functions/core/ports.ts';
import { sitemapIssueErrors, sitemapIssueNotes } from '../../../functions/core/sitemap/sitemap-issues.ts';

const ids = () => {
  let n = 0;
  return () => `e${++n}`;
};

describe('sitemapIssueErrors', () => {
  it('returns no error when the sitemap source had no issue', () => {
    expect(sitemapIssueErrors([], 'run', ids())).toEqual([]);
  });

  it('makes one HIGH SITEMAP_URL_REFUSED error per run naming the first refused URL', () => {
    // Prepare
    const issues: SitemapIssue[] = [
      {
        kind: 'refused',
        url: 'http://169.254.169.254/latest',
        message: 'index lists http://169.254.169.254/latest, which is refused',
      },
      { kind: 'refused', url: 'file:///etc/passwd', message: 'index lists file:///etc/passwd, which is refused' },
    ];

    // Act
    const errors = sitemapIssueErrors(issues, 'run', ids());

    // Assess
    expect(errors).toEqual([
      {
        id: 'e1',
        validation_id: 'run',
        error_type: 'SITEMAP_URL_REFUSED',
        severity: 'HIGH',
        message: '2 sitemap URL(s) refused: index lists http://169.254.169.254/latest, which is refused',
        details: {
          count: 2,
          urls: ['http://169.254.169.254/latest', 'file:///etc/passwd'],
          messages: issues.map((i) => i.message),
        },
      },
    ]);
  });

  it('makes a MEDIUM SITEMAP_TRUNCATED error when a cap cut the reading', () => {
    const errors = sitemapIssueErrors([{ kind: 'over_cap', url: 'https://b/s.xml', message: 'too big' }], 'run', ids());

    expect(errors).toEqual([
      expect.objectContaining({
        error_type: 'SITEMAP_TRUNCATED',
        severity: 'MEDIUM',
        message: '1 sitemap limit(s) reached: too big',
      }),
    ]);
  });

  it('lists at most 20 URLs in details however many were refused', () => {
    const issues = Array.from(
      { length: 21 },
      (_, i): SitemapIssue => ({ kind: 'refused', url: `u${i}`, message: 'm' }),
    );

    const [error] = sitemapIssueErrors(issues, 'run', ids());

    expect(error?.details).toMatchObject({ count: 21, urls: { length: 20 } });
  });
});

describe('sitemapIssueNotes', () => {
  it('notes the first five issues and how many more there were', () => {
    const issues = Array.from(
      { length: 6 },
      (_, i): SitemapIssue => ({ kind: 'over_cap', url: 'u', message: `m${i}` }),
    );

    expect(sitemapIssueNotes(issues)).toEqual([
      'm0',
      'm1',
      'm2',
      'm3',
      'm4',
      '… and 1 more sitemap issues (see errors)',
    ]);
  });
});
