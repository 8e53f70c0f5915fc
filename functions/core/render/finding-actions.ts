/**
 * What to do about each kind of finding, in one line, and where the docs explain it: what the HTML report's "Act on
 * this first" says at 3 a.m. A Record over every error type, so a new type does not compile until it has its line;
 * test/core/render/finding-actions.test.ts checks that every docs target (file and heading anchor) exists.
 */
import type { ErrorType } from '../report/findings.ts';

export interface FindingAction {
  /** One line, an imperative: what the person on call does first. */
  action: string;
  /** The docs section, relative to the repository root: `README.md#anchor` or `docs/FILE.md#anchor`. */
  doc: string;
}

const SUITE = 'README.md#the-suite-format';
const INDEXING = 'README.md#indexing-and-what-each-point-carries';
const INDEX_HEALTH = 'README.md#index-health-the-rot-coverage-and-completeness-cannot-see';
const SITEMAPS = 'README.md#sitemaps-are-untrusted-input';
const SERVICES = 'docs/DEPLOY.md#when-something-fails';
const LYING_INDEX = 'docs/RELIABILITY.md#4-an-index-that-lies-is-not-believed';

export const FINDING_ACTIONS: Readonly<Record<ErrorType, FindingAction>> = {
  LOW_RELEVANCE: {
    action:
      'Open the query: if its expected page changed, re-index it (ragwatch index); if not, recalibrate its min_similarity (ragwatch calibrate).',
    doc: SUITE,
  },
  METADATA_MISMATCH: {
    action:
      'Compare the expected module or chapter with the hits’: fix the suite if the book moved the page, else re-index.',
    doc: 'README.md#module-and-chapter-names',
  },
  MISSING_EXPECTED_SOURCE: {
    action:
      'Check the expected page is still in the sitemap and indexed: re-index it, or update expected_sources if it moved.',
    doc: SUITE,
  },
  LOW_PRECISION: {
    action: 'Too few top hits are relevant: read the hits; re-index the page, or update stale relevance judgments.',
    doc: SUITE,
  },
  LATENCY_EXCEEDED: {
    action: 'Check Qdrant’s and Cohere’s latency on the dashboard before raising max_latency_ms.',
    doc: SUITE,
  },
  NO_RESULTS: {
    action: 'Check the collection holds points and the query’s filters name values the index has.',
    doc: SUITE,
  },
  UNEXPECTED_MATCH: {
    action: 'An out-of-domain probe matched: read the hit; off-topic pages may have been indexed (see orphans).',
    doc: SUITE,
  },
  TIMEOUT: {
    action: 'A service hung past the run’s deadline: check the service named; this is an outage, not index quality.',
    doc: 'docs/RELIABILITY.md#1-one-deadline-per-run',
  },
  RATE_LIMITED: {
    action: 'Check the API key’s quota and rate limit (a trial key is low), or move the schedule.',
    doc: 'docs/RELIABILITY.md#3-exact-retries-and-honest-messages',
  },
  RETRIEVAL_FAILED: {
    action: 'Check QDRANT_URL, the Qdrant API key and that the collection exists: the index was not judged.',
    doc: SERVICES,
  },
  EMBEDDING_FAILED: {
    action: 'Check COHERE_API_KEY, EMBEDDING_MODEL and Cohere’s status: no query could be judged without it.',
    doc: SERVICES,
  },
  DIMENSION_MISMATCH: {
    action: 'Set EMBEDDING_MODEL to the model the index was built with, or re-index with --recreate.',
    doc: LYING_INDEX,
  },
  MODEL_MISMATCH: {
    action: 'Set EMBEDDING_MODEL to the index’s model, or re-index the points of the other model.',
    doc: INDEXING,
  },
  SITEMAP_FAILED: {
    action: 'Open SITEMAP_URL yourself: the site is down or the URL is wrong; coverage was not computed.',
    doc: SITEMAPS,
  },
  SITEMAP_URL_REFUSED: {
    action: 'Add the refused origin to SITEMAP_ALLOWED_ORIGINS if it is yours; else the sitemap points off-site.',
    doc: SITEMAPS,
  },
  SITEMAP_TRUNCATED: {
    action: 'The sitemap is over the protocol’s limits: point SITEMAP_URL at the book’s own sitemap.',
    doc: SITEMAPS,
  },
  COVERAGE_GAP: {
    action: 'Re-index the book (ragwatch index): the pages missing are listed under Coverage.',
    doc: INDEXING,
  },
  ORPHAN_URLS: {
    action: 'Re-index with --prune to delete the pages no longer in the sitemap.',
    doc: INDEXING,
  },
  SMALL_CHUNKS: {
    action: 'Chunks are small (median under 100 tokens): check the indexer’s chunking before re-indexing.',
    doc: 'README.md#the-report',
  },
  INCOMPLETE_METADATA: {
    action: 'Re-index with the current indexer: the fields missing are listed under Metadata quality.',
    doc: INDEXING,
  },
  CRITERION_BREACHED: {
    action: 'Read the findings that explain the breach; change a threshold only after ragwatch calibrate.',
    doc: 'docs/DATA-MODEL.md#the-runs-status',
  },
  CATEGORY_EXPECTATION_MISSED: {
    action: 'Open the category’s failing queries below: they are what brought its pass rate down.',
    doc: SUITE,
  },
  NO_RELEVANT_DOCUMENTS: {
    action: 'Check the question is answerable from the book (expect_answer) and its pages are indexed.',
    doc: 'docs/GROUNDING.md#the-checks-on-one-answer',
  },
  GROUNDING_FAILED: {
    action: 'Check the Cohere chat model and key: the answers could not be checked.',
    doc: 'docs/GROUNDING.md#the-checks-on-one-answer',
  },
  UNSUPPORTED_CLAIM: {
    action: 'Read the claim and the evidence quoted: fix the page it cites, or the agent that wrote the answer.',
    doc: 'docs/GROUNDING.md#claims-and-their-support',
  },
  RUN_FAILED: {
    action: 'Read the message: the configuration or a service named there stopped the run.',
    doc: SERVICES,
  },
  STALE_CHUNKS: {
    action: 'Re-index the pages listed: ragwatch index replaces a page’s points, leftovers included.',
    doc: INDEX_HEALTH,
  },
  MISSING_CHUNKS: {
    action: 'Pages hold fewer chunks than the indexer wrote: re-index the pages listed (a write was cut short).',
    doc: INDEX_HEALTH,
  },
  STALE_PAGES: {
    action: 'Re-index (ragwatch index embeds only the chunks that changed).',
    doc: INDEX_HEALTH,
  },
  MIXED_MODELS: {
    action: 'Re-index the points of the other model with EMBEDDING_MODEL.',
    doc: INDEX_HEALTH,
  },
  EMBEDDING_DRIFT: {
    action: 'Stored vectors no longer match their text: find who wrote them or what model changed, then re-index.',
    doc: INDEX_HEALTH,
  },
  ANN_RECALL_LOW: {
    action: 'Approximate search misses exact hits: raise the collection’s HNSW ef or m, or rebuild its index.',
    doc: INDEX_HEALTH,
  },
  FILTER_VIOLATION: {
    action: 'A filtered search returned points outside its filter: check the payload indexes and the Qdrant version.',
    doc: INDEX_HEALTH,
  },
  UNSUPPORTED_DISTANCE: {
    action: 'The collection’s distance is not Cosine or Dot: recreate it with Cosine (ragwatch index --recreate).',
    doc: LYING_INDEX,
  },
  INDEX_ANOMALY: {
    action: 'Qdrant returned impossible scores: check the collection and the Qdrant version before trusting it.',
    doc: LYING_INDEX,
  },
};
