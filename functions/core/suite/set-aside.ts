/**
 * Known items calibrate sets aside (issue 23 §1): a question whose page is not in its top k when the suite is
 * calibrated fails every night from the first, whatever threshold is chosen; no threshold fixes it, and a night that
 * fails on it teaches nobody anything. `calibrate --write` keeps such a query in the file, marked `set_aside` with
 * the reason, and the run neither runs nor counts it (suite.ts); the report lists it (suite.set_aside).
 *
 * Calibrate runs the queries set aside by an earlier calibration again (withoutSetAside): one whose page is back in
 * its top k (the index was fixed, the question reworded) is brought back, its mark removed (recheckSetAside), and one
 * that still misses it stays set aside. Without that, a mark once written stayed for good.
 *
 * A calibration in which many known items miss their page is not a few bad questions but a broken index or a suite
 * written for another book: over MAX_SHARE of the known items, nothing is set aside and calibrate says why, so the
 * first night fails and a person looks.
 */
import type { ValidationReport } from '../report/report.ts';

/** The most known items that may be set aside, as a share of those that ran: above it the misses are the index's. */
export const MAX_SHARE = 0.2;

export interface SetAsideProposal {
  /** The queries to mark, each with the reason written into the file. */
  queries: { id: string; reason: string }[];
  /** Why nothing was set aside although some known items missed their page; null otherwise. */
  refused: string | null;
}

type Result = ValidationReport['query_results'][number];

/** Proposes the known items to set aside from the report of the suite run at the thresholds calibrate proposes. */
export function proposeSetAside(report: ValidationReport): SetAsideProposal {
  const known = report.query_results.filter((r) => r.status !== 'ERROR' && !isProbe(r));
  const missing = known.filter(missesItsPage);
  if (missing.length === 0) return { queries: [], refused: null };
  const share = missing.length / known.length;
  if (share > MAX_SHARE)
    return {
      queries: [],
      refused: `${missing.length} of ${known.length} known items (${Math.round(share * 100)} %, over ${MAX_SHARE * 100} %) do not find their page in their top k: that is the index or the suite, not a few questions; nothing set aside (${missing
        .slice(0, 5)
        .map((r) => r.id)
        .join(', ')}${missing.length > 5 ? ', ...' : ''})`,
    };
  return { queries: missing.map((r) => ({ id: r.id, reason: reasonFor(r) })), refused: null };
}

function isProbe(r: Result): boolean {
  return (r.query as { expect_match?: boolean }).expect_match === false;
}

/**
 * The query failed and none of its top k results is judged relevant (its page, a section of it, or a page it
 * names in expected_sources). A query with no judgment at all cannot miss a page and is never set aside.
 */
function missesItsPage(r: Result): boolean {
  if (r.status !== 'FAIL') return false;
  const judged = r.metrics !== null || r.total_expected_sources > 0;
  if (!judged) return false;
  const topK = topKOf(r);
  return r.top_results.slice(0, topK).every((row) => !row.relevance) && r.expected_sources_found === 0;
}

function topKOf(r: Result): number {
  const k = (r.query as { top_k?: unknown }).top_k;
  return typeof k === 'number' ? k : r.top_results.length;
}

function reasonFor(r: Result): string {
  const first = r.top_results[0];
  const found =
    first === undefined
      ? 'nothing came back'
      : `rank 1 was ${first.source_url ?? first.chunk_id} at ${first.similarity_score.toFixed(4)}`;
  return `calibrate: its page was not in its top ${topKOf(r)} (${found}); a question no threshold can pass. Fix or reword it, then delete this field`;
}

/**
 * The suite (as parsed from its file) with every `set_aside` mark removed, and the queries that had one (ids as
 * resolveQueries gives them: a query without an id is q<position>, counted over all queries, so ids do not move).
 */
export function withoutSetAside(raw: Record<string, unknown>): {
  raw: Record<string, unknown>;
  setAside: { id: string; reason: string }[];
} {
  if (!Array.isArray(raw.queries)) return { raw, setAside: [] };
  const setAside: { id: string; reason: string }[] = [];
  const queries = (raw.queries as unknown[]).map((query, i) => {
    if (query === null || typeof query !== 'object' || !('set_aside' in query)) return query;
    const { set_aside: reason, ...rest } = query as Record<string, unknown>;
    setAside.push({ id: typeof rest.id === 'string' ? rest.id : `q${i + 1}`, reason: String(reason) });
    return rest;
  });
  return { raw: { ...raw, queries }, setAside };
}

/**
 * The queries the file had set aside, judged again in the report of the suite run with them (no marks): `back`,
 * those that ran and no longer miss their page (their mark is removed); `kept`, the others with their old reason
 * (still missing it, or not judged: an ERROR tells nothing, so the mark stays).
 */
export function recheckSetAside(
  previous: readonly { id: string; reason: string }[],
  report: ValidationReport,
): { back: string[]; kept: { id: string; reason: string }[] } {
  const results = new Map(report.query_results.map((r) => [r.id, r]));
  const back: string[] = [];
  const kept: { id: string; reason: string }[] = [];
  for (const query of previous) {
    const result = results.get(query.id);
    if (result !== undefined && result.status !== 'ERROR' && !missesItsPage(result)) back.push(query.id);
    else kept.push(query);
  }
  return { back, kept };
}
