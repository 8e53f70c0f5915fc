/** QUERY_DRIFT: one query's own CUSUM against its 28-run reference, three falls in a row, each threshold pinned. */
import { describe, expect, it } from 'vitest';
import type { RunDigest } from '../../../functions/core/history/run-digest.ts';
import { compareWithHistory } from '../../../functions/core/regression/compare-with-history.ts';
import { detectQueryDrift } from '../../../functions/core/regression/query-drift.ts';
import type { ValidationReport } from '../../../functions/core/report/report.ts';
import { buildDigest, query } from '../history/digests.ts';
import { buildReport, historyOf } from './reports.ts';

/** A run whose q1 sits at 0.5 x (1 + fall) and q2, q3 at 0.5 x (1 + others). */
const at = (n: number, fall: number, others = 0, fields: Partial<RunDigest> = {}) =>
  buildDigest(n, {
    queries: {
      q1: query({ bestSimilarity: 0.5 * (1 + fall) }),
      q2: query({ bestSimilarity: 0.5 * (1 + others) }),
      q3: query({ bestSimilarity: 0.5 * (1 + others) }),
    },
    ...fields,
  });
/** `count` reference runs at 0.5, then q1's falls (oldest first); newest first as history is. */
function history(count: number, falls: number[] = []): RunDigest[] {
  const reference = Array.from({ length: count }, (_, i) => at(i, 0));
  return [...reference, ...falls.map((f, i) => at(count + i, f))].reverse();
}
const drift = (past: RunDigest[], now: number, setAside: string[] = []) =>
  detectQueryDrift({ current: at(99, now), history: past, setAside: new Set(setAside) });

