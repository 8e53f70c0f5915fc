/** The grounding concern's shared input: the agent's answers, asked once per run as the step `agent`. */
import type { RunContext } from '../checks/check.ts';
import { searchedQueries } from '../queries/inputs.ts';
import { indexSearchedHits } from '../queries/query-results.ts';
import { createRetrievalTool } from './retrieval-tool.ts';
import { runAgentChecks } from './run-agent-checks.ts';

/** At most this many agent queries per run, so the chat cost is bounded. */
export const maxAgentQueries = (ctx: RunContext): number => ctx.options.maxAgentQueries ?? 10;

/**
 * The agent answers from the hits the query step already fetched: its chain is then the query step's two round
 * trips plus its chat calls, not a second embed and search per question.
 */
export const groundedAnswers = (ctx: RunContext) => {
  const chat = ctx.deps.chat;
  if (!chat) return Promise.reject(new Error('no chat model is wired'));
  return ctx.step(
    'agent',
    async () => {
      const searched = await searchedQueries(ctx).then(
        (value) => value,
        () => null,
      );
      const prefetched = searched ? indexSearchedHits(searched.results) : undefined;
      return runAgentChecks({
        queries: ctx.queries,
        tool: createRetrievalTool({ ...ctx.deps, ...(prefetched ? { prefetched } : {}) }),
        chat,
        clock: ctx.deps.clock,
        newId: ctx.deps.newId,
        maxAgentQueries: maxAgentQueries(ctx),
      });
    },
    ({ report }) =>
      report.evaluated > 0 && report.errors === report.evaluated ? 'no agent question could be answered' : null,
  );
};
