/**
 * Hostile and broken sitemaps, through the real CLI: each must end in a report (never an abort), within bounded
 * memory, without fetching another origin or any non-http scheme, and without leaking a URL's password.
 */
import { type Case, common, expectExit, expectExitOfStatus, expectRssUnder, expectWithin, findings } from './case.ts';
import type { Observed } from './drive.ts';
import { LONG_URLS } from './hostile-sitemaps.ts';
import { SECRETS, type World } from './world.ts';

/** A sitemap finding of one of these types (the report's own words for what was wrong with the sitemap). */
function expectSitemapFinding(o: Observed, types: string[]): string[] {
  return findings(o).some((f) => types.some((t) => f.startsWith(`${t}:`))) ? [] : [`no ${types.join('/')} finding`];
}

function neverFetchedOther(world: World, before: number): string[] {
  const after = world.sitemaps.otherOriginRequests();
  return after === before ? [] : [`the other origin was fetched ${after - before} time(s)`];
}

/**
 * Every sitemap row: a report, exit 1 (the sample breaches anyway) or 4 when the sitemap could not be read (ERROR), no secret, < 60 s, and the whole CLI process
 * under 400 MB: a capped sitemap still puts up to 50,000 missing URLs in the report, which the process holds.
 */
function sitemapCase(
  name: string,
  file: string,
  expected: string,
  extra: (o: Observed, w: World, before: number) => string[],
): Case {
  let before = 0;
  return {
    name,
    group: 'sitemap',
    expected: `${expected}; a report, exit 1 (FAILED) or 4 (ERROR), < 60 s, peak RSS < 400 MB`,
    arrange: (w) => {
      before = w.sitemaps.otherOriginRequests();
      return { surface: 'cli', env: { ...w.cliEnv(), SITEMAP_URL: w.sitemaps.url(file) } };
    },
    check: (o, w) => [
      ...common(o),
      ...expectExitOfStatus(o),
      ...(o.report === null ? ['no report written'] : []),
      ...expectWithin(o, 60),
      ...expectRssUnder(o, 400),
      ...extra(o, w, before),
    ],
  };
}

