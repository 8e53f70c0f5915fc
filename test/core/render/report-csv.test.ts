/** The CSV export of per-query rows: one row per query, RFC 4180 quoting, and no cell a spreadsheet would run. */
import { describe, expect, it } from 'vitest';
import { renderQueryRowsCsv } from '../../../functions/core/render/report-csv.ts';
import type { QueryValidationResult } from '../../../functions/core/report/query-validation.ts';
import { buildFailedReport, buildQuery } from '../../nightly/fixtures/reports.ts';

/** A run's own fields, which every row repeats. */
const RUN = {
  run_id: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  timestamp: '2026-03-14T02:00:00.000Z',
  collection: 'book',
  environment: 'prod',
};

describe('renderQueryRowsCsv', () => {
  it('writes a header and one CRLF-ended row per query, in report order', () => {
    // Prepare
    const report = buildFailedReport();

    // Act
    const lines = renderQueryRowsCsv(report).split('\r\n');

    // Assess
    expect(lines[0]).toBe(
      'id,query_category,status,query_text,pass_reason,fail_reason,error_types,best_similarity,mean_top_k_similarity,semantic_alignment_score,module_match,chapter_match,expected_sources_found,total_expected_sources,metrics.precision_at_k,metrics.recall_at_k,metrics.reciprocal_rank,metrics.ndcg_at_k,latency.embedding_ms,latency.search_ms,latency.post_processing_ms,latency.total_ms,top_results[0].source_url,top_results[0].similarity_score,run_id,run_started_at,collection,environment',
    );
    expect(lines).toHaveLength(report.query_results.length + 2);
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1).map((l) => l.split(',')[0])).toEqual(report.query_results.map((q) => q.id));
  });

  it('ends every row with the run’s id, start time, collection and environment, so many runs’ CSVs merge', () => {
    const report = { ...buildFailedReport(), ...RUN, collection: 'guide, v2' };
    const rows = renderQueryRowsCsv(report).split('\r\n').slice(1, -1);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows)
      expect(row.endsWith(',6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b,2026-03-14T02:00:00.000Z,"guide, v2",prod')).toBe(
        true,
      );
  });

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    // Prepare
    const query = buildQuery({ id: 'q-1', status: 'FAIL', reason: 'got "intro", not\nsetup' });

    // Act
    const row = renderQueryRowsCsv({ ...RUN, query_results: [query] })
      .split('\r\n')
      .slice(1)
      .join('\r\n');

    // Assess
    expect(row).toContain(',FAIL,What does q-1 cover?,,"got ""intro"", not\nsetup",');
  });

  it('prefixes text that a spreadsheet would read as a formula with a quote', () => {
    // Prepare
    const query = { ...buildQuery({ id: 'q-2' }), query_text: '=HYPERLINK("http://evil.example","x")' };

    // Act
    const row = renderQueryRowsCsv({ ...RUN, query_results: [query] }).split('\r\n')[1];

    // Assess
    expect(row).toContain(',"\'=HYPERLINK(""http://evil.example"",""x"")",');
  });

  it('leaves a negative number as a number', () => {
    // Prepare
    const query = { ...buildQuery({ id: 'q-3' }), best_similarity: -0.25 };

    // Act
    const row = renderQueryRowsCsv({ ...RUN, query_results: [query] }).split('\r\n')[1];

    // Assess
    expect(row?.split(',')[7]).toBe('-0.25');
  });

  it('leaves a figure that could not be computed empty, and lists every error type', () => {
    // Prepare
    const query: QueryValidationResult = {
      ...buildQuery({ id: 'q-4', status: 'ERROR' }),
      error_types: ['TIMEOUT', 'NO_RESULTS'],
    };

    // Act
    const cells = renderQueryRowsCsv({ ...RUN, query_results: [query] })
      .split('\r\n')[1]
      ?.split(',');

    // Assess: best_similarity, mean, alignment, chapter match, the IR metrics and the top result are all null
    expect(cells?.slice(6, 12)).toEqual(['TIMEOUT NO_RESULTS', '', '', '', 'false', '']);
    expect(cells?.slice(14, 18)).toEqual(['', '', '', '']);
    expect(cells?.slice(-6, -4)).toEqual(['', '']);
  });

  it('quotes text with a leading or trailing space, so a spreadsheet keeps it', () => {
    // Prepare
    const query = { ...buildQuery({ id: 'q-5' }), query_text: ' padded ' };

    // Act
    const row = renderQueryRowsCsv({ ...RUN, query_results: [query] }).split('\r\n')[1];

    // Assess
    expect(row).toContain(',PASS," padded ",');
  });

  it('fills every column from its own field', () => {
    // Prepare: a value in every column, each different from the others, so a column left blank or read from
    // another field changes the row.
    const top = (rank: number, url: string, score: number) => ({
      rank,
      chunk_id: `00000000-0000-4000-8000-00000000000${rank}`,
      chunk_text: 'text',
      similarity_score: score,
      raw_score: score,
      confidence_score: 1,
      source_url: url,
      chapter_id: 'ch1',
      module_name: 'Module 1',
      heading_hierarchy: ['Intro'],
      token_count: 12,
      chunk_index: 0,
      timestamp: null,
      model_version: 'embed-english-v3.0',
      payload_issues: [],
      relevance: rank === 2,
      relevance_grade: rank === 2 ? 2 : 0,
    });
    const failed: QueryValidationResult = {
      ...buildQuery({ id: 'q-6', status: 'FAIL', reason: 'the expected page is third', category: 'procedural' }),
      error_types: ['LOW_PRECISION', 'MISSING_EXPECTED_SOURCE'],
      best_similarity: 0.71,
      mean_top_k_similarity: 0.64,
      semantic_alignment_score: 0.4627,
      module_match: true,
      chapter_match: false,
      expected_sources_found: 1,
      total_expected_sources: 3,
      metrics: {
        k: 5,
        judged_relevant: 3,
        retrieved_relevant: 1,
        precision_at_k: 0.2,
        recall_at_k: 0.3333,
        reciprocal_rank: 0.5,
        ndcg_at_k: 0.3066,
        hit: true,
      },
      latency: { embedding_ms: 41.5, search_ms: 12.25, post_processing_ms: 0.75, total_ms: 54.5 },
      top_results: [top(1, 'https://book.example.com/docs/a', 0.69), top(2, 'https://book.example.com/docs/b', 0.6)],
    };
    const passed = buildQuery({ id: 'q-7' });

    // Act
    const [header = '', ...rows] = renderQueryRowsCsv({ ...RUN, query_results: [failed, passed] }).split('\r\n');
    const byColumn = (row: string | undefined) => {
      const cells = row?.split(',') ?? [];
      return Object.fromEntries(header.split(',').map((name, i) => [name, cells[i]]));
    };

    // Assess
    expect(byColumn(rows[0])).toEqual({
      id: 'q-6',
      query_category: 'procedural',
      status: 'FAIL',
      query_text: 'What does q-6 cover?',
      pass_reason: '',
      fail_reason: 'the expected page is third',
      error_types: 'LOW_PRECISION MISSING_EXPECTED_SOURCE',
      best_similarity: '0.71',
      mean_top_k_similarity: '0.64',
      semantic_alignment_score: '0.4627',
      module_match: 'true',
      chapter_match: 'false',
      expected_sources_found: '1',
      total_expected_sources: '3',
      'metrics.precision_at_k': '0.2',
      'metrics.recall_at_k': '0.3333',
      'metrics.reciprocal_rank': '0.5',
      'metrics.ndcg_at_k': '0.3066',
      'latency.embedding_ms': '41.5',
      'latency.search_ms': '12.25',
      'latency.post_processing_ms': '0.75',
      'latency.total_ms': '54.5',
      'top_results[0].source_url': 'https://book.example.com/docs/a',
      'top_results[0].similarity_score': '0.69',
      run_id: RUN.run_id,
      run_started_at: RUN.timestamp,
      collection: 'book',
      environment: 'prod',
    });
    expect(byColumn(rows[1])).toMatchObject({
      id: 'q-7',
      status: 'PASS',
      pass_reason: 'Found relevant chunk (similarity=0.85) in expected module',
      fail_reason: '',
      module_match: 'true',
      chapter_match: '',
      'metrics.precision_at_k': '',
      'top_results[0].source_url': 'https://book.example.org/docs/q-7',
      'top_results[0].similarity_score': '0.85',
    });
    expect(rows.slice(2)).toEqual(['']);
  });

  it('names every column by its path in the JSON query result, and fills it with the value at that path', () => {
    // Prepare: a query whose every field the CSV reads is set, so a column named after one field and filled from
    // another, or named differently from its JSON field (the old `reason`, `category`, `top_score`), is caught.
    const query: QueryValidationResult = {
      ...buildQuery({ id: 'q-8', status: 'FAIL', reason: 'third', category: 'procedural' }),
      metrics: {
        k: 5,
        judged_relevant: 2,
        retrieved_relevant: 1,
        precision_at_k: 0.2,
        recall_at_k: 0.5,
        reciprocal_rank: 0.25,
        ndcg_at_k: 0.43,
        hit: true,
      },
    };
    const json = JSON.parse(JSON.stringify(query)) as Record<string, unknown>;
    const at = (path: string): unknown =>
      path
        .split(/\.|\[(\d+)\]/)
        .filter((step) => step !== undefined && step !== '')
        .reduce<unknown>(
          (node, step) =>
            node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[step] : undefined,
          json,
        );

    // Act
    const [header = '', row = ''] = renderQueryRowsCsv({ ...RUN, query_results: [query] }).split('\r\n');

    // Assess: 24 columns of the query, then the run's own 4, named as the report's top level names them (its
    // `timestamp` as run_started_at, since a query result has a timestamp of its own)
    const cells = row.split(',');
    const columns = header.split(',');
    expect(columns.slice(24)).toEqual(['run_id', 'run_started_at', 'collection', 'environment']);
    expect(cells.slice(24)).toEqual([RUN.run_id, RUN.timestamp, RUN.collection, RUN.environment]);
    for (const [i, path] of columns.slice(0, 24).entries()) {
      const value = at(path);
      expect(value, path).not.toBeUndefined();
      const expected = Array.isArray(value) ? value.join(' ') : value === null ? '' : String(value);
      expect(cells[i], path).toBe(expected);
    }
  });
});
