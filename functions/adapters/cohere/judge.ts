/**
 * The ClaimJudge port on Cohere Chat v2, through cohere-ai's CohereClientV2: one claim and its chunks in, its atomic
 * statements and a JSON verdict for each out, forced by `response_format` (type json_object with a JSON schema). Cohere refuses a response format
 * beside `documents`, so the chunks go in the user message, each in a <passage id="..."> block. The reply's content is
 * not read here: core/grounding/judge.ts checks it (a verdict it knows, evidence found verbatim in the chunk named).
 * Transport failures are translated once (errors.ts) into a ChatError that names the model, never the API key.
 */
import type { ChatDocument, ClaimJudge } from '../../core/ports.ts';
import type { DependencyGate, RunSignal } from '../transport.ts';
import { cohereChatSender, DEFAULT_CHAT_MODEL } from './chat.ts';

/** The judge's model by default: the agent's own, Command A, which supports structured outputs. */
export const DEFAULT_JUDGE_MODEL = DEFAULT_CHAT_MODEL;

/**
 * What the judge must answer; Cohere holds the model to it: the claim split into statements, each with the three
 * verdicts, the passage it rests on, its evidence and a reason.
 */
export const JUDGE_RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    statements: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          statement: { type: 'string' },
          verdict: { type: 'string', enum: ['supported', 'contradicted', 'not_in_context'] },
          chunk_id: { type: 'string' },
          evidence: { type: 'string' },
          reason: { type: 'string' },
        },
        required: ['statement', 'verdict', 'chunk_id', 'evidence', 'reason'],
      },
    },
  },
  required: ['statements'],
} as const;

/**
 * The instructions, as Ragas faithfulness does it in one call: split the claim into atomic statements, then judge
 * each in the words of NLI (entailment is "supported", contradiction "contradicted", neutral "not in context"). Every
 * fact of the claim must be in some statement, so a true clause does not carry an invented tail; outside knowledge
 * does not count, so a claim true in general but absent from the passages is not supported.
 */
const JUDGE_SYSTEM_PROMPT = [
  'You check whether passages support a claim. Use only the passages, never outside knowledge.',
  'First split the claim into atomic statements: each states one fact, reads on its own (write the name a pronoun',
  'stands for), and together they say everything the claim says, every number, unit, name, role and negation',
  'included. A claim that states one fact is one statement. Keep how the facts relate ("X computes Y, and Z draws',
  'it": which one does what) inside the statements.',
  'Then judge each statement. Answer with a JSON object with the field statements, a list of objects with the fields',
  'statement, verdict, chunk_id, evidence and reason:',
  '- verdict "supported": the passages state everything the statement says (a faithful rewording is supported);',
  '- verdict "contradicted": a passage says something the statement cannot be true with (a negation flipped, a',
  '  number or unit changed, roles or names swapped, a possibility stated as a certainty);',
  '- verdict "not_in_context": the passages do not say it, or say only part of it.',
  'chunk_id is the id of the passage the evidence comes from; evidence is the shortest span of that passage, copied',
  'exactly, that supports or contradicts the statement (empty for not_in_context); reason is one short sentence.',
].join('\n');

/** The passages are delimited so a passage cannot close its own block and speak as the instructions. */
export function buildJudgeMessage(claim: string, chunks: readonly ChatDocument[]): string {
  const defuse = (text: string) => text.replace(/<\/passage>/gi, '</ passage>');
  const passages = chunks.map(
    (c) => `<passage id="${defuse(c.id).replace(/"/g, '&quot;')}">\n${defuse(c.text)}\n</passage>`,
  );
  return `${passages.join('\n')}\n\n<claim>\n${claim.replace(/<\/claim>/gi, '</ claim>')}\n</claim>\n\nSplit the claim into statements and generate the JSON verdict for each.`;
}

/** How to reach Cohere for the judge; the token is kept only to authenticate and to redact it from messages. */
export interface CohereJudgeOptions {
  token: string;
  model?: string;
  baseUrl?: string;
  timeoutInSeconds: number;
  maxRetries?: number;
  run?: RunSignal;
  /** Shared with the embedder and the agent: once Cohere failed hard in this run, later calls are not tried. */
  gate?: DependencyGate;
}

/** Builds the ClaimJudge on CohereClientV2. */
export function createCohereJudge(options: CohereJudgeOptions): ClaimJudge {
  const model = options.model ?? DEFAULT_JUDGE_MODEL;
  const send = cohereChatSender(options, 'Cohere judge', model);
  return {
    model,
    async judge({ claim, chunks }) {
      const { text, billedUnits } = await send({
        messages: [
          { role: 'system', content: JUDGE_SYSTEM_PROMPT },
          { role: 'user', content: buildJudgeMessage(claim, chunks) },
        ],
        responseFormat: { type: 'json_object', jsonSchema: { ...JUDGE_RESPONSE_SCHEMA } },
        // One claim, one verdict: the same answer every night for the same claim.
        temperature: 0,
      });
      return { text, billedUnits };
    },
  };
}
