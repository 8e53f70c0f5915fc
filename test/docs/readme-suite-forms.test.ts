/** README's examples of the seeds' suite forms load as written, in the form they claim. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSuiteFile } from '../../functions/core/suite/suite.ts';

const README = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf("### The seeds' suite forms"));
const example = (lang: string) => SECTION.match(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``))?.[1] ?? '';

describe("README's suite form examples", () => {
  it('loads the seed 003 request example as the request form', () => {
    expect(parseSuiteFile(example('json'), 'readme.json').form).toBe('request-003');
  });

  it('loads the seed 004 benchmark example as the benchmark form', () => {
    expect(parseSuiteFile(example('yaml'), 'readme.yaml').form).toBe('benchmark-004');
  });
});
