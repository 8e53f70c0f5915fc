import { describe, expect, it } from 'vitest';
import type { FacetHit } from '../../../functions/core/ports.ts';
import {
  type BookCatalog,
  describeUnknown,
  namesModulesOrChapters,
  readBookCatalog,
  resolveChapter,
  resolveModule,
} from '../../../functions/core/queries/catalog.ts';
import { buildPayloadFilter } from '../../../functions/core/queries/filters.ts';
import { resolveQueries, validateSuite } from '../../../functions/core/suite/suite.ts';
import { MemoryIndex, type MemoryPoint } from '../../fakes/memory-index.ts';

const CATALOG: BookCatalog = {
  modules: ['Intro', 'Module 1 Ros2', 'Module 11', 'Quick Reference'],
  chapters: ['intro', 'module1-ros2/ch1-basics', 'module11/ch1-basics', 'quick-reference'],
};

describe('resolveModule', () => {
  it.each(['module1-ros2', 'Module 1 Ros2', 'Module 1: ROS 2'])('resolves %s to the stored name', (name) => {
    expect(resolveModule(name, CATALOG)).toEqual({ field: 'module_name', values: ['Module 1 Ros2'] });
  });

  it('resolves a top-level page’s id to its module', () => {
    expect(resolveModule('quick-reference', CATALOG)).toEqual({ field: 'module_name', values: ['Quick Reference'] });
  });

  it('does not resolve "Module 1 1" to "Module 11"', () => {
    expect(resolveModule('Module 1 1', CATALOG)).toBeNull();
  });

  it('falls back to the chapters of a module folder when module_name was written by another rule', () => {
    const old: BookCatalog = { modules: ['Course Introduction'], chapters: ['intro'] };

    expect(resolveModule('intro', old)).toEqual({ field: 'chapter_id', values: ['intro'] });
  });
});

describe('resolveChapter', () => {
  it('resolves a bare chapter id to every stored chapter it ends', () => {
    expect(resolveChapter('ch1-basics', CATALOG)).toEqual(['module1-ros2/ch1-basics', 'module11/ch1-basics']);
  });
});

describe('describeUnknown', () => {
  it('names the unknown module and lists the known ones', () => {
    expect(describeUnknown('module', 'Module 5 Locomotion', CATALOG)).toBe(
      "module 'Module 5 Locomotion' is not in the index (known modules: Intro, Module 1 Ros2, Module 11, Quick Reference)",
    );
  });
});

describe('buildPayloadFilter with the catalog', () => {
  it('sends the stored module name for the folder slug', () => {
    expect(buildPayloadFilter({ module: 'module1-ros2' }, CATALOG)).toEqual({
      filter: { must: [{ key: 'module_name', match: { value: 'Module 1 Ros2' } }] },
      unknown: [],
    });
  });

  it('sends every stored chapter a bare chapter id names', () => {
    expect(buildPayloadFilter({ chapter: 'ch1-basics' }, CATALOG).filter).toEqual({
      must: [{ key: 'chapter_id', match: { any: ['module1-ros2/ch1-basics', 'module11/ch1-basics'] } }],
    });
  });

  it('reports a module the index does not have instead of filtering on it', () => {
    expect(buildPayloadFilter({ module: 'Module 5 Locomotion', url: 'https://b/x' }, CATALOG)).toEqual({
      filter: { must: [{ key: 'source_url', match: { value: 'https://b/x' } }] },
      unknown: [describeUnknown('module', 'Module 5 Locomotion', CATALOG)],
    });
  });

  it('sends values as written without a catalog', () => {
    expect(buildPayloadFilter({ module: 'module1-ros2' }).filter).toEqual({
      must: [{ key: 'module_name', match: { value: 'module1-ros2' } }],
    });
  });
});

describe('namesModulesOrChapters', () => {
  const queries = (query: Record<string, unknown>) =>
    resolveQueries(
      validateSuite({ queries: [{ query_text: 'What is ROS 2?' }, { query_text: 'q', ...query }] }, 'suite.json').suite,
    );

  it('is false when no query names a module or a chapter', () => {
    expect(namesModulesOrChapters(queries({}))).toBe(false);
  });

  it.each([
    ['a module filter', { filters: { module: 'module1-ros2' } }],
    ['a chapter filter', { filters: { chapter: 'ch1-basics' } }],
    ['an expected module', { expected_module: 'module1-ros2' }],
    ['an expected chapter', { expected_chapter: 'ch1-basics' }],
  ])('is true when a query has %s', (_, query) => {
    expect(namesModulesOrChapters(queries(query))).toBe(true);
  });
});

