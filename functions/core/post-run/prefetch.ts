/**
 * The incident state read early: started beside the engine (it needs nothing the run produces) so that the alert
 * step, which comes after the report is stored, only writes. The root bounds the read like any other call.
 */
import type { IncidentStore } from '../ports.ts';

type Key = Parameters<IncidentStore['read']>[0];

/** The store with the state of `key` being read now; reads of any other key go to the store as they come. */
export function prefetchIncidentState(store: IncidentStore, key: Key): IncidentStore {
  const early = store.read(key);
  early.catch(() => undefined); // observed when the alert step reads it
  return {
    read: (asked) =>
      asked.collection === key.collection && asked.environment === key.environment ? early : store.read(asked),
    write: (asked, state, version) => store.write(asked, state, version),
  };
}
