/**
 * What the coverage and quality checks need to know about the whole collection, asked of the index as cheaply
 * as it can answer: distinct source URLs and the token-count histogram by exact facets where a payload index
 * exists, completeness per field by count calls (O(fields) requests, whatever the number of points). Whatever
 * the index cannot answer that way is read in ONE streaming scroll that keeps O(distinct URLs + distinct token
 * counts) state, never the points themselves.
 */

import type { PayloadField } from '../book/payload.ts';
import type { CollectionInfo, FilterCondition, Payload, ScrollOptions, VectorIndex } from '../ports.ts';
import type { FieldCompleteness } from '../report/quality-metrics.ts';
import { scrollPlan } from '../scroll-plan.ts';
import { IndexError } from '../shared/errors.ts';
import { roundTo } from '../shared/statistics.ts';

export interface ProfileOptions {
  index: VectorIndex;
  info: CollectionInfo;
  requiredFields: string[];
  urlField?: PayloadField;
  tokenField?: PayloadField;
  /** A facet returning this many values may be cut short, so the scroll is used instead. */
  facetLimit?: number;
  pageSize?: number;
  /** Id ranges the scroll reads at once (1: one page after the other). */
  partitions?: number;
  /** Another reader of every point, handed each one when the profile scrolls (any of its sources is 'scroll'). */
  rider?: ScanRider;
}

/**
 * A fold over every point that needs a scroll of the whole collection too (the index inventory without its page
 * indexes): its fields are added to the profile's scroll and each point's payload is handed to it as its page
 * arrives, so the collection is read once with the union of the fields, not twice side by side (issue 20 §3).
 */
interface ScanRider {
  readonly fields: readonly string[];
  add(payload: Payload): void;
}

/**
 * Whether the profile reads the collection by scroll whatever its facets and counts answer: the URL or the token
 * field lacks the payload index its facet needs. (It may scroll in other cases too: a facet at its limit, counts
 * refused; those cannot be known before asking.)
 */
export function profileScrolls(
  info: CollectionInfo,
  fields: { urlField?: PayloadField; tokenField?: PayloadField } = {},
): boolean {
  return (
    info.payloadIndexes[fields.urlField ?? 'source_url'] !== 'keyword' ||
    info.payloadIndexes[fields.tokenField ?? 'token_count'] !== 'integer'
  );
}

export interface CollectionProfile {
  totalPoints: number;
  completePoints: number;
  fieldCompleteness: FieldCompleteness[];
  distinctUrls: Set<string>;
  tokenHistogram: Map<number, number>;
  sources: { urls: 'facet' | 'scroll'; completeness: 'count' | 'scroll'; tokens: 'facet' | 'scroll' };
  pointsScanned: number;
  notes: string[];
}

/** A payload value counts as present when Qdrant's is_empty would not match it: not missing, null or []. */
export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

/** Profiles the collection by facets and counts where possible, with one streaming scroll for the rest. */
export async function profileCollection(options: ProfileOptions): Promise<CollectionProfile> {
  const { index, info, requiredFields } = options;
  const urlField = options.urlField ?? 'source_url';
  const tokenField = options.tokenField ?? 'token_count';
  const facetLimit = options.facetLimit ?? 10_000;
  const notes: string[] = [];

  const [urls, tokens, counts] = await Promise.all([
    info.payloadIndexes[urlField] === 'keyword'
      ? facetOrNull(index, urlField, facetLimit, notes)
      : noteMissing(notes, urlField, 'keyword'),
    info.payloadIndexes[tokenField] === 'integer'
      ? facetOrNull(index, tokenField, facetLimit, notes)
      : noteMissing(notes, tokenField, 'integer'),
    countCompleteness(index, requiredFields, notes),
  ]);

  const scan = urls === null || tokens === null || counts === null;
  const scanned = scan
    ? await scanCollection({
        index,
        scroll: scrollPlan(options.pageSize ?? 1000, options.partitions ?? 1, info),
        urlField,
        tokenField,
        requiredFields,
        needs: { urls: urls === null, tokens: tokens === null, completeness: counts === null },
        ...(options.rider ? { rider: options.rider } : {}),
      })
    : null;

  const distinctUrls = urls ? new Set(urls.map((h) => String(h.value))) : (scanned?.urls ?? new Set<string>());
  const tokenHistogram = tokens ? histogramFromFacet(tokens) : (scanned?.tokens ?? new Map<number, number>());
  const completeness = counts ?? scanned?.completeness;
  if (!completeness) throw new IndexError('collection profile: completeness could not be computed', 'unexpected');
  return {
    totalPoints: completeness.total,
    completePoints: completeness.complete,
    fieldCompleteness: completeness.fields,
    distinctUrls,
    tokenHistogram,
    sources: {
      urls: urls ? 'facet' : 'scroll',
      completeness: counts ? 'count' : 'scroll',
      tokens: tokens ? 'facet' : 'scroll',
    },
    pointsScanned: scanned?.scanned ?? 0,
    notes,
  };
}

