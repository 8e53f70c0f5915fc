/**
 * Every named step of a run: the only places a run does I/O, each with what it waits on. The run context takes
 * only these names, so a cut always says which step was pending and what it was waiting for.
 */
export const STEPS = {
  describe: 'Qdrant (get collection)',
  catalog: 'Qdrant (facet or scroll)',
  queries: 'Cohere embed and Qdrant search',
  sitemap: 'the sitemap host',
  profile: 'Qdrant (count, facet or scroll)',
  agent: 'Cohere chat and Qdrant search',
  inventory: 'Qdrant (scroll)',
  page_facets: 'Qdrant (facet)',
  exact_search: 'Qdrant (exact search)',
  canary_sample: 'Qdrant (scroll of the first points)',
  canary_embed: 'Cohere embed',
  model_facet: 'Qdrant (facet)',
} as const;

export type StepName = keyof typeof STEPS;

/** A step as a cut names it: "queries (Cohere embed and Qdrant search)". */
export function describeStep(name: StepName): string {
  return `${name} (${STEPS[name]})`;
}
