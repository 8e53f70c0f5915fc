/**
 * The demo's HTML report in a real browser: headless Chromium (Debian's `chromium`) driven by playwright-core opens
 * the file with no network, and the page must raise no console error and request nothing beyond itself. A
 * screenshot at 1280 px wide is kept in test-artifacts/ (gitignored) for people to look at. The layout is checked at a
 * phone's 390 px and a desk's 1280 px: nothing wider than the screen, the severity column on screen, and the first
 * CRITICAL finding ("Act on this first") on the first screen. The page of past runs beside it (index.html) is
 * opened the same way, at both widths.
 * Without Chromium this file's test is skipped with the command that installs it, outside CI only: with CI set it
 * fails instead, since a skip there would hide the report's rendering from every build (.ci/run installs Chromium).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { runDemo } from '../../functions/cli/demo.ts';

const CHROMIUM = process.env.RAGWATCH_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts');
const haveChromium = existsSync(CHROMIUM);
// CI=true (GitHub Actions and most runners); CI=false or CI=0 is how a developer says otherwise.
const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());
if (!haveChromium && !IN_CI)
  process.stderr.write(
    `\n[html-report browser test] SKIPPED: no Chromium at ${CHROMIUM}. Install it with ` +
      '`sudo apt-get update && sudo apt-get install -y chromium` (or set RAGWATCH_CHROMIUM to a Chromium binary).\n\n',
  );

// The demo's reports, produced while the file loads (indexing the sample book outlasts a hook's time limit on a busy
// machine); the demo prints its summary, which the test does not need.
const out = mkdtempSync(path.join(tmpdir(), 'ragwatch-html-'));
if (haveChromium) {
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  const writeErr = process.stderr.write.bind(process.stderr);
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    // Twice into one folder: the second report's trend reads the first from the folder, as on an engineer's machine.
    for (const _run of [1, 2]) await runDemo({ out, latency: 0, payloadIndexes: true, progress: false });
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
}

afterAll(() => {
  rmSync(out, { recursive: true, force: true });
});

// Chromium starts while the file loads too: a browser's start-up is not what the test measures.
const userDataDir = mkdtempSync(path.join(tmpdir(), 'ragwatch-chromium-'));
const browser = haveChromium
  ? await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      offline: true,
      viewport: { width: 1280, height: 900 },
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
  : undefined;

/** What the layout test reads in the page. */
interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
interface Layout {
  scrollWidth: number;
  innerHeight: number;
  firstCritical: Box | null;
  firstCriticalIsFirst: boolean;
  criteriaSeverity: Box | null;
  findingsSeverity: Box | null;
  brokenFragments: string[];
  docsLinks: string[];
}

afterAll(async () => {
  await browser?.close();
  rmSync(userDataDir, { recursive: true, force: true });
});

