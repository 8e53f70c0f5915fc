/**
 * A run context for unit tests of the checks (core/checks/check.ts): the real createRunContext over in-memory ports
 * (MemoryIndex, FakeEmbedder, a sitemap listing given as data), the suite resolved as runValidation resolves it.
 * Each part can be replaced; `sitemap` may be an Error, which the sitemap source then throws.
 */
import type { Check, ReportSections, VerdictStatus } from '../../functions/core/checks/check.ts';
import type { RunContext } from '../../functions/core/checks/input.ts';
import { runChecks } from '../../functions/core/checks/run-checks.ts';
import { createRunContext, type RunContextHandle } from '../../functions/core/checks/run-context.ts';
import type { EngineDeps, RunOptions } from '../../functions/core/checks/run-options.ts';
import type { SitemapListing } from '../../functions/core/ports.ts';
import type { CriterionResult, ValidationError } from '../../functions/core/report/findings.ts';
import { resolveQueries, SuccessCriteria, Suite } from '../../functions/core/suite/suite.ts';
import { FakeEmbedder } from './fake-embedder.ts';
import { MemoryIndex, type MemoryPoint } from './memory-index.ts';

export interface TestRunContext extends RunContextHandle {
  deps: EngineDeps;
  index: MemoryIndex;
  embedder: FakeEmbedder;
  /** The options of each call to the sitemap source, in order. */
  sitemapCalls: { signal?: AbortSignal }[];
}

export function buildRunContext(
  init: {
    points?: MemoryPoint[];
    index?: MemoryIndex;
    embedder?: FakeEmbedder;
    /** The suite file's content (parsed by Suite); one query by default. */
    suite?: unknown;
    sitemap?: SitemapListing | Error;
    deps?: Partial<EngineDeps>;
    options?: Partial<RunOptions>;
  } = {},
): TestRunContext {
  const index = init.index ?? new MemoryIndex(init.points ?? []);
  const embedder = init.embedder ?? new FakeEmbedder();
  const sitemap = init.sitemap ?? { entries: [], issues: [] };
  const sitemapCalls: { signal?: AbortSignal }[] = [];
  let ids = 0;
  let ms = 0;
  const deps: EngineDeps = {
    index,
    embedder,
    sitemap: {
      location: 'https://book.example.org/sitemap.xml',
      list: async (options = {}) => {
        sitemapCalls.push(options);
        if (sitemap instanceof Error) throw sitemap;
        return sitemap;
      },
    },
    clock: { now: () => new Date('2026-03-14T02:00:00.000Z'), monotonicMs: () => (ms += 5) },
    newId: () => `id-${++ids}`,
    ...init.deps,
  };
  const suite = Suite.parse(init.suite ?? { queries: [{ id: 'q1', query_text: 'what is a node?' }] });
  const options: RunOptions = {
    suite,
    suiteSource: 'suite.json',
    collection: 'book',
    environment: 'test',
    requiredFields: ['chunk_text', 'source_url'],
    coveragePathPrefix: '/docs',
    searchConcurrency: 2,
    ...init.options,
  };
  const handle = createRunContext({
    deps,
    options,
    runId: 'run-1',
    startedAt: new Date('2026-03-14T02:00:00.000Z'),
    queries: resolveQueries(suite),
    criteria: SuccessCriteria.parse(suite.success_criteria),
  });
  HANDLES.set(handle.ctx, handle);
  return { ...handle, deps, index, embedder, sitemapCalls };
}

const HANDLES = new WeakMap<RunContext, RunContextHandle>();

/** What one check concluded when run alone by the real runner: its verdict, and the failures of its inputs. */
export interface CheckRun {
  /** null when the check was skipped (an input failed) or its judging threw. */
  status: VerdictStatus | null;
  sections: ReportSections;
  errors: ValidationError[];
  failures: string[];
  /** The criteria judged (a skipped check's criteria held on every run read "not computed"). */
  verdicts: CriterionResult[];
  /** The judged criteria's values by the figure's name (passRate, coverage, p95LatencyMs, ...). */
  criteria: Record<string, number | null>;
  /** Request counts the verdict gives for `execution`. */
  execution?: { embed_calls: number; search_calls: number };
}

/** Runs one check by the real runner (runChecks) in a context of buildRunContext. */
export async function runCheck(check: Check<never> | Check, ctx: RunContext): Promise<CheckRun> {
  const handle = HANDLES.get(ctx);
  if (!handle) throw new Error('runCheck: the context was not built by buildRunContext');
  const outcome = await runChecks([check as Check], handle);
  const verdict = outcome.verdicts[0]?.verdict ?? null;
  return {
    status: verdict?.status ?? null,
    sections: verdict?.sections ?? {},
    errors: outcome.errors,
    failures: outcome.failures,
    verdicts: outcome.criteria,
    ...(verdict?.execution ? { execution: verdict.execution } : {}),
    criteria: Object.fromEntries(
      outcome.criteria.map((c) => [c.name.replace(/_(\w)/g, (_, l: string) => l.toUpperCase()), c.value]),
    ),
  };
}
