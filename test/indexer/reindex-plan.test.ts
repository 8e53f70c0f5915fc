import { describe, expect, it } from 'vitest';
import { type PlannedChunk, planReindex, type StoredPoint } from '../../functions/indexer/reindex-plan.ts';

const MODEL = 'embed-english-v3.0';
const chunk = (id: string, url = 'u/a', contentHash = `h-${id}`, pageHash = 'p1'): PlannedChunk => ({
  id,
  sourceUrl: url,
  contentHash,
  pageHash,
  pageVersion: `${url} ${pageHash} 2`,
});
const stored = (
  url: string,
  contentHash: string,
  pageHash = 'p1',
  model = MODEL,
  pageVersion = `${url} ${pageHash} 2`,
): StoredPoint => ({
  sourceUrl: url,
  contentHash,
  pageHash,
  pageVersion,
  model,
});

describe('planReindex', () => {
  it('writes new and changed chunks and keeps the unchanged ones', () => {
    const plan = planReindex({
      chunks: [chunk('1'), chunk('2'), chunk('3')],
      stored: new Map([
        ['1', stored('u/a', 'h-1')],
        ['2', stored('u/a', 'old text')],
      ]),
      model: MODEL,
      prune: false,
    });
    expect([plan.toWrite.map((c) => c.id), plan.unchanged.map((c) => c.id)]).toEqual([['2', '3'], ['1']]);
  });

  it('finds a moved chunk’s vector by its text hash, of the same model only', () => {
    // Prepare: chunk 2 now holds what point 1 held; chunk 3's text is stored only from another model.
    const points = new Map([
      ['1', stored('u/a', 'h-moved')],
      ['9', stored('u/a', 'h-old', 'p1', 'embed-english-v2.0')],
    ]);

    // Act
    const plan = planReindex({
      chunks: [chunk('1', 'u/a', 'h-new'), chunk('2', 'u/a', 'h-moved'), chunk('3', 'u/a', 'h-old')],
      stored: points,
      model: MODEL,
      prune: false,
    });

    // Assess
    expect(plan.moved.map((m) => [m.chunk.id, m.fromId])).toEqual([['2', '1']]);
    expect(plan.toWrite.map((c) => c.id)).toEqual(['1', '3']);
    expect(plan.toDelete).toEqual(['9']);
  });

  it('re-embeds a chunk whose stored vector came from another model', () => {
    const plan = planReindex({
      chunks: [chunk('1')],
      stored: new Map([['1', stored('u/a', 'h-1', 'p1', 'embed-english-v2.0')]]),
      model: MODEL,
      prune: false,
    });
    expect(plan.toWrite.map((c) => c.id)).toEqual(['1']);
  });

  it('deletes a re-indexed page’s leftovers but keeps other pages’ points unless pruning', () => {
    const points = new Map([
      ['1', stored('u/a', 'h-1')],
      ['9', stored('u/a', 'h-9')],
      ['7', stored('u/gone', 'h-7')],
    ]);
    const kept = planReindex({ chunks: [chunk('1')], stored: points, model: MODEL, prune: false });
    const pruned = planReindex({ chunks: [chunk('1')], stored: points, model: MODEL, prune: true });
    expect([kept.toDelete, pruned.toDelete]).toEqual([['9'], ['9', '7']]);
    // The page kept without prune is named, so `index` can warn that coverage will count it as an orphan.
    expect([kept.keptGonePages, pruned.keptGonePages]).toEqual([['u/gone'], []]);
  });

  it('gives unchanged chunks of an edited page its new page hash, grouped by page', () => {
    const plan = planReindex({
      chunks: [chunk('1', 'u/a', 'h-1', 'p2'), chunk('2', 'u/a', 'h-2', 'p2')],
      stored: new Map([
        ['1', stored('u/a', 'h-1', 'p1')],
        ['2', stored('u/a', 'h-2', 'p2')],
      ]),
      model: MODEL,
      prune: false,
    });
    expect([...plan.pageVersionUpdates]).toEqual([['u/a p2 2', { pageHash: 'p2', ids: ['1'] }]]);
  });

  it('gives unchanged chunks stored without a page version (or another one) their page’s, by page', () => {
    const plan = planReindex({
      chunks: [chunk('1'), chunk('2'), chunk('3', 'u/b')],
      stored: new Map([
        ['1', { ...stored('u/a', 'h-1'), pageVersion: undefined }],
        ['2', stored('u/a', 'h-2', 'p1', MODEL, 'u/a p1 3')],
        ['3', stored('u/b', 'h-3')],
      ]),
      model: MODEL,
      prune: false,
    });
    expect([...plan.pageVersionUpdates]).toEqual([['u/a p1 2', { pageHash: 'p1', ids: ['1', '2'] }]]);
  });
});
