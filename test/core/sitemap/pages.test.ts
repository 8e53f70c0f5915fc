/** The sitemap's pages coverage counts: under the prefix on segment boundaries, listings and excluded paths left out. */
import { describe, expect, it } from 'vitest';
import {
  isExcluded,
  isGeneratedListing,
  isUnderPrefix,
  pagesUnderPrefix,
} from '../../../functions/core/sitemap/pages.ts';

describe('isExcluded', () => {
  it('matches a path whatever trailing slashes it or the entry carries', () => {
    expect(isExcluded('/markdown-page//', ['/markdown-page'])).toBe(true);
    expect(isExcluded('/markdown-page', ['/markdown-page//'])).toBe(true);
    expect(isExcluded('/markdown-pages', ['/markdown-page'])).toBe(false);
  });

  it('takes everything under an entry ending in /**, and the whole site for /** alone', () => {
    expect(isExcluded('/blog/2026/post', ['/blog/**'])).toBe(true);
    expect(isExcluded('/blogroll', ['/blog/**'])).toBe(false);
    expect(isExcluded('/anything/at/all', ['/**'])).toBe(true);
  });
});

describe('isGeneratedListing', () => {
  it('finds the tags index, a tag page and a generated category page under the docs, with any slashes', () => {
    expect(isGeneratedListing('/docs/tags', '/docs/')).toBe(true);
    expect(isGeneratedListing('/docs//tags', '/docs//')).toBe(true);
    expect(isGeneratedListing('/docs/tags/ros2//', '/docs/')).toBe(true);
    expect(isGeneratedListing('/docs/category/basics', '/docs')).toBe(true);
  });

  it('leaves a page whose path only contains tags or category, or goes deeper, as a page', () => {
    expect(isGeneratedListing('/docs/mytags', '/docs/')).toBe(false);
    expect(isGeneratedListing('/docs/guide/tags', '/docs/')).toBe(false);
    expect(isGeneratedListing('/docs/tags/a/b', '/docs/')).toBe(false);
    expect(isGeneratedListing('/docs/category/a/b', '/docs/')).toBe(false);
    expect(isGeneratedListing('/docs/guide/category/a', '/docs/')).toBe(false);
    expect(isGeneratedListing('/blog/tags', '/docs/')).toBe(false);
  });
});

describe('isUnderPrefix', () => {
  it('cuts on segment boundaries, and the root prefix takes everything', () => {
    expect(isUnderPrefix('/docs', '/docs/')).toBe(true);
    expect(isUnderPrefix('/docs/intro', '/docs')).toBe(true);
    expect(isUnderPrefix('/docsearch', '/docs/')).toBe(false);
    expect(isUnderPrefix('docs', '/')).toBe(true);
  });
});

describe('pagesUnderPrefix', () => {
  it('gives each page under the prefix once, without listings or excluded paths', () => {
    const sitemap = [
      'https://b.example/docs/intro',
      'https://b.example/docs/intro',
      'https://b.example/docs/tags',
      'https://b.example/docs/private/x',
      'https://b.example/blog/post',
      ' ',
    ];
    expect(pagesUnderPrefix(sitemap, '/docs/', ['/docs/private/**'])).toEqual(['https://b.example/docs/intro']);
    expect(pagesUnderPrefix(sitemap, '/docs/')).toEqual([
      'https://b.example/docs/intro',
      'https://b.example/docs/private/x',
    ]);
  });
});
