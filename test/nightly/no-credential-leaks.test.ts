/**
 * Credentials in URLs never reach an output. Configured URLs with `user:password@` are refused before anything
 * runs (exit 2, the Lambda's configuration error); URLs with credentials that arrive at run time, in a hostile
 * sitemap, are refused and masked. Every output is searched for the password: stdout, stderr, the report file and
 * the S3 object, the log lines, the SNS subject and body, the CloudWatch payloads and the handler's result.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../functions/cli/main.ts';
import { parseNightlyConfig } from '../../functions/nightly/config.ts';
import { createNightlyDeps } from '../../functions/nightly/deps.ts';
import { createHandler } from '../../functions/nightly/handler.ts';
import { type AwsStandIns, startAwsStandIns } from '../../sandbox/aws/index.ts';
import { indexSampleBook, SAMPLE_SUITE_PATH, type Sandbox, startSandbox } from '../../sandbox/start-sandbox.ts';
import { type RoutesServer, sitemapIndex, startRoutes, urlset, xml } from '../adapters/sitemap/routes-server.ts';
import { RecordingLogger } from './recording-logger.ts';
import { buildStandInClients, type StandInClients, standInNightlyEnv } from './stand-in-clients.ts';

const PASSWORD = 'Pa55-w0rd-never-shown';
/** A token in SITEMAP_URL's query, and a presigned child's signature: accepted, and redacted from every output. */
const TOKEN = 'tok-n3ver-sh0wn-Q7';
const SIGNATURE = 'sig-n3ver-sh0wn-Z4';
const withPassword = (url: string) => url.replace('://', `://admin:${PASSWORD}@`);

let sandbox: Sandbox;
let aws: AwsStandIns;
let clients: StandInClients;
let hostile: RoutesServer;
let dir: string;
const out: string[] = [];
const err: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ragwatch-leaks-'));
  sandbox = await startSandbox();
  await indexSampleBook(sandbox);
  aws = await startAwsStandIns({ secrets: { 'ragwatch/cohere': sandbox.env.COHERE_API_KEY ?? '' } });
  clients = buildStandInClients(aws.endpoints);
  // A sitemap index that names a child and a page with credentials in them.
  hostile = await startRoutes();
  hostile.route(
    '/pages.xml',
    xml(urlset(['https://book.example.com/docs/intro', withPassword('https://book.example.com/docs/x')])),
  );
  hostile.route('/index.xml', xml(sitemapIndex([hostile.url('/pages.xml'), withPassword(hostile.url('/secret.xml'))])));
  // The sample book's sitemap behind a token, with a child behind a presigned URL.
  hostile.route(
    '/token-index.xml',
    xml(sitemapIndex([hostile.url(`/presigned.xml?X-Amz-Signature=${SIGNATURE}&amp;X-Amz-Expires=300`)])),
  );
  hostile.route(
    '/presigned.xml',
    xml(urlset(['https://book.example.com/docs/intro', `https://book.example.com/docs/x?sig=${SIGNATURE}`])),
  );
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
});
afterAll(async () => {
  vi.restoreAllMocks();
  clients?.destroy();
  await Promise.all([sandbox?.stop(), aws?.stop(), hostile?.stop()]);
});

/** Every file under `root`, read. */
async function filesUnder(root: string): Promise<string[]> {
  const names = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return Promise.all(names.filter((e) => e.isFile()).map((e) => readFile(path.join(e.parentPath, e.name), 'utf8')));
}