describe('detectQueryDrift', () => {
  it('finds one query falling 1.5 % a night on its third night, naming it, LOW', () => {
    expect(drift(history(10, [-0.015]), -0.03)).toEqual([]);
    const found = drift(history(10, [-0.015, -0.03]), -0.045);
    expect(found).toEqual([
      {
        kind: 'QUERY_DRIFT',
        severity: 'LOW',
        message:
          'query q1: best similarity has drifted down 3 runs in a row: -4.5 % against its 12-run reference 0.5 (CUSUM 6 % > 4 %)',
        addressed_to: 'operations',
        query_id: 'q1',
        metric: 'best_similarity_vs_reference',
        value: 0.4775,
        baseline: 0.5,
        band: 0.04,
        urls: [],
      },
    ]);
  });

  it('needs 3 falls beyond the slack in a row: one deep night, or two, is not a drift', () => {
    expect(drift(history(10), -0.3)).toEqual([]);
    expect(drift(history(10, [-0.3]), -0.3)).toEqual([]);
    expect(drift(history(10, [-0.3, -0.3]), -0.3)).toHaveLength(1);
    // A night within 1 % of the reference breaks the streak and the sum.
    expect(drift(history(10, [-0.3, -0.3, -0.0099]), -0.3)).toEqual([]);
    expect(drift(history(10, [-0.3, -0.3, -0.0101]), -0.3)).toHaveLength(1);
  });

  it('alarms only above 4 %, with this run at least 2 % below', () => {
    // Falls of 2.33 % three times: CUSUM 3.99 %; 2.34 %: 4.02 %.
    expect(drift(history(10, [-0.0233, -0.0233]), -0.0233)).toEqual([]);
    expect(drift(history(10, [-0.0234, -0.0234]), -0.0234)).toHaveLength(1);
    // Deep before, now only 1.99 % below: not a finding; 2.01 %: one.
    expect(drift(history(10, [-0.1, -0.1]), -0.0199)).toEqual([]);
    expect(drift(history(10, [-0.1, -0.1]), -0.0201)).toHaveLength(1);
  });

  it("measures its lines in the query's own noise on the reference runs", () => {
    // q1 alternating +-2 % on the reference runs: sd 2.97 %, slack 3.26 %, alarm 13.05 % (the falls, flagged as
    // regressions, are kept out of the reference).
    const noisy = Array.from({ length: 10 }, (_, i) => at(i, i % 2 === 0 ? 0.02 : -0.02)).reverse();
    const sd = 1.4826 * 0.02;
    const step = -(4.4 * sd) / 3 - 1.1 * sd;
    expect(
      detectQueryDrift({
        current: at(99, step - 0.0001),
        history: [at(31, step, 0, { regressed: true }), at(30, step, 0, { regressed: true }), ...noisy],
        setAside: new Set(),
      }),
    ).toHaveLength(1);
    expect(
      detectQueryDrift({
        current: at(99, step + 0.0001),
        history: [at(31, step, 0, { regressed: true }), at(30, step, 0, { regressed: true }), ...noisy],
        setAside: new Set(),
      }),
    ).toEqual([]);
  });

  it('needs 7 reference runs, leaves set-aside and edited queries out, and keeps regressions out of the reference', () => {
    // Reference runs: the clean ones and the two falls (not regressions): 6 are too few, 7 enough.
    expect(drift(history(4, [-0.1, -0.1]), -0.1)).toEqual([]);
    expect(drift(history(5, [-0.1, -0.1]), -0.1)).toHaveLength(1);
    expect(drift(history(7, [-0.1, -0.1]), -0.1, ['q1'])).toEqual([]);
    const edited = buildDigest(99, { queries: { q1: query({ bestSimilarity: 0.45, hash: 'new' }) } });
    const past = history(7, [-0.1, -0.1]).map((r) => ({
      ...r,
      queries: { q1: { ...(r.queries.q1 ?? query({})), hash: 'old' } },
    }));
    expect(detectQueryDrift({ current: edited, history: past, setAside: new Set() })).toEqual([]);
    // Eleven runs at -10 % in the reference make -10 % the usual: flagged as regressions, they are left out.
    const long = history(
      10,
      Array.from({ length: 11 }, () => -0.1),
    );
    expect(drift(long, -0.1)).toEqual([]);
    expect(
      drift(
        long.map((r, i) => (i < 11 ? { ...r, regressed: true } : r)),
        -0.1,
      ),
    ).toHaveLength(1);
  });

  it('skips, without breaking the streak, a run that is ERROR or lacks the query; counts an unreadable reading as none', () => {
    const past = (middle: RunDigest) => {
      const [newest, ...rest] = history(10, [-0.1, -0.1]);
      return [newest as RunDigest, middle, ...rest];
    };
    // An ERROR run between the falls, whose q1 sits at the reference: skipped, so the streak is 3.
    expect(drift(past(at(50, 0, 0, { status: 'ERROR' })), -0.1)).toHaveLength(1);
    // A run without q1 between them: skipped too.
    expect(drift(past(buildDigest(50, { queries: { q2: query({ bestSimilarity: 0.5 }) } })), -0.1)).toHaveLength(1);
    // Two falls only, and a run whose q1 has no best similarity, or is ERROR at 0.05: no third fall, no drift.
    const two = (middle: RunDigest) => [middle, ...history(10, [-0.1])];
    expect(drift(two(at(50, 0)), -0.1)).toEqual([]);
    expect(drift(two(buildDigest(50, { queries: { q1: query({ bestSimilarity: null }) } })), -0.1)).toEqual([]);
    expect(
      drift(two(buildDigest(50, { queries: { q1: query({ bestSimilarity: 0.05, status: 'ERROR' }) } })), -0.1),
    ).toEqual([]);
    expect(drift(two(at(50, -0.1)), -0.1)).toHaveLength(1);
  });

  it('leaves ERROR runs and ERROR queries out of the sequence', () => {
    const broken = (n: number) => at(n, -0.9, -0.9, { status: 'ERROR' });
    expect(drift([broken(40), ...history(10, [-0.1, -0.1])], -0.1)).toHaveLength(1);
    const erred = buildDigest(99, { queries: { q1: query({ bestSimilarity: 0.05, status: 'ERROR' }) } });
    expect(detectQueryDrift({ current: erred, history: history(10, [-0.1, -0.1]), setAside: new Set() })).toEqual([]);
  });
});

