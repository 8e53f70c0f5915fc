import { describe, expect, it } from 'vitest';
import {
  type BookCatalog,
  describeUnknown,
  resolveChapter,
  resolveModule,
} from '../../../functions/core/queries/catalog.ts';
import { buildPayloadFilter } from '../../../functions/core/queries/filters.ts';

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
