/**
 * The judge route of the chat stand-in: a chat request with `response_format` json_object whose user message holds a
 * `<claim>` and its `<passage id="...">` blocks (as functions/adapters/cohere/judge.ts writes them) gets the claim's
 * statements, each with its verdict, from judge-claim.ts. Behaviours play the judge's own failures for the tests: a
 * reply that is not JSON, a refusal in words, evidence quoted from another passage than the one named, no
 * statements, a verdict outside the three, a statement dropped, a denial dropped.
 */

import { judgeStatements } from './judge-claim.ts';

export type JudgeBehaviour =
  | 'normal'
  | 'malformed_json'
  | 'refuse'
  | 'evidence_elsewhere'
  | 'no_statements'
  | 'drop_statement'
  | 'drop_denial'
  | 'unknown_verdict';

/** A statement with its denials taken out ("URDF cannot describe loops" -> "URDF can describe loops"). */
const withoutDenials = (text: string) =>
  text
    .replace(/\bcan(?:not|['’]t)\b/gi, 'can')
    .replace(/\bwon['’]t\b/gi, 'will')
    .replace(/n['’]t\b/gi, '')
    .replace(/\s+(?:not|never)\b/gi, '');

const decode = (text: string) => text.replace(/&quot;/g, '"');

/** The JSON text the stand-in's judge answers with. */
export function answerJudge(message: string, behaviour: JudgeBehaviour): string {
  if (behaviour === 'malformed_json') return '{"verdict": "supported", "evidence": ';
  if (behaviour === 'refuse') return "I'm sorry, but I can't help with judging this claim.";
  const claim = /<claim>\n?([\s\S]*?)\n?<\/claim>/.exec(message)?.[1];
  // Not a judge request: an instructed model would still answer some JSON object.
  if (claim === undefined) return '{}';
  const passages = [...message.matchAll(/<passage id="([^"]*)">\n?([\s\S]*?)\n?<\/passage>/g)].map((m) => ({
    id: decode(m[1] ?? ''),
    text: m[2] ?? '',
  }));
  const statements = judgeStatements(claim, passages);
  if (behaviour === 'no_statements') return JSON.stringify({ statements: [] });
  // A judge that splits off a fact and drops it: the last statement is not in the reply.
  if (behaviour === 'drop_statement') return JSON.stringify({ statements: statements.slice(0, -1) });
  // A judge that loses a denial when it splits: each statement states the opposite of its clause, still supported.
  if (behaviour === 'drop_denial')
    return JSON.stringify({ statements: statements.map((s) => ({ ...s, statement: withoutDenials(s.statement) })) });
  if (behaviour === 'unknown_verdict')
    return JSON.stringify({ statements: statements.map((s, i) => (i === 0 ? { ...s, verdict: 'mostly_true' } : s)) });
  if (behaviour === 'evidence_elsewhere') {
    // The first statement with evidence names another passage than the one it quotes.
    const index = statements.findIndex((s) => s.verdict !== 'not_in_context');
    return JSON.stringify({
      statements: statements.map((s, i) => {
        if (i !== index) return s;
        const other = passages.find((p) => p.id !== s.chunk_id);
        return { ...s, chunk_id: other?.id ?? `${s.chunk_id}-other` };
      }),
    });
  }
  return JSON.stringify({ statements });
}
