/**
 * Secrets that come in where a user puts them: a token in SITEMAP_URL's query string (the run goes on; the token
 * must be in none of its outputs: every file or object written, the alerts, the metrics, stdout and stderr), and an
 * API key pasted with a character an HTTP header cannot carry (named, with its service, never quoted).
 */
import { type Case, common, expectExit, expectFinding, expectStatus } from './case.ts';
import type { Observed } from './drive.ts';
import { PASTED_KEY_SECRET, SECRETS, type World } from './world.ts';

const tokenUrl = (w: World) => `${w.sandbox.book.url}/sitemap-index.xml?token=${SECRETS.sitemapToken}`;

/** The URL reached the report (redacted), so the token's absence is redaction, not a URL that went nowhere. */
function expectRedactedSitemapUrl(o: Observed): string[] {
  const url = o.report?.coverage_report?.sitemap_url ?? '';
  return url.endsWith('/sitemap-index.xml?token=***') ? [] : [`coverage_report.sitemap_url is "${url}"`];
}

/** No trace of the pasted key: not its check mark, not the code the HTTP client would have quoted (10003). */
function expectNoKeyCharacter(o: Observed): string[] {
  const text = [o.stdout, o.stderr, JSON.stringify(o.report ?? ''), ...o.alertSubjects].join('\n');
  return /\u2713|10003/.test(text) ? ['a character of the pasted key (or its code) is in an output'] : [];
}

export const SECRET_CASES: Case[] = [
  {
    name: 'token in SITEMAP_URL query (CLI)',
    group: 'sitemap',
    expected: 'runs as on a normal night (exit 1, FAILED); the token in no output, every written file included',
    arrange: (w) => ({ surface: 'cli', env: { ...w.cliEnv(), SITEMAP_URL: tokenUrl(w) } }),
    check: (o) => [...common(o), ...expectExit(o, [1]), ...expectStatus(o, ['FAILED']), ...expectRedactedSitemapUrl(o)],
  },
  {
    name: 'token in SITEMAP_URL query (Lambda)',
    group: 'AWS',
    expected: 'returns; report stored, RunSucceeded 1, alert; the token in no S3 object, alert, metric or log line',
    arrange: (w) => ({ surface: 'lambda', env: { ...w.lambdaEnv(), SITEMAP_URL: tokenUrl(w) } }),
    check: (o) => [
      ...common(o),
      ...(o.outcome === 'returned' ? [] : [`the handler ${o.outcome}`]),
      ...expectStatus(o, ['FAILED']),
      ...(o.runSucceeded === 1 && o.alertSubjects.length > 0 ? [] : ['RunSucceeded 1 or the alert missing']),
      ...expectRedactedSitemapUrl(o),
    ],
  },
  {
    name: 'non-ASCII Cohere key in Secrets Manager',
    group: 'AWS',
    expected: 'returns; ERROR report naming the secret and Cohere, an alert; no character of the key',
    arrange: (w) => ({ surface: 'lambda', env: { ...w.lambdaEnv(), COHERE_SECRET_ID: PASTED_KEY_SECRET } }),
    check: (o) => [
      ...common(o),
      ...expectStatus(o, ['ERROR']),
      ...expectFinding(o, ['RUN_FAILED'], /secret ragwatch\/cohere-pasted: the Cohere API key holds 1 character/),
      ...(o.alertSubjects.some((s) => /^\[(MEDIUM|CRITICAL)\] .*run ERROR: secrets/.test(s))
        ? []
        : ['no alert naming the run ERROR']),
      ...expectNoKeyCharacter(o),
    ],
  },
  {
    name: 'non-ASCII COHERE_API_KEY (CLI)',
    group: 'Cohere',
    expected: 'refused at configuration (exit 2) naming COHERE_API_KEY and Cohere; no character of the key',
    arrange: (w) => ({ surface: 'cli', env: { ...w.cliEnv(), COHERE_API_KEY: SECRETS.pastedKey } }),
    check: (o) => [
      ...common(o),
      ...expectExit(o, [2]),
      ...(/COHERE_API_KEY: the Cohere API key holds 1 character/.test(o.stderr) ? [] : ['stderr does not name it']),
      ...expectNoKeyCharacter(o),
    ],
  },
];
