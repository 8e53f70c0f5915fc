/** The HTML report's grounded answers: each answer's verdict, what it cites, why it failed; passing ones fold away. */
import { describe, expect, it } from 'vitest';
import { highlightCitations, renderGrounding } from '../../../../functions/core/render/html/grounding-section.ts';
import type {
  AgentResponse,
  GroundingReport,
  GroundingVerdict,
} from '../../../../functions/core/report/grounding-report.ts';
import { buildPassedReport } from '../../../nightly/fixtures/reports.ts';

function verdict(overrides: Partial<GroundingVerdict> = {}): GroundingVerdict {
  return {
    passed: true,
    grounded: true,
    abstained: false,
    abstention_correct: true,
    expect_answer: true,
    checks: {},
    citation_coverage: 0.834,
    min_citation_coverage: 0.8,
    sentences: 2,
    covered_sentences: 2,
    unknown_chunk_ids: [],
    min_word_support: 0.6,
    claims: [],
    reasons: [],
    ...overrides,
  } as GroundingVerdict;
}

function response(id: string, overrides: Partial<AgentResponse> = {}): AgentResponse {
  return {
    response_text: 'Qdrant stores vectors.',
    response_id: `resp-${id}`,
    query_id: id,
    query_text: `What does ${id} say?`,
    source_chunks: ['c-1', 'c-2'],
    confidence_score: 0.8,
    confidence_components: { evidence_relevance: 0.8, support_ratio: 1 },
    timestamp: '2026-03-14T02:00:00Z',
    grounding_validation: verdict(),
    status: 'ANSWERED',
    error: null,
    citations: [{ start: 0, end: 22, text: 'Qdrant stores vectors.', document_ids: ['c-1', 'c-2'] }],
    retrieved: { chunk_ids: ['c-1', 'c-2'], relevance_scores: [0.9, 0.8], min_relevance: 0.3, relevant_chunk_ids: [] },
    token_usage: { input_tokens: 10, output_tokens: 5 },
    latency: { retrieval_ms: 10, chat_ms: 100, total_ms: 110 },
    ...overrides,
  };
}

function grounding(responses: AgentResponse[], overrides: Partial<GroundingReport> = {}): GroundingReport {
  return {
    chat_model: 'command-r',
    agent_queries: 5,
    evaluated: 4,
    capped: 0,
    max_agent_queries: 20,
    min_citation_coverage: 0.8,
    min_word_support: 0.6,
    claims: 4,
    supported_claims: 3,
    support_rate: 75,
    grounded: 2,
    ungrounded: 1,
    unnecessary_abstentions: 0,
    abstentions_correct: 1,
    abstentions_gated: 0,
    abstentions_incorrect: 0,
    errors: 1,
    grounded_rate: 66.6667,
    abstention_correct_rate: 100,
    token_usage: { input_tokens: 40, output_tokens: 20 },
    responses,
    ...overrides,
  };
}

function page(g: GroundingReport | null): string {
  return renderGrounding({ ...buildPassedReport(), grounding_report: g }).value;
}

