import { describe, expect, it } from 'vitest';
import { deriveModules, describeModules, detectContentRoot } from '../../../functions/core/book/book-modules.ts';

const page = (file: string) => ({
  file,
  docId: file.replace(/\.mdx?$/, ''),
  label: file,
  folderIndex: /(^|\/)index\.mdx?$/.test(file),
});

describe('detectContentRoot', () => {
  it('stays at the docs folder when it is flat, or when its only folder is not divided', () => {
    expect(detectContentRoot(['a.md', 'b.md'])).toBe('');
    expect(detectContentRoot(['intro.md', 'guides/a.md', 'guides/b.md'])).toBe('');
    expect(detectContentRoot(['intro.md', 'x/a.md', 'y/b.md'])).toBe('');
  });

  it('steps into the one folder that holds the book under top-level site pages, as deep as it goes', () => {
    expect(detectContentRoot(['privacy.md', 'terms.md', 'book/x/a.md', 'book/y/b.md', 'book/y/c.md'])).toBe('book');
    expect(detectContentRoot(['site/book/x/a.md', 'site/book/y/b.md', 'site/book/y/c.md'])).toBe('site/book');
  });

  it('does not step into a folder holding no more pages than sit beside it', () => {
    expect(detectContentRoot(['a.md', 'b.md', 'c.md', 'book/x/a.md', 'book/y/b.md', 'book/y/c.md'])).toBe('');
    expect(detectContentRoot(['a.md', 'b.md', 'book/x/a.md', 'book/y/b.md', 'book/y/c.md'])).toBe('book');
  });
});

describe('deriveModules', () => {
  const files = ['privacy.md', 'book/intro.md', 'book/01-hw/index.md', 'book/01-hw/gpu.md', 'book/sim/a.md'];

  it('labels by _category_, then the index page, then the folder in seed form; site pages get none', () => {
    const labels = new Map<string, string | null>([
      ['book/sim', 'Simulation Twin'],
      ['book/01-hw', null],
    ]);
    const pages = files.map(page).map((p) => (p.folderIndex ? { ...p, label: 'Compute Hardware' } : p));
    const modules = deriveModules(pages, { categoryLabels: labels, sidebars: null, root: null });
    expect(Object.fromEntries(modules.moduleOf)).toEqual({
      'privacy.md': '',
      'book/intro.md': '',
      'book/01-hw/index.md': 'Compute Hardware',
      'book/01-hw/gpu.md': 'Compute Hardware',
      'book/sim/a.md': 'Simulation Twin',
    });
    expect(describeModules(modules)).toBe(
      'modules from the folders under book/: Compute Hardware (2), Simulation Twin (1); 2 page(s) in no module',
    );
  });

  it('uses the sidebars, unless a root is given; a page in no sidebar has no module', () => {
    const sidebars = { s: [{ 'Hand Made': ['book/sim/a', { type: 'ref', id: 'book/hw/gpu' }] }] };
    const bySidebar = deriveModules(files.map(page), { categoryLabels: new Map(), sidebars, root: null });
    expect(bySidebar.moduleOf.get('book/sim/a.md')).toBe('Hand Made');
    expect(bySidebar.moduleOf.get('book/01-hw/gpu.md')).toBe('');
    expect(bySidebar.moduleOf.get('book/intro.md')).toBe('');
    expect(describeModules(bySidebar)).toBe('modules from the sidebars file: Hand Made (1); 4 page(s) in no module');
    const byRoot = deriveModules(files.filter((f) => !f.endsWith('index.md')).map(page), {
      categoryLabels: new Map(),
      sidebars,
      root: 'book',
    });
    expect(byRoot.moduleOf.get('book/01-hw/gpu.md')).toBe('Hw');
    expect(describeModules(byRoot)).toContain('(given)');
  });
});
