/**
 * Every input a run's checks read, in one registry: what each resolves and through which named steps (each step
 * names what it waits on in checks/steps.ts). The guard test holds the checks' needs, the steps and the bench's
 * bounds to this list.
 */
import type { Input } from '../checks/input.ts';
import { groundedAnswers } from '../grounding/inputs.ts';
import {
  canarySample,
  embeddingModels,
  exactSearches,
  indexInventory,
  scrolledInventory,
} from '../index-health/inputs.ts';
import { collectionProfile } from '../quality/inputs.ts';
import { bookCatalog, collectionDescription, searchedQueries } from '../queries/inputs.ts';
import { sitemapListing, staleQueries } from '../sitemap/inputs.ts';

export const INPUTS: readonly Input<unknown>[] = [
  collectionDescription,
  bookCatalog,
  searchedQueries,
  sitemapListing,
  staleQueries,
  collectionProfile,
  groundedAnswers,
  scrolledInventory,
  indexInventory,
  exactSearches,
  canarySample,
  embeddingModels,
];
