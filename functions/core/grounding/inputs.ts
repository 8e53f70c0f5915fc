/** The grounding concern's input: the agent's answers, asked once per run as the step `agent`. */
import type { Input, RunContext } from '../checks/input.ts';
import { outcome } from '../checks/input.ts';
import { searchedQueries } from '../queries/inputs.ts';
import { indexSearchedHits } from '../queries/query-results.ts';
import { answerAgentQuestions } from './answer-agent-questions.ts';
import { createRetrievalTool } from './retrieval-tool.ts';

/** At most this many agent queries per run, so the chat cost is bounded. */
export const maxAgentQueries = (ctx: { options: RunContext['options'] }): number => ctx.options.maxAgentQueries ?? 10;

/**
 * The agent answers from the hits the query step already fetched: its chain is then the query step's two round
 * trips plus its chat calls, not a second embed and search per question.
 */
export const groundedAnswers: Input<Awaited<ReturnType<typeof answerAgentQuestions>>> = {
  name: 'agent',
  steps: ['agent'],
  resolve: (ctx) => {
    const chat = ctx.deps.chat;
    if (!chat) return Promise.reject(new Error('no chat model is wired'));
    return ctx.step(
      'agent',
      async () => {
        const searched = await outcome(ctx.input(searchedQueries));
        const prefetched = searched.ok ? indexSearchedHits(searched.value.results) : undefined;
        return answerAgentQuestions({
          queries: ctx.queries,
          tool: createRetrievalTool({
            ...ctx.deps,
            // A search of its own stops with the agent's margin, like its chat (EngineDeps.agentSearch).
            ...ctx.deps.agentSearch,
            ...(prefetched ? { prefetched } : {}),
            ...(ctx.deps.wrapUp ? { stop: ctx.deps.wrapUp } : {}),
          }),
          chat,
          clock: ctx.deps.clock,
          newId: ctx.deps.newId,
          maxAgentQueries: maxAgentQueries(ctx),
          ...(ctx.deps.judge ? { judge: ctx.deps.judge } : {}),
          ...(ctx.options.judgeMaxClaims === undefined ? {} : { judgeMaxClaims: ctx.options.judgeMaxClaims }),
          ...(ctx.deps.wrapUp ? { stop: ctx.deps.wrapUp } : {}),
        });
      },
      ({ report }) =>
        report.evaluated > 0 && report.errors === report.evaluated ? 'no agent question could be answered' : null,
    );
  },
  failure: {
    label: 'grounded answers',
    finding: {
      type: 'GROUNDING_FAILED',
      severity: 'HIGH',
      message: (reason) => `grounded answers could not be checked: ${reason}`,
    },
  },
};
