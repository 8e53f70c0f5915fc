/** What a validation run needs from the outside (ports) and how it is configured. */
import type { ChatModel, ClaimJudge, Clock, Embedder, ProgressListener, SitemapSource, VectorIndex } from '../ports.ts';
import type { Suite } from '../suite/suite.ts';

export interface EngineDeps {
  index: VectorIndex;
  embedder: Embedder;
  sitemap: SitemapSource;
  /** The agent's chat model; without it, grounded answers are not checked (grounding_report: null). */
  chat?: ChatModel;
  /** The claim judge (GROUNDING_JUDGE=cohere); without it the lexical gate's verdict on each claim is final. */
  judge?: ClaimJudge;
  clock: Clock;
  /** A fresh UUID (crypto.randomUUID in production). */
  newId: () => string;
  progress?: ProgressListener;
  /** Aborted when the run must stop (its deadline): every step and check still pending is cut, the report still comes back. */
  signal?: AbortSignal;
  /**
   * Aborted a margin before `signal` (adapters/run-deadline.ts): the agent asks no more questions and the claim judge
   * judges no more claims, so the agent step ends on time and keeps the answers and verdicts it had.
   */
  wrapUp?: AbortSignal;
  /**
   * The embedder and the index the agent searches with when the query stage did not fetch its question: on the
   * agent's deadline (`wrapUp`), like its chat, so a search it starts itself is cut with the margin, not at the run's
   * deadline. Without it, the agent searches with `embedder` and `index`.
   */
  agentSearch?: { embedder: Embedder; index: VectorIndex };
}

export interface RunOptions {
  suite: Suite;
  /** Where the suite came from (a path or an S3 URI), for the report. */
  suiteSource: string;
  collection: string;
  environment: string;
  requiredFields: string[];
  coveragePathPrefix: string;
  /** Sitemap paths under the prefix that are not docs, left out of coverage (COVERAGE_EXCLUDE; default none). */
  coverageExclude?: readonly string[];
  /** Overrides of the suite's defaults and success criteria, from configuration. */
  topK?: number;
  minSimilarity?: number;
  criteria?: { minPassRate?: number; minCoverage?: number; minCompleteness?: number };
  searchConcurrency: number;
  /** At most this many agent queries per run, so the chat cost is bounded (default 10). */
  maxAgentQueries?: number;
  /** At most this many claims of a run go to the claim judge (default 100); the rest are could_not_verify. */
  judgeMaxClaims?: number;
  /** Scroll page size when the index cannot aggregate (default 1000). */
  scrollPageSize?: number;
  /**
   * Parts of the collection each scroll reads at once when the index cannot aggregate (default 8): its depth is
   * about ceil(P / (page size x partitions)) round trips, for up to this many pages in memory at once.
   */
  scrollPartitions?: number;
  /**
   * Index health: how many stored points the drift canary re-embeds (default 8; at most 96, one embed call), and how
   * many of the suite's searches ANN health repeats with exact search each night (default 20, a different slice each
   * night; 0: none).
   */
  indexHealth?: { canarySample?: number; annSample?: number };
}
