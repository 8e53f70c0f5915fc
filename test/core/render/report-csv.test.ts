/** The CSV export of per-query rows: one row per query, RFC 4180 quoting, and no cell a spreadsheet would run. */
import { describe, expect, it } from 'vitest';
import { renderQueryRowsCsv } from '../../../functions/core/render/report-csv.ts';
import type { QueryValidationResult } from '../../../functions/core/report/query-validation.ts';
import { buildFailedReport, buildQuery } from '../../nightly/fixtures/reports.ts';

describe('renderQueryRowsCsv', () => {
  it('writes a header and one CRLF-ended row per query, in report order', () => {
    // Prepare
    const report = buildFailedReport();

    // Act
    const lines = renderQueryRowsCsv(report).split('\r\n');

    // Assess
    expect(lines[0]).toBe(
      'query_id,category,status,query_text,reason,error_types,best_similarity,mean_top_k_similarity,semantic_alignment_score,module_match,chapter_match,expected_sources_found,total_expected_sources,precision_at_k,recall_at_k,reciprocal_rank,ndcg_at_k,embedding_ms,search_ms,post_processing_ms,total_ms,top_source_url,top_score',
    );
    expect(lines).toHaveLength(report.query_results.length + 2);
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1).map((l) => l.split(',')[0])).toEqual(report.query_results.map((q) => q.id));
  });

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    // Prepare
    const query = buildQuery({ id: 'q-1', status: 'FAIL', reason: 'got "intro", not\nsetup' });

    // Act
    const row = renderQueryRowsCsv({ query_results: [query] })
      .split('\r\n')
      .slice(1)
      .join('\r\n');

    // Assess
    expect(row).toContain(',FAIL,What does q-1 cover?,"got ""intro"", not\nsetup",');
  });

  it('prefixes text that a spreadsheet would read as a formula with a quote', () => {
    // Prepare
    const query = { ...buildQuery({ id: 'q-2' }), query_text: '=HYPERLINK("http://evil.example","x")' };

    // Act
    const row = renderQueryRowsCsv({ query_results: [query] }).split('\r\n')[1];

    // Assess
    expect(row).toContain(',"\'=HYPERLINK(""http://evil.example"",""x"")",');
  });

  it('leaves a negative number as a number', () => {
    // Prepare
    const query = { ...buildQuery({ id: 'q-3' }), best_similarity: -0.25 };

    // Act
    const row = renderQueryRowsCsv({ query_results: [query] }).split('\r\n')[1];

    // Assess
    expect(row?.split(',')[6]).toBe('-0.25');
  });

  it('leaves a figure that could not be computed empty, and lists every error type', () => {
    // Prepare
    const query: QueryValidationResult = {
      ...buildQuery({ id: 'q-4', status: 'ERROR' }),
      error_types: ['TIMEOUT', 'NO_RESULTS'],
    };

    // Act
    const cells = renderQueryRowsCsv({ query_results: [query] })
      .split('\r\n')[1]
      ?.split(',');

    // Assess: best_similarity, mean, alignment, chapter match, the IR metrics and the top result are all null
    expect(cells?.slice(5, 11)).toEqual(['TIMEOUT NO_RESULTS', '', '', '', 'false', '']);
    expect(cells?.slice(13, 17)).toEqual(['', '', '', '']);
    expect(cells?.slice(-2)).toEqual(['', '']);
  });

  it('quotes text with a leading or trailing space, so a spreadsheet keeps it', () => {
    // Prepare
    const query = { ...buildQuery({ id: 'q-5' }), query_text: ' padded ' };

    // Act
    const row = renderQueryRowsCsv({ query_results: [query] }).split('\r\n')[1];

    // Assess
    expect(row).toContain(',PASS," padded ",');
  });
});