interface Completeness {
  total: number;
  complete: number;
  fields: FieldCompleteness[];
}

async function facetOrNull(index: VectorIndex, key: string, limit: number, notes: string[]) {
  const hits = await index.facet(key, limit);
  if (hits.length < limit) return hits;
  notes.push(`facet on ${key} returned ${limit} values, the limit; read by scroll instead so none is missed`);
  return null;
}

async function noteMissing(notes: string[], field: string, type: string): Promise<null> {
  notes.push(`no ${type} payload index on ${field}: read by scroll (create one to let Qdrant aggregate it)`);
  return null;
}

async function countCompleteness(index: VectorIndex, fields: string[], notes: string[]): Promise<Completeness | null> {
  const emptyOrNull = (key: string): FilterCondition[] => [{ is_empty: { key } }, { is_null: { key } }];
  try {
    const [total, complete, ...missing] = await Promise.all([
      index.count(),
      index.count({ must_not: fields.flatMap(emptyOrNull) }),
      ...fields.map((key) => index.count({ should: emptyOrNull(key) })),
    ]);
    return {
      total: total ?? 0,
      complete: complete ?? 0,
      fields: fields.map((field, i) => fieldCompleteness(field, total ?? 0, missing[i] ?? 0)),
    };
  } catch (error) {
    // A Qdrant in strict mode may refuse filters on unindexed fields; the scroll can still answer.
    if (error instanceof IndexError && error.kind === 'bad_request') {
      notes.push(`completeness by count was refused (${error.message}); computed by scroll instead`);
      return null;
    }
    throw error;
  }
}

function fieldCompleteness(field: string, total: number, missing: number): FieldCompleteness {
  const present = total - missing;
  return { field, present, missing, completeness_rate: total === 0 ? 0 : roundTo((present / total) * 100, 2) };
}

function histogramFromFacet(hits: { value: string | number | boolean; count: number }[]): Map<number, number> {
  const histogram = new Map<number, number>();
  for (const hit of hits) if (typeof hit.value === 'number') histogram.set(hit.value, hit.count);
  return histogram;
}

interface ScanNeeds {
  urls: boolean;
  tokens: boolean;
  completeness: boolean;
}

/** The running state of one scroll: bounded by distinct URLs and token counts, never by points. */
class ScanTally {
  readonly urls = new Set<string>();
  readonly tokens = new Map<number, number>();
  readonly missing: Map<string, number>;
  scanned = 0;
  complete = 0;
  readonly #o: { urlField: string; tokenField: string; requiredFields: string[]; needs: ScanNeeds };

  constructor(options: { urlField: string; tokenField: string; requiredFields: string[]; needs: ScanNeeds }) {
    this.#o = options;
    this.missing = new Map(options.requiredFields.map((f) => [f, 0]));
  }

  add(payload: Payload): void {
    const { urlField, tokenField, requiredFields, needs } = this.#o;
    this.scanned += 1;
    const url = payload[urlField];
    if (needs.urls && typeof url === 'string') this.urls.add(url);
    const tokenCount = payload[tokenField];
    if (needs.tokens && typeof tokenCount === 'number')
      this.tokens.set(tokenCount, (this.tokens.get(tokenCount) ?? 0) + 1);
    if (!needs.completeness) return;
    const absent = requiredFields.filter((field) => !isPresent(payload[field]));
    for (const field of absent) this.missing.set(field, (this.missing.get(field) ?? 0) + 1);
    if (absent.length === 0) this.complete += 1;
  }

  completeness(): Completeness {
    const fields = this.#o.requiredFields.map((f) => fieldCompleteness(f, this.scanned, this.missing.get(f) ?? 0));
    return { total: this.scanned, complete: this.complete, fields };
  }
}

async function scanCollection(options: {
  index: VectorIndex;
  scroll: Omit<ScrollOptions, 'payloadFields'>;
  urlField: string;
  tokenField: string;
  requiredFields: string[];
  needs: ScanNeeds;
  rider?: ScanRider;
}) {
  const { needs, urlField, tokenField, requiredFields, rider } = options;
  const fields = new Set<string>([
    ...(needs.urls ? [urlField] : []),
    ...(needs.tokens ? [tokenField] : []),
    ...(needs.completeness ? requiredFields : []),
    ...(rider?.fields ?? []),
  ]);
  const tally = new ScanTally({ urlField, tokenField, requiredFields, needs });
  for await (const page of options.index.scroll({ payloadFields: [...fields], ...options.scroll })) {
    for (const point of page) {
      tally.add(point.payload);
      rider?.add(point.payload);
    }
  }
  return { urls: tally.urls, tokens: tally.tokens, scanned: tally.scanned, completeness: tally.completeness() };
}
