/**
 * The Lambda's HTML report links "Act on this first" to the docs where the stack says they are (DOCS_URL, from the
 * `docsUrl` context), through the real handler and S3 client against the stand-in; without it the paths are text.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps, type NightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { buildFailedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { useAwsStandIns } from './stand-in-clients.ts';

const standIns = useAwsStandIns('co-key-for-the-docs-links-test');

async function reportHtml(env: Record<string, string>): Promise<string> {
  const config = parseNightlyConfig({
    QDRANT_URL: 'http://127.0.0.1:6333',
    QDRANT_COLLECTION: 'book',
    DOCUSAURUS_BASE_URL: 'https://book.example.org',
    REPORT_BUCKET: standIns.aws.bucket,
    ALERT_TOPIC_ARN: standIns.aws.topicArn,
    COHERE_SECRET_ID: 'ragwatch/cohere',
    SUITE_PATH: path.resolve(import.meta.dirname, 'fixtures/suite.json'),
    ...env,
  });
  // A run with one finding, so "Act on this first" has something to link.
  const runEngine: NightlyDeps['runEngine'] = async (_engine, run) => {
    const runId = run.newId();
    const finding = {
      id: '00000000-0000-4000-8000-0000000000e1',
      validation_id: runId,
      error_type: 'COVERAGE_GAP' as const,
      message: '25 of 27 sitemap pages are not indexed',
      severity: 'HIGH' as const,
      details: {},
    };
    return { ...buildFailedReport(), run_id: runId, errors: [finding] };
  };
  await createHandler({ ...createNightlyDeps(config, standIns.clients, new RecordingLogger()), runEngine })(
    {},
    { awsRequestId: 'r' },
  );
  return (await standIns.aws.readObject('reports/book/latest.html')) ?? '';
}

describe('the Lambda’s HTML report and the docs', () => {
  it('links each finding’s docs section under DOCS_URL', async () => {
    const html = await reportHtml({ DOCS_URL: 'https://git.internal/platform/ragwatch/blob/main' });
    expect(html).toContain('<section id="act-first" class="act">');
    expect(html).toContain(
      '<a class="docs" href="https://git.internal/platform/ragwatch/blob/main/README.md#indexing-and-what-each-point-carries"',
    );
  });

  it('names the docs sections as text without it', async () => {
    const html = await reportHtml({});
    expect(html).toContain('<span class="muted">docs: README.md § indexing-and-what-each-point-carries</span>');
    expect(html).not.toContain('class="docs"');
  });

  it('refuses a DOCS_URL that is not an http(s) URL, naming it', () => {
    expect(() =>
      parseNightlyConfig({
        QDRANT_URL: 'http://127.0.0.1:6333',
        QDRANT_COLLECTION: 'book',
        DOCUSAURUS_BASE_URL: 'https://book.example.org',
        REPORT_BUCKET: 'ragwatch-reports',
        ALERT_TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:alerts',
        COHERE_SECRET_ID: 'ragwatch/cohere',
        DOCS_URL: 'javascript:alert(1)',
      }),
    ).toThrow('DOCS_URL: must be an http(s) URL, got "javascript:alert(1)"');
  });
});
