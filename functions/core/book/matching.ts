/**
 * How the suite's expectations are compared with what the index returns: module and chapter names written by
 * people against payload values written by an indexer, and URLs, paths or doc files against source URLs.
 * Every comparison goes through one normalisation, so coverage, relevance and IR metrics agree.
 */
import { moduleKey, moduleSlugOf } from './module-name.ts';

/**
 * True when the expected module names the payload's module_name, or the first segment of its chapter_id (the
 * module folder, or a top-level page's own id), compared by key (module-name.ts).
 */
export function matchesModule(expected: string, payloadModuleName: string | null, chapterId?: string | null): boolean {
  const wanted = moduleKey(expected);
  // An expectation with no letters or digits would otherwise equal every empty payload value.
  if (wanted === '') return false;
  if (payloadModuleName !== null && moduleKey(payloadModuleName) === wanted) return true;
  return moduleKey(moduleSlugOf(chapterId ?? '')) === wanted;
}

/** True when the expected chapter is the chapter_id or its trailing segments ("ch1-ros2-basics" matches "module-1-ros2/ch1-ros2-basics"). */
export function matchesChapter(expected: string, chapterId: string | null): boolean {
  if (chapterId === null) return false;
  const want = splitSegments(stripDocExtension(expected)).map(moduleKey);
  const have = splitSegments(stripDocExtension(chapterId)).map(moduleKey);
  // Either side may omit the module folder; the shorter must be the tail of the longer.
  const [short, long] = want.length <= have.length ? [want, have] : [have, want];
  return short.length > 0 && endsWithSegments(long, short);
}

/**
 * The answers normaliseUrl gave, by the string it was given, with urlPath's once asked. A run normalises each
 * sitemap page and indexed URL about a dozen times (coverage, stale expectations, freshness, each through
 * pagesUnderPrefix and urlPath), and parsing a URL is most of what those checks cost (issue 20's CPU profile: 5,000
 * pages, 70,000 calls); reading the path out of the normalised URL again each time allocated a match per call. A
 * cached answer is the answer: both functions depend on their argument alone. Bounded in entries and in length (a
 * 2 KB URL is not kept), and emptied when full, so a warm Lambda holds at most a few MB of it between runs.
 */
interface Answers {
  normalised: string;
  path: string | undefined;
}
const remembered = new Map<string, Answers>();
const MAX_REMEMBERED = 20_000;
const MAX_REMEMBERED_LENGTH = 256;

/** Canonical form of a URL: scheme and host lowercased, no fragment or query, no index.html, no trailing slash but the root's. Non-URLs are treated as paths. */
export function normaliseUrl(url: string): string {
  return answersFor(url).normalised;
}

/** How many answers normaliseUrl holds now: what a warm Lambda keeps between runs (its bound is tested). */
export function rememberedUrls(): number {
  return remembered.size;
}

function answersFor(url: string): Answers {
  if (url.length > MAX_REMEMBERED_LENGTH) return { normalised: normaliseOnce(url), path: undefined };
  const known = remembered.get(url);
  if (known !== undefined) return known;
  const answers = { normalised: normaliseOnce(url), path: undefined };
  if (remembered.size >= MAX_REMEMBERED) remembered.clear();
  remembered.set(url, answers);
  return answers;
}

function normaliseOnce(url: string): string {
  const trimmed = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return normalisePath(trimmed);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return trimmed;
  // URL already lowercases scheme and host and drops default ports.
  const normalised = `${parsed.protocol}//${parsed.host}${normalisePath(parsed.pathname)}`;
  // A URL already in canonical form (most are) stays the string it was, not an equal copy: 50,000 sitemap URLs of
  // 2 KB are then held once, not once per list built from them.
  return normalised === trimmed ? trimmed : normalised;
}

/** The normalised path of a URL ("/docs/intro"); a path given alone is normalised the same way. */
export function urlPath(url: string): string {
  const answers = answersFor(url);
  answers.path ??= pathOf(answers.normalised);
  return answers.path;
}

function pathOf(normalised: string): string {
  const match = /^https?:\/\/[^/]+(\/.*)$/.exec(normalised);
  return match?.[1] ?? normalised;
}

/**
 * True when an expected source names this source URL. A full URL must equal it (after normalisation); a path
 * ("/docs/intro") or a doc id or file ("ch1-ros2-basics", "module-1-ros2/ch1-ros2-basics.md") must be its trailing
 * path segments, so a book served under a base path (/my-book/docs/intro) still matches.
 */
export function matchesSource(expected: string, sourceUrl: string | null): boolean {
  if (sourceUrl === null) return false;
  return matchesPrepared(prepareExpected(expected), prepareSource(sourceUrl));
}

/** An expected source, read once (matchesSource's rules), to test against many source URLs. */
export type PreparedExpected =
  | { kind: 'url'; normalised: string }
  | { kind: 'path'; segments: string[] }
  | { kind: 'doc'; segments: string[]; unprefixed: string[] };

/** A source URL, normalised once, to test many expectations against. */
export interface PreparedSource {
  normalised: string;
  /** Its normalised path (urlPath). */
  path: string;
  segments: string[];
  lowerSegments: string[];
}

export function prepareExpected(expected: string): PreparedExpected {
  const want = expected.trim();
  if (/^https?:\/\//i.test(want)) return { kind: 'url', normalised: normaliseUrl(want) };
  if (want.startsWith('/')) return { kind: 'path', segments: splitSegments(urlPath(want)) };
  // Doc ids and file names are written by people: compare them case-insensitively, with Docusaurus's number prefix optional.
  const segments = splitSegments(stripDocExtension(want).toLowerCase());
  if (segments.length > 1 && segments.at(-1) === 'index') segments.pop();
  return { kind: 'doc', segments, unprefixed: segments.map((s) => s.replace(/^\d+[-_.]/, '')) };
}

export function prepareSource(sourceUrl: string): PreparedSource {
  const normalised = normaliseUrl(sourceUrl);
  const path = pathOf(normalised);
  const segments = splitSegments(path);
  return { normalised, path, segments, lowerSegments: segments.map((s) => s.toLowerCase()) };
}

/** matchesSource on prepared sides: what a loop over many URLs calls, so nothing is normalised twice. */
export function matchesPrepared(expected: PreparedExpected, source: PreparedSource): boolean {
  switch (expected.kind) {
    case 'url':
      return expected.normalised === source.normalised;
    case 'path':
      return expected.segments.length > 0 && endsWithSegments(source.segments, expected.segments);
    case 'doc':
      return (
        expected.segments.length > 0 &&
        (endsWithSegments(source.lowerSegments, expected.segments) ||
          endsWithSegments(source.lowerSegments, expected.unprefixed))
      );
  }
}

function normalisePath(path: string): string {
  const bare = path.replace(/[?#].*$/, '').replace(/\/{2,}/g, '/');
  const withoutIndex = bare.replace(/(^|\/)index\.html?$/i, '$1');
  const withoutSlash = withoutIndex.length > 1 ? withoutIndex.replace(/\/+$/, '') : withoutIndex;
  return withoutSlash === '' ? '/' : withoutSlash;
}

function stripDocExtension(value: string): string {
  return value.trim().replace(/\.mdx?$/i, '');
}

function splitSegments(path: string): string[] {
  return path.split('/').filter((s) => s !== '');
}

function endsWithSegments(long: string[], tail: string[]): boolean {
  if (tail.length > long.length) return false;
  const offset = long.length - tail.length;
  return tail.every((segment, i) => long[offset + i] === segment);
}
