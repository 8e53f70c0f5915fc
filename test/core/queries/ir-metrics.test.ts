import { describe, expect, it } from 'vitest';
import {
  computeIrMetrics,
  gradeRanking,
  meanIrMetrics,
  type RankedItem,
} from '../../../functions/core/queries/ir-metrics.ts';
import type { Relevance } from '../../../functions/core/suite/suite.ts';

const BOOK = 'https://book.example.com/docs';

function chunks(...ids: string[]): RankedItem[] {
  return ids.map((id) => ({ chunk_id: id, source_url: `${BOOK}/${id}` }));
}

function byChunk(target: string, grade = 1): Relevance {
  return { kind: 'chunk_id', target, grade };
}

function byUrl(target: string, grade = 1): Relevance {
  return { kind: 'url', target, grade };
}

describe('computeIrMetrics', () => {
  it('returns null when the query has no judgments', () => {
    // Prepare
    const ranking = chunks('a', 'b');

    // Act
    const none = computeIrMetrics({ ranking, judgments: null, k: 5 });
    const empty = computeIrMetrics({ ranking, judgments: [], k: 5 });

    // Assess
    expect([none, empty]).toEqual([null, null]);
  });

  it('scores binary judgments with trec_eval conventions', () => {
    // Prepare: b and d are relevant at ranks 2 and 4; z is judged relevant but not retrieved.
    const ranking = chunks('a', 'b', 'c', 'd', 'e');
    const judgments = [byChunk('b'), byChunk('d'), byChunk('z')];

    // Act
    const metrics = computeIrMetrics({ ranking, judgments, k: 5 });

    // Assess
    // P@5 = 2/5 = 0.4; recall = 2/3 = 0.6667; RR = 1/2.
    // DCG = 1/log2(3) + 1/log2(5) = 0.6309 + 0.4307 = 1.0616; IDCG = 1 + 1/log2(3) + 1/log2(4) = 2.1309;
    // nDCG = 1.0616 / 2.1309 = 0.4982.
    expect(metrics).toEqual({
      k: 5,
      judged_relevant: 3,
      retrieved_relevant: 2,
      precision_at_k: 0.4,
      recall_at_k: 0.6667,
      reciprocal_rank: 0.5,
      ndcg_at_k: 0.4982,
      hit: true,
    });
  });

  it('uses the grade as gain and builds the ideal ranking from every judged grade', () => {
    // Prepare: a (grade 1) at rank 1, c (grade 3) at rank 3; x (grade 2) is judged but not retrieved.
    const ranking = chunks('a', 'b', 'c');
    const judgments = [byChunk('a', 1), byChunk('c', 3), byChunk('x', 2)];

    // Act
    const metrics = computeIrMetrics({ ranking, judgments, k: 3 });

    // Assess
    // DCG = 1/log2(2) + 0/log2(3) + 3/log2(4) = 1 + 0 + 1.5 = 2.5.
    // IDCG over grades [3, 2, 1] = 3/1 + 2/log2(3) + 1/log2(4) = 3 + 1.2619 + 0.5 = 4.7619.
    // nDCG = 2.5 / 4.7619 = 0.5250.
    expect(metrics?.ndcg_at_k).toBe(0.525);
  });

  it('divides precision by k even when fewer than k results came back', () => {
    // Prepare
    const ranking = chunks('a');

    // Act
    const metrics = computeIrMetrics({ ranking, judgments: [byChunk('a')], k: 5 });

    // Assess: P@5 = 1/5; recall = 1/1; DCG = IDCG = 1, so nDCG = 1.
    expect(metrics).toEqual({
      k: 5,
      judged_relevant: 1,
      retrieved_relevant: 1,
      precision_at_k: 0.2,
      recall_at_k: 1,
      reciprocal_rank: 1,
      ndcg_at_k: 1,
      hit: true,
    });
  });

  it('scores zero everywhere when nothing relevant was retrieved', () => {
    // Prepare
    const ranking = chunks('a', 'b');

    // Act
    const metrics = computeIrMetrics({ ranking, judgments: [byChunk('z', 2)], k: 2 });

    // Assess
    expect(metrics).toEqual({
      k: 2,
      judged_relevant: 1,
      retrieved_relevant: 0,
      precision_at_k: 0,
      recall_at_k: 0,
      reciprocal_rank: 0,
      ndcg_at_k: 0,
      hit: false,
    });
  });

  it('scores zero everywhere for a judged query that returned nothing', () => {
    // Act
    const metrics = computeIrMetrics({ ranking: [], judgments: [byChunk('a')], k: 5 });

    // Assess
    expect(metrics).toMatchObject({
      retrieved_relevant: 0,
      precision_at_k: 0,
      recall_at_k: 0,
      ndcg_at_k: 0,
      hit: false,
    });
  });

  it('ignores relevant results ranked below k', () => {
    // Prepare: the only relevant chunk is at rank 3, the cut is 2.
    const ranking = chunks('a', 'b', 'c');

    // Act
    const metrics = computeIrMetrics({ ranking, judgments: [byChunk('c')], k: 2 });

    // Assess
    expect(metrics).toMatchObject({ retrieved_relevant: 0, reciprocal_rank: 0, hit: false });
  });

  it('keeps the order the index returned when scores tie', () => {
    // Prepare: a and b tie at 0.8; the relevant b was returned second, so it is at rank 2.
    const ranking = [
      { chunk_id: 'a', source_url: null, similarity_score: 0.8 },
      { chunk_id: 'b', source_url: null, similarity_score: 0.8 },
    ];

    // Act
    const metrics = computeIrMetrics({ ranking, judgments: [byChunk('b')], k: 2 });

    // Assess: RR = 1/2, not 1.
    expect(metrics?.reciprocal_rank).toBe(0.5);
  });

  it('credits a URL judgment once when the URL comes back in several chunks', () => {
    // Prepare: two chunks of the intro page (one with a fragment), then one of page b.
    const ranking: RankedItem[] = [
      { chunk_id: 'c1', source_url: `${BOOK}/intro` },
      { chunk_id: 'c2', source_url: `${BOOK}/intro/#setup` },
      { chunk_id: 'c3', source_url: `${BOOK}/b` },
    ];

    // Act
    const metrics = computeIrMetrics({ ranking, judgments: [byUrl('/docs/intro'), byUrl(`${BOOK}/b`)], k: 3 });

    // Assess: grades [1, 0, 1]. P@3 = 2/3 = 0.6667; recall = 2/2.
    // DCG = 1 + 0 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) = 1.6309; nDCG = 0.9197.
    expect(metrics).toEqual({
      k: 3,
      judged_relevant: 2,
      retrieved_relevant: 2,
      precision_at_k: 0.6667,
      recall_at_k: 1,
      reciprocal_rank: 1,
      ndcg_at_k: 0.9197,
      hit: true,
    });
  });

  it('counts a target judged twice once, at its higher grade', () => {
    // Act
    const metrics = computeIrMetrics({ ranking: chunks('a'), judgments: [byChunk('a', 1), byChunk('a', 3)], k: 1 });

    // Assess: one judged target; DCG = 3 = IDCG.
    expect(metrics).toMatchObject({ judged_relevant: 1, retrieved_relevant: 1, ndcg_at_k: 1 });
  });
  it('keeps the higher grade of a target judged twice, whichever comes first', () => {
    // Prepare: a judged 1 then 3, b judged 2; ranking b, a. With a at 3: DCG = 2 + 3/log2(3) = 3.8928,
    // IDCG = 3 + 2/log2(3) = 4.2619. Were a kept at 1, the ranking would be ideal (nDCG 1).
    const judgments = [byChunk('a', 1), byChunk('a', 3), byChunk('b', 2)];

    // Act
    const lowFirst = computeIrMetrics({ ranking: chunks('b', 'a'), judgments, k: 2 });
    const highFirst = computeIrMetrics({ ranking: chunks('b', 'a'), judgments: [...judgments].reverse(), k: 2 });

    // Assess
    expect([lowFirst?.ndcg_at_k, highFirst?.ndcg_at_k]).toEqual([0.9134, 0.9134]);
    expect(lowFirst?.judged_relevant).toBe(2);
  });

  it('cuts the ideal ranking at k, so one relevant result at rank 1 of k = 1 is a perfect nDCG', () => {
    // Prepare: three judged targets, only one can fit in the top 1.
    const judgments = [byChunk('a'), byChunk('b'), byChunk('c')];

    // Act
    const metrics = computeIrMetrics({ ranking: chunks('a', 'b', 'c'), judgments, k: 1 });

    // Assess
    expect(metrics).toMatchObject({ k: 1, precision_at_k: 1, recall_at_k: 0.3333, reciprocal_rank: 1, ndcg_at_k: 1 });
  });

  it('leaves a judgment of grade 0 out of the judged targets and the ideal ranking', () => {
    // Prepare: b is judged not relevant.
    const judgments = [byChunk('a'), byChunk('b', 0)];

    // Act
    const metrics = computeIrMetrics({ ranking: chunks('b', 'a'), judgments, k: 2 });

    // Assess: a at rank 2: DCG = 1/log2(3) = 0.6309 = nDCG, the ideal being a alone at rank 1.
    expect(metrics).toMatchObject({
      judged_relevant: 1,
      retrieved_relevant: 1,
      reciprocal_rank: 0.5,
      ndcg_at_k: 0.6309,
    });
  });

  it('returns null for a query whose every judgment has grade 0', () => {
    // Act
    const metrics = computeIrMetrics({ ranking: chunks('a'), judgments: [byChunk('a', 0)], k: 1 });

    // Assess
    expect(metrics).toBeNull();
  });

  it('computes at k = 1 and refuses a k under 1 or not whole', () => {
    // Prepare
    const judgments = [byChunk('a')];
    const at = (k: number) => () => computeIrMetrics({ ranking: chunks('a'), judgments, k });

    // Act / Assess
    expect(at(1)()).toMatchObject({ k: 1, hit: true });
    expect(at(0)).toThrow(new RangeError('computeIrMetrics: k must be a whole number >= 1, got 0'));
    expect(at(-1)).toThrow(RangeError);
    expect(at(1.5)).toThrow(new RangeError('computeIrMetrics: k must be a whole number >= 1, got 1.5'));
  });

  it('matches a URL judgment through the normalised URL, so a trailing slash still counts once', () => {
    // Prepare: the same page judged twice, written two ways, and a second chunk of it.
    const ranking: RankedItem[] = [
      { chunk_id: 'c1', source_url: `${BOOK}/intro` },
      { chunk_id: 'c2', source_url: `${BOOK}/intro` },
    ];

    // Act
    const metrics = computeIrMetrics({
      ranking,
      judgments: [byUrl(`${BOOK}/intro`, 2), byUrl(`${BOOK}/intro/`, 3)],
      k: 2,
    });

    // Assess: one target (grade 3), credited once.
    expect(metrics).toMatchObject({ judged_relevant: 1, retrieved_relevant: 1, ndcg_at_k: 1 });
  });
});

