/** What a fuzz run counts: the three the issue targets at 0, and the cases behind each (for replay). */
export interface Tally {
  cases: number;
  accepted: number;
  refused: number;
  acceptedButInvalid: string[];
  crashes: string[];
  unnamedMessages: string[];
}

export function newTally(): Tally {
  return { cases: 0, accepted: 0, refused: 0, acceptedButInvalid: [], crashes: [], unnamedMessages: [] };
}

/** A problem line names a field: "path: message", the path made of names, [indices] and dots. */
export const NAMES_A_FIELD = /^(\(root\)|[A-Za-z_][\w-]*(\[\d+\])*(\.[^\s.:[\]]+(\[\d+\])*)*): \S/;
