/**
 * Which URLs a sitemap may make ragwatch fetch, and which page URLs it may put in a report.
 *
 * A sitemap is content from the network: an index (or a redirect) pointing at another host would make the job
 * fetch anything reachable from where it runs (SSRF: cloud metadata, internal services) and copy that host's
 * answer into the report. So every sitemap fetch, each redirect hop included, must be http(s), carry no
 * credentials and be on an allowed origin: the origin of SITEMAP_URL, of DOCUSAURUS_BASE_URL, and those listed in
 * SITEMAP_ALLOWED_ORIGINS. An https upgrade of an allowed http origin (same host and port) is allowed too.
 * Page URLs (<loc> in a urlset) are never fetched, only compared: they must be http(s) without credentials and
 * shorter than the protocol's 2,048 characters, but may be on any host (Docusaurus writes the production host
 * into a sitemap served from anywhere).
 */
import { truncate } from '../../core/shared/errors.ts';

/** The Sitemaps protocol: a <loc> must be less than 2,048 characters. */
const MAX_LOC_CHARS = 2047;

/** A URL with any user:password@ part masked, cut to a readable length: safe for a message or a report. */
export function shownUrl(url: string): string {
  return truncate(url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@'), 300);
}

/** Why a sitemap URL may not be fetched, or null when it may. */
export function fetchRefusal(url: string, allowedOrigins: ReadonlySet<string>): string | null {
  const problem = urlProblem(url);
  if (problem) return problem;
  const parsed = new URL(url);
  if (allowedOrigins.has(parsed.origin)) return null;
  if (parsed.protocol === 'https:' && allowedOrigins.has(`http://${parsed.host}`)) return null;
  return `not on an allowed origin (${[...allowedOrigins].join(', ')}); list it in SITEMAP_ALLOWED_ORIGINS to follow it`;
}

/** Why a page <loc> is left out of the listing, or null when it is kept. */
export function pageRefusal(loc: string): string | null {
  if (loc.length > MAX_LOC_CHARS) return `longer than the protocol's ${MAX_LOC_CHARS + 1} characters`;
  return urlProblem(loc);
}

/** The origins a sitemap may be fetched from, from the configured URLs and the allow-list. */
export function allowedOriginsOf(urls: (string | undefined)[]): Set<string> {
  const origins = new Set<string>();
  for (const url of urls) {
    if (url === undefined || url === '') continue;
    try {
      origins.add(new URL(url).origin);
    } catch {
      // configuration has already refused a bad URL; nothing to allow here
    }
  }
  return origins;
}

function urlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `not http(s) (${parsed.protocol})`;
  if (parsed.username !== '' || parsed.password !== '') return 'carries credentials (user:password@)';
  return null;
}
