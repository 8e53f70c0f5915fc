/** Seed 001 CoverageReport in the report: the sitemap against the index. */
import { z } from 'zod';

/** Seed 001 CoverageReport, plus how it was computed. */
export const CoverageReport = z.object({
  sitemap_url: z.string(),
  path_prefix: z.string().describe('Only sitemap URLs under this path count: <base path>/docs/ unless configured'),
  outside_prefix_urls: z.number().int().min(0).describe('Sitemap URLs not under path_prefix, left out of coverage'),
  suggested_prefix: z
    .string()
    .nullable()
    .describe('When no sitemap URL is under path_prefix: a prefix under which some are (null when none is found)'),
  total_sitemap_urls: z.number().int().min(0),
  indexed_urls: z.array(z.string()).describe('Sitemap URLs found in the index'),
  missing_urls: z.array(z.string()).describe('In the sitemap, not in the index'),
  extra_urls: z.array(z.string()).describe('In the index, not in the sitemap (orphans)'),
  distinct_indexed_urls: z.number().int().min(0),
  coverage_percentage: z.number().min(0).max(100),
  matched_by: z.enum(['url', 'path']).describe('path: the book moved host, URLs were matched by path alone'),
  source: z.enum(['facet', 'scroll']),
  notes: z.array(z.string()),
  timestamp: z.iso.datetime(),
});
export type CoverageReport = z.infer<typeof CoverageReport>;
