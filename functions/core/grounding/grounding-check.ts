/**
 * Grounded answers: for queries marked `agent: true` (up to a cap), the agent answers from retrieved chunks and
 * each answer's grounding is checked. Only when a chat model is wired and the suite asks such a question.
 */
import type { Check } from '../checks/check.ts';
import { outcome } from '../checks/run-context.ts';
import { describeError } from '../shared/errors.ts';
import { groundedAnswers, maxAgentQueries } from './inputs.ts';

export const groundingCheck: Check = {
  name: 'grounding',
  async run(ctx) {
    if (!ctx.deps.chat || !ctx.queries.some((q) => q.agent))
      return { sections: { grounding_report: null }, errors: [] };
    const answered = await outcome(groundedAnswers(ctx));
    const report = answered.ok ? answered.value.report : null;
    const errors = answered.ok ? answered.value.errors : [];
    const failures: string[] = [];
    if (!answered.ok) {
      const reason = describeError(answered.error);
      failures.push(`grounded answers: ${reason}`);
      errors.push(ctx.error('GROUNDING_FAILED', 'HIGH', `grounded answers could not be checked: ${reason}`));
    }
    // A grounding criterion applies only when this run asked that kind of question.
    const asked = ctx.queries.filter((q) => q.agent).slice(0, maxAgentQueries(ctx));
    return {
      sections: { grounding_report: report },
      errors,
      failures,
      criteria: {
        ...(asked.some((q) => q.expect_answer) ? { groundedRate: report?.grounded_rate ?? null } : {}),
        ...(asked.some((q) => !q.expect_answer)
          ? { abstentionCorrectRate: report?.abstention_correct_rate ?? null }
          : {}),
        // Support applies once an answer made a claim; with none, the grounded rate says the answers are missing.
        ...(report?.claims === 0 ? {} : { supportRate: report?.support_rate ?? null }),
      },
    };
  },
};