/** Each answer's verdict tag and query id, in page order. */
function verdicts(markup: string): string[] {
  return [...markup.matchAll(/<span class="tag (\w+)">(\w+)<\/span> ([^:]+):/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
}

describe('renderGrounding', () => {
  it('renders nothing when the suite has no agent query', () => {
    expect(page(null)).toBe('');
  });

  it('heads the section with the grounded rate and lists every count the run made', () => {
    const markup = page(grounding([]));
    expect(markup).toContain('<h2>Grounded answers: 66.67% grounded</h2>');
    expect(markup).toContain(
      '<p class="figures">4 of 5 agent questions evaluated · grounded <b>2</b> · ungrounded <b>1</b> · needless abstentions <b>0</b> · correct abstentions <b>1</b> · gated before chat (not graded) <b>0</b> · wrong answers to unanswerable questions <b>0</b> · errors <b>1</b> · model command-r</p>',
    );
  });

  it('says who gave the claims their verdicts, and what the judge found over the run', () => {
    const judge = {
      mode: 'cohere' as const,
      model: 'command-a-03-2025',
      max_claims: 100,
      judged: 4,
      verdicts: { supported: 2, contradicted: 1, not_in_context: 0, could_not_verify: 1 },
      token_usage: { input_tokens: 300, output_tokens: 40 },
    };
    expect(page(grounding([], { judge }))).toContain(
      'claim verdicts from the judge command-a-03-2025: supported <b>2</b> · contradicted <b>1</b> · not in context <b>0</b> · could not verify <b>1</b> · 4 call(s) of a budget of 100 · 300 + 40 tokens',
    );
    expect(page(grounding([], { judge: { ...judge, mode: 'lexical', model: null } }))).toContain(
      'claim verdicts from the lexical gate alone (GROUNDING_JUDGE=lexical)',
    );
    expect(page(grounding([]))).not.toContain('claim verdicts');
  });

  it('lists each judged claim with the judge’s verdict, the evidence it quoted and the gate’s verdict', () => {
    const claim = {
      kind: 'cited_sentence' as const,
      start: 0,
      end: 22,
      text: 'Qdrant stores vectors.',
      chunk_ids: ['c-1'],
      supported: false,
      lexical_supported: true,
      word_support: 1,
      content_words: 3,
      missing_words: [],
      missing_numbers: [],
      missing_names: [],
      missing_quantities: [],
      polarity_conflicts: [],
    };
    const judged = response('q1', {
      grounding_validation: verdict({
        passed: false,
        claims: [
          {
            ...claim,
            judge: {
              verdict: 'contradicted',
              chunk_id: 'c-1',
              evidence: 'Qdrant <does not> store vectors.',
              reason: '',
              failure: null,
            },
          },
          {
            ...claim,
            start: 30,
            judge: { verdict: 'could_not_verify', chunk_id: null, evidence: null, reason: 'x', failure: 'timeout' },
          },
          { ...claim, start: 40, supported: true },
        ],
      }),
    });
    const markup = page(grounding([judged]));
    expect(markup).toContain(
      '<li><span class="tag fail">contradicted</span> “Qdrant stores vectors.” · c-1: “Qdrant &lt;does not&gt; store vectors.” <span class="muted">(lexical gate: supported)</span></li>',
    );
    expect(markup).toContain(
      '<li><span class="tag error">could_not_verify</span> “Qdrant stores vectors.” · timeout <span class="muted">(lexical gate: supported)</span></li>',
    );
    expect(markup.match(/<ul class="claims">/g)).toHaveLength(1);
    expect(markup.match(/<li><span class="tag/g)).toHaveLength(2);
    expect(markup).not.toContain('class="statements"');
  });

  it('lists the statements the judge split a claim into, each with its verdict and evidence; one statement is the claim', () => {
    const statement = (text: string, verdict: 'supported' | 'not_in_context' | 'could_not_verify') => ({
      statement: text,
      verdict,
      chunk_id: verdict === 'supported' ? 'c-1' : null,
      evidence: verdict === 'supported' ? 'Qdrant stores vectors.' : null,
      reason: '',
      failure: verdict === 'could_not_verify' ? ('evidence_not_found' as const) : null,
    });
    const claim = (statements: ReturnType<typeof statement>[]) => ({
      kind: 'cited_sentence' as const,
      start: 0,
      end: 40,
      text: 'Qdrant stores vectors and needs <64> GB.',
      chunk_ids: ['c-1'],
      supported: false,
      lexical_supported: false,
      word_support: 1,
      content_words: 3,
      missing_words: [],
      missing_numbers: [],
      missing_names: [],
      missing_quantities: [],
      polarity_conflicts: [],
      judge: { ...statement('x', 'not_in_context'), statements },
    });
    const two = page(
      grounding([
        response('q1', {
          grounding_validation: verdict({
            passed: false,
            claims: [
              claim([
                statement('Qdrant stores vectors.', 'supported'),
                statement('Qdrant needs <64> GB.', 'not_in_context'),
                statement('Qdrant is fast.', 'could_not_verify'),
              ]),
            ],
          }),
        }),
      ]),
    );
    expect(two).toContain(
      '<ul class="statements"><li><span class="tag pass">supported</span> “Qdrant stores vectors.” · c-1: “Qdrant stores vectors.”</li><li><span class="tag fail">not_in_context</span> “Qdrant needs &lt;64&gt; GB.”</li><li><span class="tag error">could_not_verify</span> “Qdrant is fast.” · evidence_not_found</li></ul></li>',
    );
    const one = page(
      grounding([
        response('q1', {
          grounding_validation: verdict({
            passed: false,
            claims: [claim([statement('Qdrant needs 64 GB.', 'not_in_context')])],
          }),
        }),
      ]),
    );
    expect(one).toContain(
      '<li><span class="tag fail">not_in_context</span> “Qdrant stores vectors and needs &lt;64&gt; GB.” <span class="muted">(lexical gate: not supported)</span></li>',
    );
    expect(one).not.toContain('class="statements"');
    expect(page(grounding([response('q2')]))).not.toContain('class="claims"');
  });

  it('says how many agent questions the cap left out', () => {
    expect(page(grounding([], { agent_queries: 25, evaluated: 20, capped: 5 }))).toContain(
      '20 of 25 agent questions evaluated (5 over the cap of 20) · grounded',
    );
  });

  it('says n/a for a grounded rate that could not be computed', () => {
    expect(page(grounding([], { grounded_rate: null }))).toContain('<h2>Grounded answers: n/a grounded</h2>');
  });

  it('shows failed and errored answers first and folds the passing ones away', () => {
    const markup = page(
      grounding([
        response('a-pass'),
        response('b-fail', { grounding_validation: verdict({ passed: false }) }),
        response('c-error', { grounding_validation: null, error: { stage: 'chat', kind: 'timeout', message: 'x' } }),
      ]),
    );
    const [open, folded] = markup.split('<details>');
    expect(verdicts(open ?? '')).toEqual(['fail FAIL b-fail', 'error ERROR c-error']);
    expect(folded).toContain('<summary>1 passing answer(s)</summary>');
    expect(verdicts(folded ?? '')).toEqual(['pass PASS a-pass']);
  });

  it('renders an answer whose chat failed as its question and the failure, nothing else', () => {
    const markup = page(
      grounding([
        response('q-e', {
          response_text: '',
          grounding_validation: null,
          error: { stage: 'chat', kind: null, message: 'boom' },
        }),
      ]),
    );
    expect(markup).toContain(
      `<article class="answer"><h4><span class="tag error">ERROR</span> q-e: “What does q-e say?”</h4>
<p class="why"><b>chat failed:</b> boom</p>



</article>

</section>`,
    );
  });

  it('renders a passing answer as its question, its marked answer and its coverage, no failure and no reasons', () => {
    const markup = page(grounding([response('q-p')]));
    expect(markup).toContain(
      `<article class="answer"><h4><span class="tag pass">PASS</span> q-p: “What does q-p say?”</h4>

<div class="response"><p><mark title="cites c-1, c-2">Qdrant stores vectors.</mark><sup>[1]</sup></p><ol class="citations"><li value="1">c-1, c-2</li></ol></div>
<p class="muted">answered · answerable · citation coverage 83% (min 80%) · cites 2 chunk(s)</p>

</article></details>`,
    );
  });

  it('has nothing to fold when no answer passed', () => {
    expect(page(grounding([response('b', { grounding_validation: verdict({ passed: false }) })]))).not.toContain(
      '<details>',
    );
  });

  it('says which stage failed and why for an answer without a verdict', () => {
    const markup = page(
      grounding([
        response('q-1', {
          response_text: '',
          grounding_validation: null,
          error: { stage: 'retrieval', kind: null, message: `<x>${'m'.repeat(450)}` },
        }),
      ]),
    );
    expect(markup).toContain(`<p class="why"><b>retrieval failed:</b> &lt;x&gt;${'m'.repeat(396)}…</p>`);
    expect(markup).not.toContain('class="response"');
    expect(markup).not.toContain('citation coverage');
  });

  it('shows the question, the answer with its citations, and how well it is covered', () => {
    const markup = page(grounding([response('q-1', { query_text: `<q>${'w'.repeat(320)}` })]));
    expect(markup).toContain(`q-1: “&lt;q&gt;${'w'.repeat(296)}…”</h4>`);
    expect(markup).toContain('<div class="response"><p><mark title="cites c-1, c-2">Qdrant stores vectors.</mark>');
    expect(markup).toContain(
      '<p class="muted">answered · answerable · citation coverage 83% (min 80%) · cites 2 chunk(s)</p>',
    );
  });

  it('says when the agent abstained on a question the book cannot answer', () => {
    const markup = page(
      grounding([
        response('q-1', {
          grounding_validation: verdict({ abstained: true, expect_answer: false, citation_coverage: 0 }),
        }),
      ]),
    );
    expect(markup).toContain('abstained · not answerable from the book · citation coverage 0% (min 80%)');
  });

  it('lists why an answer failed, each reason cut at 400 characters and escaped', () => {
    const markup = page(
      grounding([
        response('q-1', {
          grounding_validation: verdict({ passed: false, reasons: ['claim "<1989>" not in c-1', 'r'.repeat(450)] }),
        }),
      ]),
    );
    expect(markup).toContain(
      `<ul class="reasons"><li>claim &quot;&lt;1989&gt;&quot; not in c-1</li><li>${'r'.repeat(399)}…</li></ul>`,
    );
  });

  it('lists no reasons for an answer without any', () => {
    expect(page(grounding([response('q-1')]))).not.toContain('class="reasons"');
  });
});

describe('highlightCitations', () => {
  const text = 'One two. Three four. Five.';
  const cite = (start: number, end: number, ids: string[] = ['c']) => ({ start, end, text: '', document_ids: ids });

  it('marks spans in order of their start, numbering them as listed', () => {
    expect(highlightCitations({ response_text: text, citations: [cite(9, 20, ['b']), cite(0, 8, ['a'])] }).value).toBe(
      '<p><mark title="cites a">One two.</mark><sup>[1]</sup> <mark title="cites b">Three four.</mark><sup>[2]</sup> Five.</p><ol class="citations"><li value="1">a</li><li value="2">b</li></ol>',
    );
  });

  it('folds the chunks of a span overlapping the one before it into that mark, keeping the text once and every number marked', () => {
    expect(
      highlightCitations({ response_text: text, citations: [cite(0, 8, ['a']), cite(4, 14, ['b', 'a'])] }).value,
    ).toBe(
      '<p><mark title="cites a, b">One two.</mark><sup>[1]</sup> Three four. Five.</p><ol class="citations"><li value="1">a, b</li></ol>',
    );
  });

  it('marks a span that starts where the one before it ends', () => {
    expect(highlightCitations({ response_text: text, citations: [cite(0, 4), cite(4, 8)] }).value).toBe(
      '<p><mark title="cites c">One </mark><sup>[1]</sup><mark title="cites c">two.</mark><sup>[2]</sup> Three four. Five.</p><ol class="citations"><li value="1">c</li><li value="2">c</li></ol>',
    );
  });

  it('accepts a span reaching the last character, and ignores empty, reversed, negative or fractional spans', () => {
    const markup = highlightCitations({
      response_text: text,
      citations: [cite(21, 26), cite(3, 3), cite(8, 2), cite(-1, 3), cite(1.5, 3), cite(0, 27)],
    }).value;
    expect(markup).toBe(
      '<p>One two. Three four. <mark title="cites c">Five.</mark><sup>[1]</sup></p><ol class="citations"><li value="1">c</li></ol>',
    );
  });

  it('says no chunk for a citation that names none', () => {
    expect(highlightCitations({ response_text: text, citations: [cite(0, 3, [])] }).value).toContain(
      '<li value="1">no chunk</li>',
    );
  });
});
