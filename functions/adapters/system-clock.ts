/** The Clock port on the real clock. */
import type { Clock } from '../core/ports.ts';

export const systemClock: Clock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
};
