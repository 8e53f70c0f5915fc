import { describe, expect, it } from 'vitest';
import { moduleKey, moduleNameOf, moduleSlugOf } from '../../../functions/core/book/module-name.ts';

describe('moduleNameOf', () => {
  it('gives the seed’s "Module N Name" form for both folder spellings', () => {
    expect(['module1-ros2', 'module-1-ros2'].map(moduleNameOf)).toEqual(['Module 1 Ros2', 'Module 1 Ros2']);
  });

  it('names a top-level page by its id, not its title', () => {
    expect(['intro', 'quick-reference', 'module_3_nvidia_isaac'].map(moduleNameOf)).toEqual([
      'Intro',
      'Quick Reference',
      'Module 3 Nvidia Isaac',
    ]);
  });

  it('keeps module11 and module1-1 apart', () => {
    expect([moduleNameOf('module11'), moduleNameOf('module1-1')]).toEqual(['Module 11', 'Module 1 1']);
  });
});

describe('moduleKey', () => {
  it('gives one key for the slug, the stored name and the seed’s form', () => {
    const keys = ['module1-ros2', 'Module 1 Ros2', 'module-1-ros2', 'Module 1: ROS 2'].map(moduleKey);

    expect(new Set(keys)).toEqual(new Set(['module 1 ros 2']));
  });

  it('gives "Module 11" and "Module 1 1" different keys', () => {
    expect(moduleKey('Module 11')).not.toBe(moduleKey('Module 1 1'));
  });
});

describe('moduleSlugOf', () => {
  it('is the first segment of a chapter id, or a top-level page’s id', () => {
    expect([moduleSlugOf('module1-ros2/ch1'), moduleSlugOf('intro'), moduleSlugOf('')]).toEqual([
      'module1-ros2',
      'intro',
      '',
    ]);
  });
});

describe('module names at the edges', () => {
  it('ignores separators at the ends of a slug, and gives nothing for an empty one', () => {
    expect(moduleNameOf('-quick-reference-')).toBe('Quick Reference');
    expect(moduleNameOf('')).toBe('');
  });

  it('splits a number only from the end of a leading word made of letters then digits', () => {
    expect(moduleNameOf('v2module1')).toBe('V2module1');
    expect(moduleNameOf('module1a')).toBe('Module1a');
  });

  it('skips a leading slash to find the module folder, and gives nothing for an empty chapter id', () => {
    expect(moduleSlugOf('/module1-ros2/ch1')).toBe('module1-ros2');
    expect(moduleSlugOf('')).toBe('');
  });
});