describe('gradeRanking', () => {
  it('gives a chunk the best judgment it matches and leaves the others to later chunks', () => {
    // Prepare: c1 matches both its chunk judgment (3) and the page judgment (1); c2 is on the same page.
    const ranking: RankedItem[] = [
      { chunk_id: 'c1', source_url: `${BOOK}/intro` },
      { chunk_id: 'c2', source_url: `${BOOK}/intro` },
      { chunk_id: 'c3', source_url: `${BOOK}/intro` },
    ];

    // Act
    const grades = gradeRanking({ ranking, judgments: [byUrl('/docs/intro', 1), byChunk('c1', 3)] });

    // Assess
    expect(grades).toEqual([3, 1, 0]);
  });
  it('gives a chunk matching two judgments of different grades the higher, in either order', () => {
    // Prepare
    const ranking: RankedItem[] = [{ chunk_id: 'c1', source_url: `${BOOK}/intro` }];

    // Act
    const urlFirst = gradeRanking({ ranking, judgments: [byUrl('/docs/intro', 1), byChunk('c1', 2)] });
    const chunkFirst = gradeRanking({ ranking, judgments: [byChunk('c1', 2), byUrl('/docs/intro', 1)] });
    const highFirst = gradeRanking({ ranking, judgments: [byUrl('/docs/intro', 3), byChunk('c1', 2)] });

    // Assess
    expect([urlFirst, chunkFirst, highFirst]).toEqual([[2], [2], [3]]);
  });

  it('gives a chunk matching two judgments of equal grade the first listed, leaving the other to a later chunk', () => {
    // Prepare: c1 matches its chunk judgment and the page judgment (both 2); c2 is on the same page.
    const ranking: RankedItem[] = [
      { chunk_id: 'c1', source_url: `${BOOK}/intro` },
      { chunk_id: 'c2', source_url: `${BOOK}/intro` },
    ];

    // Act
    const grades = gradeRanking({ ranking, judgments: [byChunk('c1', 2), byUrl('/docs/intro', 2)] });

    // Assess
    expect(grades).toEqual([2, 2]);
  });

  it('gives a chunk that matches no judgment grade 0 and takes nothing from later chunks', () => {
    // Act
    const grades = gradeRanking({ ranking: chunks('x', 'a'), judgments: [byChunk('a', 2)] });

    // Assess
    expect(grades).toEqual([0, 2]);
  });
});