describe('QUERY_DRIFT in the comparison with history', () => {
  /** 13 earlier runs, the newest two with `ids` 4.5 % and 3 % down; this run 6 % down on them. */
  const sliding = (ids: string[]) => {
    const fall = (report: ValidationReport, share: number) => {
      for (const q of report.query_results)
        if (ids.includes(q.id) && q.best_similarity !== null) q.best_similarity *= 1 - share;
    };
    const history = historyOf(13, (r) => {
      const i = 13 - Math.round((Date.parse(buildReport().timestamp) - Date.parse(r.timestamp)) / 86_400_000);
      if (i === 12) fall(r, 0.045);
      if (i === 11) fall(r, 0.03);
    });
    const report = buildReport();
    fall(report, 0.06);
    return compareWithHistory(report, history).regression?.findings ?? [];
  };

  it('is reported for a query sliding alone, and not when all slide together (SCORE_DRIFT says so once)', () => {
    const alone = sliding(['q1']);
    expect(alone.filter((f) => f.kind === 'QUERY_DRIFT').map((f) => [f.query_id, f.severity])).toEqual([['q1', 'LOW']]);
    expect(alone.map((f) => f.kind)).not.toContain('SCORE_DRIFT');
    const together = sliding(buildReport().query_results.map((q) => q.id));
    expect(together.map((f) => f.kind)).toContain('SCORE_DRIFT');
    expect(together.map((f) => f.kind)).not.toContain('QUERY_DRIFT');
  });

  it('takes its reference and its sequence from the last 28 healthy runs only', () => {
    // 30 old runs at -20 % of 0.5 (0.4), 28 recent at 0.5, then two told falls to 0.4 and 0.4 now: the reference is
    // 0.5, so three falls of 20 %; over all 58 runs it would be 0.4, and no fall.
    const old = Array.from({ length: 30 }, (_, i) => at(i, -0.2));
    const recent = Array.from({ length: 28 }, (_, i) => at(40 + i, 0));
    const told = [at(70, -0.2, 0, { regressed: true }), at(71, -0.2, 0, { regressed: true })];
    expect(drift([...old, ...recent, ...told].reverse(), -0.2)).toHaveLength(1);
    // 7 reference runs, then 30 told falls of 10 %: the last 28 of them and this run are the streak, 29, not 31.
    const long = [
      ...Array.from({ length: 7 }, (_, i) => at(i, 0)),
      ...Array.from({ length: 30 }, (_, i) => at(10 + i, -0.1, 0, { regressed: true })),
    ];
    const [found] = drift(long.reverse(), -0.1);
    expect(found?.message).toMatch(/^query q1: best similarity has drifted down 29 runs in a row: /);
  });

  it('leaves out a query whose reference is 0 or below: a relative change from 0 means nothing', () => {
    // q1 at 0 on the reference runs, then three runs at -0.1 (a negative cosine): no finding, not an infinite fall.
    const atZero = history(10, [-1.2, -1.2]).map((r, i) =>
      i < 2 ? r : { ...r, queries: { ...r.queries, q1: query({ bestSimilarity: 0 }) } },
    );
    expect(drift(atZero, -1.2)).toEqual([]);
  });

  it("measures the query's noise on the reference runs that read it only", () => {
    // q1 alternating +-2 % on ten reference runs (alarm 13.05 %) and without a similarity on ten more: read as zeros,
    // those would halve the alarm, and three falls of 6 % (CUSUM 8.2 %) would be a drift.
    const noisy = Array.from({ length: 10 }, (_, i) => at(i, i % 2 === 0 ? 0.02 : -0.02));
    const unread = Array.from({ length: 10 }, (_, i) =>
      buildDigest(20 + i, { queries: { q1: query({ bestSimilarity: null }), q2: query(), q3: query() } }),
    );
    const falls = [at(40, -0.06, 0, { regressed: true }), at(41, -0.06, 0, { regressed: true })];
    expect(drift([...noisy, ...unread, ...falls].reverse(), -0.06)).toEqual([]);
    expect(drift([...noisy, ...unread, ...falls].reverse(), -0.2)).toHaveLength(1);
  });
});
