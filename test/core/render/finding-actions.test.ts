/**
 * "Act on this first" sends a person to a docs section at 3 a.m.: every target must exist (the file, and a heading
 * whose GitHub anchor is the one linked), and every finding type must have one line of what to do.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FINDING_ACTIONS } from '../../../functions/core/render/finding-actions.ts';
import { ERROR_TYPES } from '../../../functions/core/report/findings.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** GitHub's heading anchor: lower case, punctuation but '-' and '_' dropped, each space a '-'. */
function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a markdown file's headings (outside fenced code), a repeated one suffixed as GitHub does. */
function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path.join(ROOT, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (heading === null) continue;
    const slug = githubSlug(heading[1] as string);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

describe('FINDING_ACTIONS', () => {
  it('computes GitHub’s anchors for the headings it links to', () => {
    expect(githubSlug('Index health: the rot coverage and completeness cannot see')).toBe(
      'index-health-the-rot-coverage-and-completeness-cannot-see',
    );
    expect(githubSlug('1. One deadline per run')).toBe('1-one-deadline-per-run');
    expect(githubSlug('The run’s status')).toBe('the-runs-status');
    expect(githubSlug('Detectors (`functions/core/regression/`, one file each)')).toBe(
      'detectors-functionscoreregression-one-file-each',
    );
  });

  it('finds a heading that exists and not one that does not', () => {
    const anchors = anchorsOf('README.md');
    expect(anchors.has('the-suite-format')).toBe(true);
    expect(anchors.has('the-suite-formats')).toBe(false);
  });

  it('links every finding type to a docs file and heading that exist', () => {
    const missing = Object.entries(FINDING_ACTIONS).flatMap(([type, { doc }]) => {
      const [file, anchor] = doc.split('#') as [string, string | undefined];
      if (!/^(README\.md|docs\/[A-Z-]+\.md)$/.test(file)) return [`${type}: ${doc} is not README.md or docs/*.md`];
      if (anchor === undefined) return [`${type}: ${doc} names no heading`];
      return anchorsOf(file).has(anchor) ? [] : [`${type}: no heading #${anchor} in ${file}`];
    });
    expect(missing).toEqual([]);
  });

  it('says what to do for every finding type, in one line', () => {
    expect(Object.keys(FINDING_ACTIONS).sort()).toEqual([...ERROR_TYPES].sort());
    for (const { action } of Object.values(FINDING_ACTIONS)) {
      expect(action).toMatch(/^[A-Z].*\.$/);
      expect(action).not.toContain('\n');
      expect(action.length).toBeLessThanOrEqual(140);
    }
  });
});
