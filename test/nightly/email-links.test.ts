/**
 * The email as SNS delivers it, through the real handler and the AWS stand-ins: it links the HTML report that was
 * stored, the dashboard the stack named, and the run's log lines, near the top, in plain text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { buildFailedReport } from './fixtures/reports.ts';
import { RecordingLogger } from './recording-logger.ts';
import { buildStandInClients, type StandInClients, standInNightlyEnv } from './stand-in-clients.ts';

let aws: AwsStandIns;
let clients: StandInClients;

beforeAll(async () => {
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': 'co-test-key' } });
  clients = buildStandInClients(aws.endpoints);
});

afterAll(async () => {
  clients.destroy();
  await aws.stop();
});

describe('the alert email', () => {
  it('links the stored HTML report, the page of past runs, the dashboard and the run’s Logs Insights query within its first lines', async () => {
    // Prepare
    const config = parseNightlyConfig(
      standInNightlyEnv(aws, {
        AWS_REGION: 'eu-west-1',
        AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/ragwatch-prod-book',
        DASHBOARD_NAME: 'ragwatch-prod-book',
      }),
    );
    const handler = createHandler({
      ...createNightlyDeps(config, clients, new RecordingLogger()),
      runEngine: async (_engine, run) => ({ ...buildFailedReport(), run_id: run.newId() }),
    });

    // Act
    const result = await handler({}, { awsRequestId: 'req-links' });

    // Assess
    const [email] = aws.deliveredAlerts();
    const lines = email?.message.split('\n') ?? [];
    const at = lines.indexOf('LINKS');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(12);
    const html = `reports/book/2026/03/14/${result.runId}.html`;
    expect(await aws.listKeys()).toContain(html);
    expect(lines[at + 1]).toBe(
      `- Report (HTML, in the S3 console; "Open" shows it): https://eu-west-1.console.aws.amazon.com/s3/object/ragwatch-reports?region=eu-west-1&bucketType=general&prefix=${encodeURIComponent(html)}`,
    );
    // The page of past runs, which the run wrote after this email went out.
    expect(lines[at + 2]).toBe(
      '- Past runs and open incidents (HTML, in the S3 console): https://eu-west-1.console.aws.amazon.com/s3/object/ragwatch-reports?region=eu-west-1&bucketType=general&prefix=reports%2Fbook%2Findex.html',
    );
    expect(await aws.listKeys()).toContain('reports/book/index.html');
    expect(lines[at + 3]).toBe(
      '- Dashboard: https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#dashboards/dashboard/ragwatch-prod-book',
    );
    expect(lines[at + 4]).toMatch(
      /^- This run's log lines \(CloudWatch Logs Insights\): https:\/\/eu-west-1\.console\.aws\.amazon\.com\/cloudwatch\/home\?region=eu-west-1#logsV2:logs-insights\$3FqueryDetail\$3D~\(/,
    );
    expect(lines[at + 4]).toContain(result.runId);
    expect(email?.message.match(/^LINKS$/gm)).toHaveLength(1);
  });
});
