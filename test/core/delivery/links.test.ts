/** The links every email carries: the HTML report's console page, the dashboard, the run's Logs Insights query. */
import { describe, expect, it } from 'vitest';
import { buildRecentLogsUrl, buildRunLinks, linkLines } from '../../../functions/core/delivery/links.ts';

const INPUTS = {
  region: 'eu-west-1',
  runId: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  startedAt: '2026-03-14T02:00:00.000Z',
  finishedAt: '2026-03-14T02:00:42.500Z',
  report: {
    bucket: 'ragwatch-reports',
    jsonKey: 'reports/book/2026/03/14/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b.json',
    htmlKey: 'reports/book/2026/03/14/6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b.html',
  },
  dashboardName: 'ragwatch-prod-book',
  logGroupName: '/aws/lambda/ragwatch-prod-book',
};

/** What the Logs Insights console reads back from the fragment: $ -> %, URL-decoded, then *XX -> byte. */
function decodeInsights(url: string): string {
  const fragment = decodeURIComponent(url.split('#logsV2:logs-insights')[1]?.replace(/\$/g, '%') ?? '');
  const bytes: number[] = [];
  for (let i = 0; i < fragment.length; i++) {
    if (fragment[i] === '*') {
      bytes.push(Number.parseInt(fragment.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(fragment.charCodeAt(i));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

describe('buildRunLinks', () => {
  it('links the HTML report’s S3 console page when the HTML was stored', () => {
    expect(buildRunLinks(INPUTS).report).toBe(
      'https://eu-west-1.console.aws.amazon.com/s3/object/ragwatch-reports?region=eu-west-1&bucketType=general&prefix=reports%2Fbook%2F2026%2F03%2F14%2F6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b.html',
    );
  });

  it('falls back to the JSON report’s page when the HTML was not stored, and leaves the link out when nothing was', () => {
    const { htmlKey: _html, ...jsonOnly } = INPUTS.report;
    expect(buildRunLinks({ ...INPUTS, report: jsonOnly }).report).toContain('.json');
    const { report: _none, ...notStored } = INPUTS;
    expect(buildRunLinks(notStored).report).toBeUndefined();
  });

  it('links the deployment’s dashboard', () => {
    expect(buildRunLinks(INPUTS).dashboard).toBe(
      'https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#dashboards/dashboard/ragwatch-prod-book',
    );
  });

  it('links a Logs Insights query for this run id over the run’s window, in the console’s fragment encoding', () => {
    // Act
    const url = buildRunLinks(INPUTS).logs ?? '';

    // Assess
    expect(
      url.startsWith(
        'https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#logsV2:logs-insights$3FqueryDetail$3D~(',
      ),
    ).toBe(true);
    expect(url).not.toMatch(/[\s"%]/);
    expect(decodeInsights(url)).toBe(
      "?queryDetail=~(end~'2026-03-14T02:15:42.500Z~start~'2026-03-14T01:55:00.000Z~timeType~'ABSOLUTE~tz~'UTC~editorString~'fields @timestamp, level, message, stage, reason\n| filter run_id = \"6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b\"\n| sort @timestamp asc~source~(~'/aws/lambda/ragwatch-prod-book))",
    );
  });
});

describe('buildRecentLogsUrl', () => {
  it('links a query over the last N seconds, the log group written as given so a reference can stand in it', () => {
    const url = buildRecentLogsUrl('eu-west-1', 'Ragwatch-Logs0E3D-AbC123', 'fields @timestamp\n| limit 50', 86_400);
    expect(
      url.startsWith(
        'https://eu-west-1.console.aws.amazon.com/cloudwatch/home?region=eu-west-1#logsV2:logs-insights$3FqueryDetail$3D~(',
      ),
    ).toBe(true);
    expect(url).not.toMatch(/[\s"%]/);
    expect(decodeInsights(url)).toBe(
      "?queryDetail=~(end~0~start~-86400~timeType~'RELATIVE~unit~'seconds~editorString~'fields @timestamp\n| limit 50~source~(~'Ragwatch-Logs0E3D-AbC123))",
    );
    // What a CloudFormation reference looks like while the stack is built.
    const token = ['$', '{Token[TOKEN.1]}'].join('');
    expect(buildRecentLogsUrl('us-east-1', token, 'q', 3600.4)).toContain('start~-3600~');
    expect(buildRecentLogsUrl('us-east-1', token, 'q', 3600)).toContain(`~source~(~'${token}))`);
  });
});

describe('linkLines', () => {
  it('lists each link on a line of its own under LINKS, then a blank line', () => {
    const links = buildRunLinks(INPUTS);
    expect(linkLines(links)).toEqual([
      'LINKS',
      `- Report (HTML, in the S3 console; "Open" shows it): ${links.report}`,
      `- Dashboard: ${links.dashboard}`,
      `- This run's log lines (CloudWatch Logs Insights): ${links.logs}`,
      '',
    ]);
  });

  it('writes nothing when there is no link', () => {
    expect(linkLines({})).toEqual([]);
    expect(linkLines(undefined)).toEqual([]);
  });
});

describe('buildRunLinks: inputs and escapes', () => {
  it('gives only the links whose inputs it has', () => {
    expect(
      buildRunLinks({ region: 'eu-west-1', runId: 'r', startedAt: INPUTS.startedAt, finishedAt: INPUTS.finishedAt }),
    ).toEqual({});
  });

  it('writes the console’s escapes for characters outside [A-Za-z0-9_.-] and keeps the rest', () => {
    const url = buildRunLinks(INPUTS).logs ?? '';
    expect(url).toContain('*2faws*2flambda*2fragwatch-prod-book');
  });

  it('drops double quotes from the run id, so it cannot end the query’s string', () => {
    const url = buildRunLinks({ ...INPUTS, runId: 'a"b' }).logs ?? '';
    expect(decodeInsights(url)).toContain('filter run_id = "ab"');
  });
});
