/**
 * A report as schema_version 1 wrote it: the fields schema_version 2 renamed (docs/DATA-MODEL.md, "Renamed in
 * schema_version 2") put back under their old names, so a test can hand history a report an older ragwatch stored.
 */

const V1_KEYS: Record<string, string> = {
  support_ratio: 'support_rate',
  min_citation_coverage: 'min_coverage',
  page_facets: 'page facets',
  exact_search: 'exact search',
  canary_sample: 'canary sample',
  canary_embed: 'canary embed',
  model_facet: 'model facet',
};

/** The same report with schema_version "1" and every renamed key under its version-1 name, at any depth. */
export function asSchemaVersion1(report: object): Record<string, unknown> {
  const back = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(back);
    if (node === null || typeof node !== 'object') return node;
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [V1_KEYS[key] ?? key, back(value)]));
  };
  return { ...(back(JSON.parse(JSON.stringify(report))) as Record<string, unknown>), schema_version: '1' };
}
