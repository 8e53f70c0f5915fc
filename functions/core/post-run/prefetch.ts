/**
 * The incident state read early: started beside the engine (it needs nothing the run produces) so that the alert
 * step, which comes after the report is stored, only writes. The early answer serves the first read alone: a read
 * after it (settling again after losing a conditional write to another run) must see the state that won.
 */
import type { IncidentStore } from '../ports.ts';

type Key = Parameters<IncidentStore['read']>[0];

/** The store with the state of `key` being read now; every other read goes to the store as it comes. */
export function prefetchIncidentState(store: IncidentStore, key: Key): IncidentStore {
  let early: ReturnType<IncidentStore['read']> | null = store.read(key);
  early.catch(() => undefined); // observed when the alert step reads it
  return {
    read: (asked) => {
      if (early === null || asked.collection !== key.collection || asked.environment !== key.environment)
        return store.read(asked);
      const answer = early;
      early = null;
      return answer;
    },
    write: (asked, state, version) => store.write(asked, state, version),
  };
}