export const SITEMAP_CASES: Case[] = [
  sitemapCase('sitemap 404', 'missing.xml', 'SITEMAP_FAILED naming the 404', (o) =>
    expectSitemapFinding(o, ['SITEMAP_FAILED']),
  ),
  sitemapCase('sitemap malformed XML', 'malformed.xml', 'SITEMAP_FAILED: not well-formed', (o) =>
    expectSitemapFinding(o, ['SITEMAP_FAILED']),
  ),
  sitemapCase('sitemap empty', 'empty.xml', 'coverage 0 % with a note, no crash', (o) =>
    o.report?.coverage_report?.coverage_percentage === 0 ? [] : ['coverage is not 0 %'],
  ),
  sitemapCase('sitemap index that lists itself', 'loop.xml', 'the loop is not followed: fetched once', (_o, w) =>
    w.sitemaps.requests('loop.xml') === 1 ? [] : [`loop.xml fetched ${w.sitemaps.requests('loop.xml')} times`],
  ),
  sitemapCase(
    'sitemap index three levels deep',
    'deep.xml',
    'nesting past the protocol’s one level is a finding',
    (o) => expectSitemapFinding(o, ['SITEMAP_FAILED', 'SITEMAP_TRUNCATED', 'SITEMAP_URL_REFUSED']),
  ),
  sitemapCase('sitemap of 200 MB', 'huge.xml', 'read up to the 50 MB cap: SITEMAP_TRUNCATED', (o) =>
    expectSitemapFinding(o, ['SITEMAP_TRUNCATED']),
  ),
  sitemapCase('sitemap gzip bomb (1 MB -> 1 GB)', 'bomb.xml.gz', 'decompression stops at the cap', (o) =>
    expectSitemapFinding(o, ['SITEMAP_TRUNCATED', 'SITEMAP_FAILED']),
  ),
  sitemapCase('sitemap of 60,000 URLs', 'many.xml', 'kept up to 50,000: SITEMAP_TRUNCATED', (o) =>
    expectSitemapFinding(o, ['SITEMAP_TRUNCATED']),
  ),
  sitemapCase('sitemap index child on another host', 'other-host-child.xml', 'refused, never fetched', (o, w, b) => [
    ...expectSitemapFinding(o, ['SITEMAP_URL_REFUSED']),
    ...neverFetchedOther(w, b),
  ]),
  sitemapCase('sitemap redirect to another host', 'redirect.xml', 'the hop is refused, never fetched', (o, w, b) => [
    ...expectSitemapFinding(o, ['SITEMAP_URL_REFUSED', 'SITEMAP_FAILED']),
    ...neverFetchedOther(w, b),
  ]),
  sitemapCase('sitemap locs that are not http(s)', 'non-http.xml', 'file:, ftp:, gopher: refused', (o) => [
    ...expectSitemapFinding(o, ['SITEMAP_URL_REFUSED']),
    ...(JSON.stringify(o.report).includes('/etc/passwd') && !findings(o).some((f) => f.includes('/etc/passwd'))
      ? ['file:///etc/passwd reached the coverage']
      : []),
  ]),
  sitemapCase('sitemap entity bomb (billion laughs)', 'entities.xml', 'entities refused, not expanded', (o) => [
    ...expectSitemapFinding(o, ['SITEMAP_FAILED']),
    ...(JSON.stringify(o.report).includes('lollollol') ? ['an entity was expanded'] : []),
  ]),
  {
    // Issue 19 §1: the report with every URL list was 52-100 MB and the process went past the function's 512 MB.
    name: 'sitemap of 50,000 URLs of 2 KB, none indexed (Lambda)',
    group: 'sitemap',
    expected:
      'returns; report stored with the first 100 URLs of each list and the whole counts (under 2 MB), every URL in its .urls.json.gz, RunSucceeded 1, an alert; peak RSS < 400 MB (unbundled; bundled: bench "huge URL lists", 300 MB)',
    arrange: (w) => ({ surface: 'lambda', env: { ...w.lambdaEnv(), SITEMAP_URL: w.sitemaps.url('long-urls.xml') } }),
    check: (o) => {
      const need = (cond: boolean, what: string) => (cond ? [] : [what]);
      const coverage = o.report?.coverage_report;
      const dated = [...o.objects.keys()].find((k) => /\/\d{4}\/\d{2}\/\d{2}\/[^/]+\.json$/.test(k));
      const lists = dated === undefined ? undefined : o.objects.get(dated.replace(/\.json$/, '.urls.json.gz'));
      const full = lists === undefined ? null : (JSON.parse(lists) as { missing_urls?: string[] });
      return [
        ...common(o),
        ...need(o.outcome === 'returned', `the handler ${o.outcome}${o.threw ? `: ${o.threw}` : ''}`),
        ...need(coverage?.missing_count === LONG_URLS, `missing_count ${coverage?.missing_count}, not ${LONG_URLS}`),
        ...need(coverage?.missing_urls.length === 100, `${coverage?.missing_urls.length} missing URLs listed, not 100`),
        ...need(coverage?.full_url_lists === '.urls.json.gz', 'full_url_lists does not name the .urls.json.gz'),
        ...need(
          full?.missing_urls?.length === LONG_URLS,
          `the .urls.json.gz holds ${full?.missing_urls?.length} missing URLs`,
        ),
        ...need(
          dated !== undefined && (o.objects.get(dated)?.length ?? Infinity) < 2 * 1024 * 1024,
          `the stored report is ${o.objects.get(dated ?? '')?.length} characters`,
        ),
        ...need(o.runSucceeded === 1, 'RunSucceeded not sent'),
        ...need(o.alertSubjects.length > 0, 'no alert'),
        ...expectRssUnder(o, 400),
      ];
    },
  },
  {
    name: 'credentials in SITEMAP_URL',
    group: 'sitemap',
    expected: 'refused at configuration (exit 2) or redacted everywhere: the password in no output',
    arrange: (w) => {
      const url = new URL(w.sitemaps.url('sitemap.xml'));
      url.username = 'ops';
      url.password = SECRETS.sitemapPassword;
      return { surface: 'cli', env: { ...w.cliEnv(), SITEMAP_URL: url.toString() } };
    },
    check: (o) => [...common(o), ...expectExit(o, [1, 2])],
  },
];
