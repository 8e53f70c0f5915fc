/**
 * The sitemap adapter alone, in a process of its own so that its peak RSS is the reading's alone (the server and
 * its bodies live in the parent, bench/sitemap-bench.ts). Forked with the sitemap's URL; answers one message with
 * its figures and exits.
 */
import { HttpSitemap } from '../functions/adapters/sitemap/http-sitemap.ts';
import { peakRssKb } from './peak-rss.ts';

/** What the child measured. */
export interface SitemapFigures {
  entries: number;
  issues: string[];
  error: string | null;
  wallMs: number;
  cpuMs: number;
  baselineRssMb: number;
  /** The process's peak RSS (getrusage ru_maxrss), loading included. */
  peakRssMb: number;
  /** The V8 heap in use after a full GC, the listing still held: what the reading really kept. */
  liveHeapAfterGcMb: number;
}

const url = process.argv[2];
if (url === undefined || process.send === undefined) throw new Error('bench/sitemap-child.ts is forked by the bench');
const rssMb = () => peakRssKb() / 1024;

const sitemap = new HttpSitemap({ url, timeoutMs: 120_000 });
const baselineRssMb = rssMb();
const started = performance.now();
const cpu = process.cpuUsage();
let figures: SitemapFigures;
try {
  const listing = await sitemap.list();
  const measured = measure();
  // After the peak was read, so the collection it forces cannot lower the peak; the listing is used below, so
  // it is still alive here.
  const liveHeapAfterGcMb = liveHeapMb();
  figures = {
    entries: listing.entries.length,
    issues: listing.issues.map((i) => i.message),
    error: null,
    ...measured,
    liveHeapAfterGcMb,
  };
} catch (error) {
  figures = { entries: 0, issues: [], error: (error as Error).message, ...measure(), liveHeapAfterGcMb: liveHeapMb() };
}
process.send(figures, () => process.exit(0));

function liveHeapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

function measure() {
  const used = process.cpuUsage(cpu);
  return {
    wallMs: performance.now() - started,
    cpuMs: (used.user + used.system) / 1000,
    baselineRssMb,
    peakRssMb: rssMb(),
  };
}