describe('meanIrMetrics', () => {
  it('averages over judged queries only', () => {
    // Prepare: two judged queries and an unjudged one.
    const first = computeIrMetrics({ ranking: chunks('a', 'b'), judgments: [byChunk('b')], k: 2 });
    const second = computeIrMetrics({ ranking: chunks('a', 'b'), judgments: [byChunk('a'), byChunk('b')], k: 2 });

    // Act
    const mean = meanIrMetrics([first, null, second]);

    // Assess
    // first: P 1/2, R 1, RR 1/2, nDCG (1/log2(3)) / 1 = 0.6309, hit. second: P 1, R 1, RR 1, nDCG 1, hit.
    // Means: P 0.75, R 1, MRR 0.75, nDCG (0.6309 + 1) / 2 = 0.81545 -> 0.8155 (from the rounded 0.6309), hit rate 1.
    expect(mean).toEqual({
      judged_queries: 2,
      overall_precision: 0.75,
      overall_recall: 1,
      mrr: 0.75,
      ndcg_at_k: 0.8155,
      hit_rate: 1,
    });
  });

  it('counts a judged query with no results as zero', () => {
    // Prepare
    const found = computeIrMetrics({ ranking: chunks('a'), judgments: [byChunk('a')], k: 1 });
    const nothing = computeIrMetrics({ ranking: [], judgments: [byChunk('a')], k: 1 });

    // Act
    const mean = meanIrMetrics([found, nothing]);

    // Assess: (1 + 0) / 2 everywhere.
    expect(mean).toEqual({
      judged_queries: 2,
      overall_precision: 0.5,
      overall_recall: 0.5,
      mrr: 0.5,
      ndcg_at_k: 0.5,
      hit_rate: 0.5,
    });
  });

  it('reports null means when no query was judged', () => {
    // Act
    const mean = meanIrMetrics([null, null]);

    // Assess
    expect(mean).toEqual({
      judged_queries: 0,
      overall_precision: null,
      overall_recall: null,
      mrr: null,
      ndcg_at_k: null,
      hit_rate: null,
    });
  });
});
