/**
 * A synthetic book at any scale, deterministic from its size: points with the payload the indexer writes
 * (small vectors, since only the scans' cost matters and exact search over 1,024 dims would measure the stand-in),
 * the matching sitemap, and golden queries drawn from the sample book's own vocabulary.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pageVersionKey } from '../functions/core/book/payload.ts';
import { SAMPLE_BOOK_BASE_URL, SAMPLE_BOOK_DIR } from '../sandbox/book-server.ts';
import type { PointInput } from '../sandbox/qdrant/index.ts';

/** Distinct pages (source_url values): a large documentation site. The same at every P, so state can be compared. */
export const SYNTHETIC_PAGES = 5_000;
/** One page in this many is left out of the sitemap, so coverage has something to find. */
const PAGE_MISSING_FROM_SITEMAP_EVERY = 500;
/** One point in this many lacks chapter_id, as an older ingestion would leave it. */
const POINT_WITHOUT_CHAPTER_EVERY = 997;
const MODULES = 8;
const CHAPTERS = 12;
const SECTIONS = 40;
const TEXT_POOL = 256;

/** The page a point belongs to, and its URL; pages take points round-robin so every page exists once P >= pages. */
export function pageUrl(page: number): string {
  return `${SAMPLE_BOOK_BASE_URL}/docs/module-${(page % MODULES) + 1}/page-${page}`;
}

/** The sitemap of the synthetic book: every page but one in PAGE_MISSING_FROM_SITEMAP_EVERY. */
export function syntheticSitemapXml(pages = SYNTHETIC_PAGES): string {
  const urls: string[] = [];
  for (let page = 0; page < pages; page++) {
    if (page % PAGE_MISSING_FROM_SITEMAP_EVERY !== PAGE_MISSING_FROM_SITEMAP_EVERY - 1)
      urls.push(`<url><loc>${pageUrl(page)}</loc></url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Yields the collection's points in batches (ids 1..total, ascending, so the stand-in needs no sort). */
export function* syntheticPoints(options: {
  total: number;
  dimensions: number;
  batchSize?: number;
}): Generator<PointInput[]> {
  const { total, dimensions } = options;
  const batchSize = options.batchSize ?? 10_000;
  const random = mulberry32(total);
  const texts = textPool();
  const pages = pageFields(total);
  for (let start = 0; start < total; start += batchSize) {
    const count = Math.min(batchSize, total - start);
    const vectors = new Float32Array(count * dimensions);
    for (let i = 0; i < vectors.length; i++) vectors[i] = random() * 2 - 1;
    const batch: PointInput[] = [];
    for (let k = 0; k < count; k++) {
      const i = start + k;
      batch.push({
        id: i + 1,
        vector: vectors.subarray(k * dimensions, (k + 1) * dimensions),
        payload: syntheticPayload(i, texts, pages),
      });
    }
    yield batch;
  }
}

/** When every synthetic point was indexed: one run wrote them all. */
const SYNTHETIC_INDEXED_AT = '2026-11-20T02:00:00.000Z';

/** Per page, its hash and version keyword as the indexer writes them, one string shared by the page's points. */
function pageFields(total: number): { pageHash: string; pageVersion: string }[] {
  return Array.from({ length: Math.min(total, SYNTHETIC_PAGES) }, (_, page) => {
    const pageHash = `page-${page}-v1`;
    // Points take pages round-robin, so page p holds the points p, p + pages, p + 2 pages, ...
    const chunks = Math.floor((total - 1 - page) / SYNTHETIC_PAGES) + 1;
    return { pageHash, pageVersion: pageVersionKey(pageUrl(page), pageHash, chunks) };
  });
}

function syntheticPayload(
  i: number,
  texts: readonly string[],
  pages: readonly { pageHash: string; pageVersion: string }[],
): Record<string, unknown> {
  const page = i % SYNTHETIC_PAGES;
  const module = `Module ${(page % MODULES) + 1}`;
  const payload: Record<string, unknown> = {
    chunk_text: texts[i % texts.length],
    source_url: pageUrl(page),
    chapter_id: `ch${(page % CHAPTERS) + 1}`,
    module_name: module,
    heading_hierarchy: [module, `Section ${page % SECTIONS}`],
    // A spread of 460 distinct values, like real chunk sizes; the same hash at every P.
    token_count: 40 + ((Math.imul(i + 1, 2_654_435_761) >>> 0) % 460),
    chunk_index: Math.floor(i / SYNTHETIC_PAGES),
    indexed_at: SYNTHETIC_INDEXED_AT,
    page_hash: pages[page]?.pageHash,
    page_version: pages[page]?.pageVersion,
    model_version: 'embed-english-v3.0',
  };
  if (i % POINT_WITHOUT_CHAPTER_EVERY === POINT_WITHOUT_CHAPTER_EVERY - 1) delete payload.chapter_id;
  return payload;
}

/** Content words of the sample book (lowercase, 4+ letters), sorted and distinct. */
function sampleBookVocabulary(): string[] {
  const words = new Set<string>();
  for (const file of markdownFiles(path.join(SAMPLE_BOOK_DIR, 'docs'))) {
    const body = readFileSync(file, 'utf8').replace(/^---[\s\S]*?---/, '');
    for (const word of body.toLowerCase().match(/\b[a-z]{4,}\b/g) ?? []) if (!COMMON.has(word)) words.add(word);
  }
  return [...words].sort();
}

/** `count` golden queries in the suite format, built from the book's words; the same count gives the same suite. */
export function generateSuite(count: number): { name: string; queries: { id: string; query_text: string }[] } {
  const vocabulary = sampleBookVocabulary();
  const random = mulberry32(count);
  const pick = () => vocabulary[Math.floor(random() * vocabulary.length)] ?? 'robot';
  const queries = Array.from({ length: count }, (_, i) => ({
    id: `q${String(i + 1).padStart(4, '0')}`,
    query_text: `How does ${pick()} work with ${pick()} and ${pick()}?`,
  }));
  return { name: `generated-${count}`, queries };
}

function textPool(): string[] {
  const vocabulary = sampleBookVocabulary();
  const random = mulberry32(TEXT_POOL);
  return Array.from({ length: TEXT_POOL }, () =>
    Array.from({ length: 60 }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' '),
  );
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

// Frequent function words of four letters or more: a query made of them would say nothing.
const COMMON = new Set(
  'that this with from they them their there these those what when where which while have been were will would could should into than then also each such only other more most some very your just like does done here over'.split(
    ' ',
  ),
);

/** A small, fast, seedable PRNG (mulberry32), so every run builds the same data. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
