/**
 * Grounded answers: for queries marked `agent: true` (up to a cap), the agent answers from retrieved chunks and
 * each answer's grounding is checked. Only when a chat model is wired and the suite asks such a question.
 */
import { type CriterionDeclaration, defineCheck, verdict } from '../checks/check.ts';
import type { RunContext } from '../checks/input.ts';
import type { ValidationError } from '../report/findings.ts';
import type { GroundingReport } from '../report/grounding-report.ts';
import type { ResolvedQuery } from '../suite/suite.ts';
import { groundedAnswers, maxAgentQueries } from './inputs.ts';

/** The agent questions this run asks. */
const asked = (ctx: { queries: ResolvedQuery[]; options: RunContext['options'] }) =>
  ctx.queries.filter((q) => q.agent).slice(0, maxAgentQueries(ctx));

/** Applies when the run asked a question the book can answer. */
const GROUNDED_RATE: CriterionDeclaration = {
  name: 'grounded_rate',
  description: 'Agent answers grounded in their retrieved chunks (%)',
  threshold: 'min_grounded_rate',
  comparator: '>=',
  decimals: 2,
  unit: '%',
  severity: () => 'MEDIUM',
  judgedWhenSkipped: (ctx) => asked(ctx).some((q) => q.expect_answer),
};

/** Applies when the run asked a question the book cannot answer. */
const ABSTENTION: CriterionDeclaration = {
  name: 'abstention_correct_rate',
  description: 'Questions the book cannot answer on which the agent abstained (%)',
  threshold: 'min_abstention_correct_rate',
  comparator: '>=',
  decimals: 2,
  unit: '%',
  // Answering a question the book cannot answer means inventing: worse than a missed citation.
  severity: (v) => (v === null || v < 100 ? 'HIGH' : 'MEDIUM'),
  judgedWhenSkipped: (ctx) => asked(ctx).some((q) => !q.expect_answer),
};

/** Applies once an answer made a claim; with none, the grounded rate says the answers are missing. */
const SUPPORT_RATE: CriterionDeclaration = {
  name: 'support_rate',
  description: 'Claims in agent answers supported by the chunks they cite (%)',
  threshold: 'min_support_rate',
  comparator: '>=',
  decimals: 2,
  unit: '%',
  // An unsupported claim is an invented fact under a real citation: as bad as answering the unanswerable.
  severity: (v) => (v === null || v < 90 ? 'HIGH' : 'MEDIUM'),
  judgedWhenSkipped: true,
};

export const groundingCheck = defineCheck({
  name: 'grounding',
  description:
    'The agent answers only from the chunks it retrieved, cites them, and abstains when the book cannot answer',
  needs: { answered: groundedAnswers },
  errorTypes: ['GROUNDING_FAILED', 'NO_RELEVANT_DOCUMENTS', 'UNSUPPORTED_CLAIM', 'TIMEOUT', 'RETRIEVAL_FAILED'],
  criteria: [GROUNDED_RATE, ABSTENTION, SUPPORT_RATE],
  metrics: ['GroundedRate'],
  section: 'grounding_report',
  applies: (ctx) => ctx.deps.chat !== undefined && ctx.queries.some((q) => q.agent),
  judge({ answered }, ctx) {
    const { report } = answered;
    const questions = asked(ctx);
    const cut = report.deadline_cut;
    return verdict({
      sections: { grounding_report: report },
      errors: cut ? [...answered.errors, deadlineFinding(cut, report.evaluated, ctx)] : answered.errors,
      criteria: [
        questions.some((q) => q.expect_answer) ? ctx.criterion(GROUNDED_RATE, report.grounded_rate) : null,
        // Judged on the model's answers only: a question the relevance gate abstained on never reached chat.
        report.abstentions_correct + report.abstentions_incorrect > 0
          ? ctx.criterion(ABSTENTION, report.abstention_correct_rate)
          : null,
        report.claims === 0 ? null : ctx.criterion(SUPPORT_RATE, report.support_rate),
      ],
    });
  },
});

/**
 * The one finding for an agent whose time ran out: what was left, named, rather than one TIMEOUT per question and one
 * UNSUPPORTED_CLAIM per claim. TIMEOUT, as any stage the deadline stopped; HIGH, since part of the grounding was not
 * checked; the run's status rule then decides (report/findings.ts JUDGED_BY).
 */
function deadlineFinding(
  cut: NonNullable<GroundingReport['deadline_cut']>,
  evaluated: number,
  ctx: Pick<RunContext, 'error'>,
): ValidationError {
  const questions = cut.questions_not_answered;
  const left = [
    ...(questions.length > 0
      ? [`${questions.length} of ${evaluated} agent questions not answered (${questions.join(', ')})`]
      : []),
    ...(cut.claims_not_judged > 0
      ? [`${cut.claims_not_judged} claim${cut.claims_not_judged === 1 ? '' : 's'} not judged (could_not_verify)`]
      : []),
  ];
  return ctx.error('TIMEOUT', 'HIGH', `The agent stopped before it was done: ${cut.reason}; ${left.join(', ')}`, {
    stage: 'agent',
    questions_not_answered: questions,
    claims_not_judged: cut.claims_not_judged,
  });
}