describe('readBookCatalog', () => {
  const points: MemoryPoint[] = [
    { id: '1', payload: { module_name: 'Module 2', chapter_id: 'module2/ch1' } },
    { id: '2', payload: { module_name: 'Module 1', chapter_id: 'module1/ch2' } },
    { id: '3', payload: { module_name: 'Module 1', chapter_id: 'module1/ch1' } },
    { id: '4', payload: { module_name: '', chapter_id: 7 } },
    { id: '5', payload: {} },
  ];
  const indexed = { payloadIndexes: { module_name: 'keyword', chapter_id: 'keyword' } };
  const expected = { modules: ['Module 1', 'Module 2'], chapters: ['module1/ch1', 'module1/ch2', 'module2/ch1'] };

  it('reads the distinct stored names by facets when both fields have keyword indexes, sorted, dropping non-names', async () => {
    const index = new MemoryIndex(points, indexed);
    expect(await readBookCatalog({ index, info: index.info, pageSize: 2 })).toEqual(expected);
    expect(index.calls).toEqual(['facet', 'facet']);
  });

  it.each([
    ['no payload index', {}],
    ['only module_name indexed', { module_name: 'keyword' }],
    ['only chapter_id indexed', { chapter_id: 'keyword' }],
    ['a text index', { module_name: 'text', chapter_id: 'keyword' }],
  ])('reads the same catalog by one scroll with %s', async (_, payloadIndexes) => {
    const index = new MemoryIndex(points, { payloadIndexes });
    expect(await readBookCatalog({ index, info: index.info, pageSize: 2 })).toEqual(expected);
    expect(index.calls.every((c) => c === 'scroll')).toBe(true);
    expect(index.calls.length).toBeGreaterThan(0);
  });

  /** An index whose facet on one field returns exactly `size` values: the facet's limit, so possibly cut. */
  class FullFacetIndex extends MemoryIndex {
    readonly full: string;
    readonly size: number;
    constructor(full: string, size: number) {
      super(points, indexed);
      this.full = full;
      this.size = size;
    }
    override async facet(key: string, limit: number): Promise<FacetHit[]> {
      if (key !== this.full) return super.facet(key, limit);
      this.calls.push('facet');
      return Array.from({ length: Math.min(this.size, limit) }, (_, i) => ({ value: `v${i}`, count: 1 }));
    }
  }

  it.each(['module_name', 'chapter_id'])(
    'falls back to the scroll when the %s facet reaches its 10,000 limit',
    async (field) => {
      const index = new FullFacetIndex(field, 10_000);
      expect(await readBookCatalog({ index, info: index.info, pageSize: 2 })).toEqual(expected);
      expect(index.calls).toContain('scroll');
    },
  );

  it('trusts a facet one value under its limit', async () => {
    const index = new FullFacetIndex('module_name', 9_999);
    const catalog = await readBookCatalog({ index, info: index.info, pageSize: 2 });
    expect(catalog.modules).toHaveLength(9_999);
    expect(index.calls).not.toContain('scroll');
  });
});

describe('resolveModule: what a name cannot mean', () => {
  it('resolves a name with no letter or digit to nothing, even when a stored name has none either', () => {
    expect(resolveModule('---', { modules: ['***'], chapters: ['-/x'] })).toBeNull();
  });

  it('resolves a module with several stored spellings to each of them', () => {
    const catalog: BookCatalog = { modules: ['Module 1 Ros2', 'module1-ros2', 'Module 2'], chapters: [] };
    expect(resolveModule('Module 1: ROS 2', catalog)).toEqual({
      field: 'module_name',
      values: ['Module 1 Ros2', 'module1-ros2'],
    });
  });

  it('resolves a name the index has neither as a module nor as a chapter folder to nothing', () => {
    expect(resolveModule('Module 5 Locomotion', CATALOG)).toBeNull();
  });
});

describe('resolveChapter: what it cannot find', () => {
  it('resolves a chapter the index lacks to no stored id', () => {
    expect(resolveChapter('ch9-gone', CATALOG)).toEqual([]);
  });
});

describe('describeUnknown: long and empty catalogs', () => {
  it('lists the first 20 known chapters and counts the rest', () => {
    const chapters = Array.from({ length: 23 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    expect(describeUnknown('chapter', 'x', { modules: [], chapters })).toBe(
      `chapter 'x' is not in the index (known chapters: ${chapters.slice(0, 20).join(', ')} and 3 more)`,
    );
  });

  it('lists exactly 20 known names without counting more', () => {
    const modules = Array.from({ length: 20 }, (_, i) => `m${i}`);
    expect(describeUnknown('module', 'x', { modules, chapters: ['c'] })).toBe(
      `module 'x' is not in the index (known modules: ${modules.join(', ')})`,
    );
  });

  it('says none when the index has no names at all', () => {
    expect(describeUnknown('module', 'x', { modules: [], chapters: ['c'] })).toBe(
      "module 'x' is not in the index (known modules: none)",
    );
  });
});
