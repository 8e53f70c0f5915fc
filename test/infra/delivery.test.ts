/**
 * What the stack ships, in the synthesized template and its bundled asset: the AWS SDK inside the bundle at the
 * versions package.json pins (not the Lambda runtime's), no sample suite beside the handler when the suite is in S3,
 * the suite's threshold lines on the dashboard from context when the suite is in S3, and a links row at the top of
 * the dashboard (the reports in S3, the last day's warnings and errors in Logs Insights).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { buildNightlyApp } from '../../infra/nightly-app.ts';

const outdir = mkdtempSync(path.join(tmpdir(), 'ragwatch-delivery-'));
// Synthesized (and bundled) while the file loads: longer than a hook may take on a busy machine.
const { app, stack } = buildNightlyApp({
  outdir,
  context: {
    sandbox: true,
    qdrantUrl: 'https://qdrant.internal.example:6333',
    docusaurusBaseUrl: 'https://book.example.org',
    cohereSecret: 'ragwatch/cohere',
    alertEmails: ['ops@example.org'],
    suiteS3Uri: 's3://acme-suites/book/suite.json',
    minMrr: '0.6',
    maxP95LatencyMs: '1500',
    minGroundedRate: 92,
  },
});
app.synth();
const template = Template.fromStack(stack);
const assetDir = readdirSync(outdir)
  .filter((d) => d.startsWith('asset.'))
  .map((d) => path.join(outdir, d))
  .find((d) => readdirSync(d).includes('index.mjs'));
if (assetDir === undefined) throw new Error('no bundled handler in the cloud assembly');
const bundle = readFileSync(path.join(assetDir, 'index.mjs'), 'utf8');
const dashboard = Object.values(template.findResources('AWS::CloudWatch::Dashboard'))[0];
const bodyParts = dashboard?.Properties.DashboardBody['Fn::Join'][1] as unknown[];
const body = JSON.parse(bodyParts.map((p) => (typeof p === 'string' ? p : 'TOKEN')).join('')) as {
  widgets: {
    type: string;
    properties: { markdown?: string; annotations?: { horizontal?: { label: string; value: number }[] } };
  }[];
};

afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

describe('the bundle', () => {
  it('carries the AWS SDK itself: no import of @aws-sdk is left for the runtime to resolve', () => {
    // An import or require of an SDK package, not one quoted inside an error message ("[require(...)]").
    const imports = [...bundle.matchAll(/(?<![[\w])(from|import|require)\s*\(?\s*["']@aws-sdk\/[^"']*/g)].map(
      (m) => m[0],
    );
    expect(imports).toEqual([]);
    // SNS's API version, sent with every Publish: the client's own code is in the file.
    expect(bundle.includes('"2010-03-31"')).toBe(true);
  });

  it('carries the SDK clients at the versions package.json pins', () => {
    const pinned = JSON.parse(readFileSync('package.json', 'utf8')).dependencies as Record<string, string>;
    for (const client of ['@aws-sdk/client-sns', '@aws-sdk/client-s3', '@aws-sdk/client-cloudwatch']) {
      const installed = JSON.parse(readFileSync(`node_modules/${client}/package.json`, 'utf8')).version as string;
      expect(installed).toBe(pinned[client]);
      // The client's user agent names its package and version, so the bundle holds the installed one.
      expect(bundle.includes(`"${installed}"`), `${client} ${installed} in the bundle`).toBe(true);
    }
  });

  it('ships no suite beside the handler when the suite is in S3', () => {
    expect(readdirSync(assetDir)).not.toContain('suite.json');
  });

  it("ships WordNet's licence notice all the same", () => {
    expect(readdirSync(assetDir)).toContain('WORDNET-NOTICE.md');
  });
});

describe('the dashboard, with the suite in S3', () => {
  const lines = body.widgets.flatMap((w) => w.properties.annotations?.horizontal ?? []);

  it('draws the suite’s thresholds given in context', () => {
    expect(lines).toContainEqual(expect.objectContaining({ label: 'MRR threshold 0.6', value: 0.6 }));
    expect(lines).toContainEqual(expect.objectContaining({ label: 'p95 limit 1500 ms', value: 1500 }));
    expect(lines).toContainEqual(expect.objectContaining({ label: 'threshold 92%', value: 92 }));
  });

  it('opens with a links row: the reports in S3 and the last day’s warnings and errors in Logs Insights', () => {
    const first = body.widgets[0];
    expect(first?.type).toBe('text');
    const markdown = first?.properties.markdown ?? '';
    expect(markdown).toContain('[Reports in S3](https://s3.console.aws.amazon.com/s3/buckets/TOKEN?region=TOKEN');
    expect(markdown).toContain('prefix=reports%2Fbook%2F');
    expect(markdown).toContain(
      '[Past runs and open incidents](https://TOKEN.console.aws.amazon.com/s3/object/TOKEN?region=TOKEN&bucketType=general&prefix=reports%2Fbook%2Findex.html)',
    );
    expect(markdown).toMatch(
      /\[Warnings and errors of the last 24 h\]\(https:\/\/TOKEN\.console\.aws\.amazon\.com\/cloudwatch\/home\?region=TOKEN#logsV2:logs-insights\$3FqueryDetail\$3D~\(end~0~start~-86400~/,
    );
    expect(markdown).toContain("~source~(~'TOKEN))");
    const refs = JSON.stringify(bodyParts.filter((p) => typeof p !== 'string'));
    const logGroup = Object.keys(template.findResources('AWS::Logs::LogGroup'))[0];
    const bucket = Object.keys(template.findResources('AWS::S3::Bucket'))[0];
    expect(refs).toContain(`{"Ref":"${logGroup}"}`);
    expect(refs).toContain(`{"Ref":"${bucket}"}`);
  });
});
