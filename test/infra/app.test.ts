/**
 * The CDK app as `cdk synth` runs it (`node infra/app.ts`, context in CDK_CONTEXT_JSON): bad context is one message
 * listing every problem, with no stack trace after it, and a failing exit code.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');

function synth(context: Record<string, unknown>) {
  return spawnSync(process.execPath, [path.join(ROOT, 'infra', 'app.ts')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      CDK_CONTEXT_JSON: JSON.stringify(context),
      CDK_OUTDIR: mkdtempSync(path.join(tmpdir(), 'ragwatch-app-')),
    },
  });
}

describe('node infra/app.ts', () => {
  it('prints missing context as one message, every problem listed, no stack trace, and exits 1', () => {
    // Act
    const { status, stderr } = synth({});

    // Assess
    expect(status).toBe(1);
    expect(stderr).toBe(
      [
        'CDK context is invalid:',
        '  - qdrantUrl: required (the Qdrant base URL the function searches)',
        '  - docusaurusBaseUrl: required (the book’s base URL, for its sitemap)',
        '  - alertEmails: required (at least one address; without one, no alert reaches anybody)',
        '  - suiteS3Uri or suitePath: required (your suite: `ragwatch suite generate`, then `ragwatch calibrate`)',
        '  - cohereSecret: required (the name or ARN of the Secrets Manager secret holding the Cohere API key)',
        '',
      ].join('\n'),
    );
  });

  it('says a suite path that does not exist in one line, without a stack trace', () => {
    // Act
    const { status, stderr } = synth({
      sandbox: true,
      qdrantUrl: 'https://qdrant.example.org',
      docusaurusBaseUrl: 'https://book.example.org',
      cohereSecret: 'ragwatch/cohere',
      suitePath: 'suites/missing.json',
    });

    // Assess
    expect(status).toBe(1);
    expect(stderr).toMatch(/^suitePath: suites\/missing\.json does not exist under .+\n$/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