describe('the HTML report in headless Chromium', () => {
  it.skipIf(!haveChromium && !IN_CI)(
    'renders the demo’s report offline with no console error and no request beyond the file',
    async () => {
      if (browser === undefined)
        throw new Error(
          `CI is set and there is no Chromium at ${CHROMIUM}: install it (apt-get install -y chromium, as .ci/run does) ` +
            'or set RAGWATCH_CHROMIUM to a Chromium binary; in CI this test fails rather than skips',
        );
      // Prepare
      const file = path.join(out, 'book', 'latest.html');
      const page = await browser.newPage();
      const consoleErrors: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') consoleErrors.push(m.text());
      });
      page.on('pageerror', (e) => consoleErrors.push(e.message));
      page.on('request', (r) => requests.push(r.url()));

      // Act
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'html-report.png'), fullPage: true });
      const verdict = await page.locator('.verdict .badge').innerText();
      const charts = await page.locator('svg.chart').count();
      const sections = await page.locator('section h2').allInnerTexts();

      // Assess
      expect(consoleErrors).toEqual([]);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(verdict).toBe('FAILED');
      expect(charts).toBeGreaterThanOrEqual(11);
      expect(sections).toContain('Trend over the last 2 runs');
      expect(sections.map((s) => s.split(/[:(]/)[0]?.trim())).toEqual(
        expect.arrayContaining([
          'Success criteria',
          'Golden queries',
          'Coverage',
          'Metadata quality',
          'Grounded answers',
        ]),
      );
      expect(readFileSync(path.join(ARTIFACTS, 'html-report.png')).subarray(1, 4).toString()).toBe('PNG');
    },
  );

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ])
    it.skipIf(!haveChromium && !IN_CI)(
      `fits ${viewport.width} px: no sideways scroll, severity on screen, the first CRITICAL on the first screen`,
      async () => {
        if (browser === undefined) throw new Error(`CI is set and there is no Chromium at ${CHROMIUM}`);
        // Prepare
        const file = path.join(out, 'book', 'latest.html');
        const page = await browser.newPage();
        await page.setViewportSize(viewport);

        // Act
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        await page.screenshot({ path: path.join(ARTIFACTS, `html-report-${viewport.width}.png`) });
        // Read in the page as a script (the project's TypeScript has no DOM types): boxes in CSS pixels.
        const layout = (await page.evaluate(`(() => {
          const box = (e) => {
            const r = e?.getBoundingClientRect();
            return r === undefined ? null : { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
          };
          const header = (table) =>
            [...document.querySelectorAll(table + ' th')].find((th) => th.textContent === 'severity') ?? null;
          return {
            scrollWidth: document.documentElement.scrollWidth,
            innerHeight: window.innerHeight,
            firstCritical: box(document.querySelector('#act-first .sev.critical')),
            firstCriticalIsFirst: document.querySelector('.sev.critical')?.closest('#act-first') !== null,
            criteriaSeverity: box(header('#criteria table')),
            findingsSeverity: box(header('#errors table')),
            brokenFragments: [...document.querySelectorAll('a[href^="#"]')]
              .map((a) => a.getAttribute('href').slice(1))
              .filter((id) => document.getElementById(id) === null),
            docsLinks: [...document.querySelectorAll('a.docs')].map((a) => a.getAttribute('href')),
          };
        })()`)) as Layout;
        await page.close();

        // Assess
        expect(layout.scrollWidth).toBeLessThanOrEqual(viewport.width);
        expect(layout.firstCriticalIsFirst).toBe(true);
        expect(layout.firstCritical?.top).toBeGreaterThanOrEqual(0);
        expect(layout.firstCritical?.bottom).toBeLessThanOrEqual(layout.innerHeight);
        for (const severity of [layout.criteriaSeverity, layout.findingsSeverity]) {
          expect(severity?.left).toBeGreaterThanOrEqual(0);
          expect(severity?.right).toBeLessThanOrEqual(viewport.width);
        }
        expect(layout.brokenFragments).toEqual([]);
        expect(layout.docsLinks.length).toBeGreaterThan(0);
        for (const href of layout.docsLinks) expect(existsSync(fileURLToPath(href.split('#')[0] as string))).toBe(true);
      },
    );

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ])
    it.skipIf(!haveChromium && !IN_CI)(
      `shows the page of past runs at ${viewport.width} px offline: each run, its status and a link that opens`,
      async () => {
        if (browser === undefined) throw new Error(`CI is set and there is no Chromium at ${CHROMIUM}`);
        // Prepare
        const file = path.join(out, 'book', 'index.html');
        const page = await browser.newPage();
        await page.setViewportSize(viewport);
        const consoleErrors: string[] = [];
        const requests: string[] = [];
        page.on('console', (m) => {
          if (m.type() === 'error') consoleErrors.push(m.text());
        });
        page.on('pageerror', (e) => consoleErrors.push(e.message));
        page.on('request', (r) => requests.push(r.url()));

        // Act
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        await page.screenshot({ path: path.join(ARTIFACTS, `runs-page-${viewport.width}.png`) });
        const seen = (await page.evaluate(`(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          rows: [...document.querySelectorAll('#runs tbody tr')].map((tr) =>
            [...tr.querySelectorAll('td')].map((td) => td.textContent)),
          links: [...document.querySelectorAll('#runs a')].map((a) => a.href),
          incidents: document.querySelector('#incidents h2')?.textContent ?? null,
        }))()`)) as { scrollWidth: number; rows: string[][]; links: string[]; incidents: string | null };
        await page.close();

        // Assess
        expect(consoleErrors).toEqual([]);
        expect(requests).toEqual([pathToFileURL(file).href]);
        expect(seen.scrollWidth).toBeLessThanOrEqual(viewport.width);
        expect(seen.rows.map((r) => r[1])).toEqual(['FAILED', 'FAILED']);
        expect(seen.rows.map((r) => r[2])).toEqual([expect.stringMatching(/%$/), expect.stringMatching(/%$/)]);
        expect(seen.incidents).toMatch(/^Open incidents/);
        expect(seen.links).toHaveLength(2);
        for (const link of seen.links) expect(existsSync(fileURLToPath(link))).toBe(true);
      },
    );
});