describe('credentials in URLs', () => {
  it.each(['QDRANT_URL', 'DOCUSAURUS_BASE_URL', 'SITEMAP_URL', 'COHERE_BASE_URL'])(
    'refuses %s with credentials at configuration: exit 2, nothing run, no output holds the password',
    async (name) => {
      // Prepare
      out.length = 0;
      err.length = 0;
      const reports = path.join(dir, `config-${name}`);
      const env = {
        ...sandbox.env,
        [name]: withPassword(sandbox.env[name] ?? 'https://x.example'),
        REPORT_DIR: reports,
      };

      // Act
      const code = await main(['run', '--suite', SAMPLE_SUITE_PATH, '--no-progress'], env);

      // Assess
      expect(code).toBe(2);
      expect(err.join('')).toContain(`${name}: must not carry credentials`);
      expect(await filesUnder(reports)).toEqual([]);
      expect([...out, ...err].join('')).not.toContain(PASSWORD);
    },
  );

  it('refuses them in the Lambda’s configuration, naming the variable without the password', () => {
    const error = (() => {
      try {
        parseNightlyConfig({
          QDRANT_URL: withPassword('https://qdrant.example'),
          DOCUSAURUS_BASE_URL: 'https://book.example.com',
          REPORT_BUCKET: 'ragwatch-reports',
          ALERT_TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:ragwatch-alerts',
          COHERE_SECRET_ID: 'ragwatch/cohere',
        });
      } catch (e) {
        return e as Error & { problems: string[] };
      }
      throw new Error('expected the configuration to be refused');
    })();

    expect(error.problems).toEqual([expect.stringMatching(/^QDRANT_URL: must not carry credentials/)]);
    expect(`${error.message}${JSON.stringify(error.problems)}`).not.toContain(PASSWORD);
  });

  it('keeps a hostile sitemap’s credentials out of every output of the nightly handler', async () => {
    // Prepare
    const logger = new RecordingLogger();
    const { COHERE_API_KEY: _fromSecretsManager, ...engineEnv } = sandbox.env;
    const config = parseNightlyConfig(
      standInNightlyEnv(aws, {
        ...engineEnv,
        SITEMAP_URL: hostile.url('/index.xml'),
        ENVIRONMENT: 'prod',
        SUITE_PATH: SAMPLE_SUITE_PATH,
      }),
    );

    // Act
    const result = await createHandler(createNightlyDeps(config, clients, logger))();

    // Assess: the refusals are in the report, the password nowhere
    const keys = await aws.listKeys();
    const objects = await Promise.all(keys.map((k) => aws.readObject(k)));
    // The JSON report: the CSV beside it names the run id too.
    const report = objects.find((o, i) => keys[i]?.endsWith('.json') && o?.includes(result.runId)) ?? '';
    expect(report).toContain('SITEMAP_URL_REFUSED');
    expect(report).toContain('carries credentials');
    expect(aws.deliveredAlerts()).not.toHaveLength(0);
    const outputs = [
      ...objects,
      logger.text(),
      JSON.stringify(aws.deliveredAlerts()),
      JSON.stringify(aws.cloudWatch.datums),
      JSON.stringify(result),
    ].join('\n');
    expect(outputs).not.toContain(PASSWORD);
    expect(hostile.requests('/secret.xml')).toBe(0);
  });

  it('keeps a ?token= SITEMAP_URL and a presigned child’s signature out of every output of the nightly handler', async () => {
    // Prepare
    const logger = new RecordingLogger();
    const { COHERE_API_KEY: _fromSecretsManager, ...engineEnv } = sandbox.env;
    const before = await aws.listKeys();
    const config = parseNightlyConfig({
      ...engineEnv,
      SITEMAP_URL: `${hostile.url('/token-index.xml')}?token=${TOKEN}`,
      ENVIRONMENT: 'token',
      REPORT_BUCKET: aws.bucket,
      ALERT_TOPIC_ARN: aws.topicArn,
      COHERE_SECRET_ID: 'ragwatch/cohere',
      SUITE_PATH: SAMPLE_SUITE_PATH,
    });

    // Act
    const result = await createHandler(createNightlyDeps(config, clients, logger))();

    // Assess: the sitemap was read (the token did not stop the run) and is named, redacted, in the report
    const keys = (await aws.listKeys()).filter((k) => !before.includes(k));
    const objects = await Promise.all(keys.map((k) => aws.readObject(k)));
    expect(keys.length).toBeGreaterThan(2);
    const report = objects[keys.findIndex((k) => k.endsWith('.json') && !k.endsWith('latest.json'))] ?? '';
    expect(report).toContain('/token-index.xml?token=***');
    expect(report).toContain('"total_sitemap_urls": 2');
    const outputs = [
      ...objects,
      logger.text(),
      JSON.stringify(aws.deliveredAlerts()),
      JSON.stringify(aws.cloudWatch.datums),
      JSON.stringify(result),
    ].join('\n');
    expect(outputs).not.toContain(TOKEN);
    expect(outputs).not.toContain(SIGNATURE);
    expect(hostile.requests('/presigned.xml')).toBeGreaterThan(0);
  });

  it('keeps a ?token= SITEMAP_URL out of the CLI’s stdout, stderr and every report file', async () => {
    // Prepare
    out.length = 0;
    err.length = 0;
    const reports = path.join(dir, 'cli-token');
    const env = {
      ...sandbox.env,
      SITEMAP_URL: `${hostile.url('/token-index.xml')}?token=${TOKEN}`,
      REPORT_DIR: reports,
    };

    // Act
    const code = await main(['run', '--suite', SAMPLE_SUITE_PATH, '--no-progress', '--json'], env);

    // Assess
    expect(code).toBe(1);
    const files = await filesUnder(reports);
    expect(files.join('')).toContain('/token-index.xml?token=***');
    expect([...out, ...err, ...files].join('\n')).not.toContain(TOKEN);
    expect([...out, ...err, ...files].join('\n')).not.toContain(SIGNATURE);
  });

  it('keeps a hostile sitemap’s credentials out of the CLI’s stdout, stderr and report files', async () => {
    // Prepare
    out.length = 0;
    err.length = 0;
    const reports = path.join(dir, 'cli-run');
    const env = { ...sandbox.env, SITEMAP_URL: hostile.url('/index.xml'), REPORT_DIR: reports };

    // Act
    const code = await main(['run', '--suite', SAMPLE_SUITE_PATH, '--no-progress', '--json'], env);

    // Assess
    expect(code).toBe(1);
    const files = await filesUnder(reports);
    expect(files.join('')).toContain('SITEMAP_URL_REFUSED');
    expect([...out, ...err, ...files].join('\n')).not.toContain(PASSWORD);
  });
});
