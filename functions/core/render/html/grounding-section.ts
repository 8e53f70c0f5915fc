/**
 * Grounded answers: each agent answer with its cited spans marked and the chunks they cite, and its verdict. The
 * answer comes from a chat model fed with book text: escaped, and citation offsets are bounds-checked.
 */
import type { AgentResponse, ClaimJudgement, ClaimSupport } from '../../report/grounding-report.ts';
import type { ValidationReport } from '../../report/report.ts';
import { cut, html, type Markup, num } from './escape.ts';

/** The grounding section, or nothing when the suite has no agent query. */
export function renderGrounding(report: ValidationReport): Markup {
  const g = report.grounding_report;
  if (g === null) return html``;
  // What needs a look first: failed checks and errors; the passing answers fold away.
  const failing = g.responses.filter((r) => r.grounding_validation?.passed !== true);
  const passing = g.responses.filter((r) => r.grounding_validation?.passed === true);
  return html`<section id="grounding"><h2>Grounded answers: ${num(g.grounded_rate, 2, '%')} grounded</h2>
<p class="figures">${g.evaluated} of ${g.agent_queries} agent questions evaluated${g.capped > 0 ? ` (${g.capped} over the cap of ${g.max_agent_queries})` : ''} · grounded <b>${g.grounded}</b> · ungrounded <b>${g.ungrounded}</b> · needless abstentions <b>${g.unnecessary_abstentions}</b> · correct abstentions <b>${g.abstentions_correct}</b> · gated before chat (not graded) <b>${g.abstentions_gated}</b> · wrong answers to unanswerable questions <b>${g.abstentions_incorrect}</b> · errors <b>${g.errors}</b> · model ${g.chat_model}</p>
${renderJudge(g)}
${failing.map(renderResponse)}
${passing.length > 0 ? html`<details><summary>${passing.length} passing answer(s)</summary>${passing.map(renderResponse)}</details>` : ''}
</section>`;
}

function renderResponse(r: AgentResponse): Markup {
  const v = r.grounding_validation;
  const verdict = v === null ? 'ERROR' : v.passed ? 'PASS' : 'FAIL';
  return html`<article class="answer"><h4><span class="tag ${verdict.toLowerCase()}">${verdict}</span> ${r.query_id}: “${cut(r.query_text, 300)}”</h4>
${r.error ? html`<p class="why"><b>${r.error.stage} failed:</b> ${cut(r.error.message, 400)}</p>` : ''}
${r.response_text ? html`<div class="response">${highlightCitations(r)}</div>` : ''}
${v ? html`<p class="muted">${v.abstained ? 'abstained' : 'answered'} · ${v.expect_answer ? 'answerable' : 'not answerable from the book'} · citation coverage ${num(v.citation_coverage * 100, 0, '%')} (min ${num(v.min_citation_coverage * 100, 0, '%')}) · cites ${r.source_chunks.length} chunk(s)</p>` : ''}
${v && v.reasons.length > 0 ? html`<ul class="reasons">${v.reasons.map((reason) => html`<li>${cut(reason, 400)}</li>`)}</ul>` : ''}${v ? renderJudgedClaims(v.claims) : ''}
</article>`;
}

/** Who gave the claims their verdicts, and what the judge found over the run. */
function renderJudge(g: NonNullable<ValidationReport['grounding_report']>): Markup {
  const judge = g.judge;
  if (judge === undefined) return html``;
  if (judge.mode === 'lexical')
    return html`<p class="muted">claim verdicts from the lexical gate alone (GROUNDING_JUDGE=lexical)</p>`;
  const v = judge.verdicts;
  return html`<p class="muted">claim verdicts from the judge ${judge.model ?? ''}: supported <b>${v.supported}</b> · contradicted <b>${v.contradicted}</b> · not in context <b>${v.not_in_context}</b> · could not verify <b>${v.could_not_verify}</b> · ${judge.judged} call(s) of a budget of ${judge.max_claims} · ${judge.token_usage.input_tokens} + ${judge.token_usage.output_tokens} tokens</p>`;
}

/**
 * Each judged claim with the judge's verdict and the evidence it quoted, beside the lexical gate's verdict, and the
 * statements the judge split it into.
 */
function renderJudgedClaims(claims: readonly ClaimSupport[]): Markup {
  const judged = claims.filter((c) => c.judge !== undefined);
  if (judged.length === 0) return html``;
  const tag = (j: Pick<ClaimJudgement, 'verdict'>) =>
    j.verdict === 'supported' ? 'pass' : j.verdict === 'could_not_verify' ? 'error' : 'fail';
  const found = (j: Omit<ClaimJudgement, 'statements'>) =>
    html`${j.evidence ? html` · ${j.chunk_id}: “${cut(j.evidence, 300)}”` : ''}${j.failure ? html` · ${j.failure}` : ''}`;
  // A claim the judge split into more than one statement lists them, each with its own verdict.
  const statements = (j: ClaimJudgement) =>
    (j.statements?.length ?? 0) > 1
      ? html`<ul class="statements">${(j.statements ?? []).map((s) => html`<li><span class="tag ${tag(s)}">${s.verdict}</span> “${cut(s.statement, 300)}”${found(s)}</li>`)}</ul>`
      : '';
  const row = (c: ClaimSupport) => {
    const j = c.judge as ClaimJudgement;
    return html`<li><span class="tag ${tag(j)}">${j.verdict}</span> “${cut(c.text, 300)}”${found(j)} <span class="muted">(lexical gate: ${c.lexical_supported ? 'supported' : 'not supported'})</span>${statements(j)}</li>`;
  };
  return html`<ul class="claims">${judged.map(row)}</ul>`;
}

/**
 * The answer with each valid citation span in a <mark> naming the chunks it cites, numbered as the list below it. A
 * span overlapping the one before it is not marked twice: its chunks join that mark, so every number has its mark.
 */
export function highlightCitations(r: Pick<AgentResponse, 'response_text' | 'citations'>): Markup {
  const text = r.response_text;
  const marks: { start: number; end: number; ids: string[] }[] = [];
  r.citations
    .filter((c) => Number.isInteger(c.start) && Number.isInteger(c.end) && c.start >= 0 && c.end <= text.length)
    .filter((c) => c.start < c.end)
    .sort((a, b) => a.start - b.start)
    .forEach((c) => {
      const last = marks.at(-1);
      if (last !== undefined && c.start < last.end) last.ids = [...new Set([...last.ids, ...c.document_ids])];
      else marks.push({ start: c.start, end: c.end, ids: [...c.document_ids] });
    });
  const parts: Markup[] = [];
  let at = 0;
  marks.forEach((m, i) => {
    parts.push(
      html`${text.slice(at, m.start)}<mark title="cites ${m.ids.join(', ')}">${text.slice(m.start, m.end)}</mark><sup>[${i + 1}]</sup>`,
    );
    at = m.end;
  });
  parts.push(html`${text.slice(at)}`);
  const cited = marks.map((m, i) => html`<li value="${i + 1}">${m.ids.join(', ') || 'no chunk'}</li>`);
  return html`<p>${parts}</p>${cited.length > 0 ? html`<ol class="citations">${cited}</ol>` : ''}`;
}
