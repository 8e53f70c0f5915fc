/** Seed 001 CoverageReport in the report: the sitemap against the index. */
import { z } from 'zod';

/**
 * Each URL list of the stored report holds at most this many URLs: the first, in sort order. A protocol-maximal
 * sitemap (50,000 URLs of up to 2 KB) made the report 100 MB, and the Lambda's process went past its 512 MB
 * serialising and uploading it; every list stays whole in the attachment named by `full_url_lists`.
 */
export const URL_LIST_LIMIT = 100;
/** The attachment holding every URL list in full: gzip of {"indexed_urls":[...],"missing_urls":[...],"extra_urls":[...]}. */
export const FULL_URL_LISTS_SUFFIX = '.urls.json.gz';

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
  indexed_urls: z.array(z.string()).describe('Sitemap URLs found in the index (the first urls_listed_max, sorted)'),
  missing_urls: z.array(z.string()).describe('In the sitemap, not in the index (the first urls_listed_max, sorted)'),
  extra_urls: z
    .array(z.string())
    .describe('In the index, not in the sitemap (orphans; the first urls_listed_max, sorted)'),
  indexed_count: z.number().int().min(0).describe('How many sitemap URLs were found in the index (the whole list)'),
  missing_count: z.number().int().min(0).describe('How many are missing from the index (the whole list)'),
  extra_count: z.number().int().min(0).describe('How many orphans (the whole list)'),
  urls_listed_max: z
    .number()
    .int()
    .min(1)
    .describe('The stored report keeps at most this many URLs in each list above; the counts are whole'),
  full_url_lists: z
    .string()
    .nullable()
    .describe(
      'When a list was cut: the suffix of the file beside this report (same name) that holds every list in full, gzipped JSON (".urls.json.gz"); null when no list was cut',
    ),
  distinct_indexed_urls: z.number().int().min(0),
  coverage_percentage: z.number().min(0).max(100),
  matched_by: z.enum(['url', 'path']).describe('path: the book moved host, URLs were matched by path alone'),
  source: z.enum(['facet', 'scroll']),
  notes: z.array(z.string()),
  timestamp: z.iso.datetime(),
});
export type CoverageReport = z.infer<typeof CoverageReport>;
