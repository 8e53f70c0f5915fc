/** What a fuzz run counts: the four the issue targets at 0, and the cases behind each (for replay). */
export interface Tally {
  cases: number;
  accepted: number;
  refused: number;
  acceptedButInvalid: string[];
  /** Input the documented bounds call valid that was refused (a bound tightened in the code, or a wrong rule). */
  validRefused: string[];
  crashes: string[];
  unnamedMessages: string[];
}

export function newTally(): Tally {
  return {
    cases: 0,
    accepted: 0,
    refused: 0,
    acceptedButInvalid: [],
    validRefused: [],
    crashes: [],
    unnamedMessages: [],
  };
}

/** A problem line names a field: "path: message", the path made of names, [indices] and dots. */
export const NAMES_A_FIELD = /^(\(root\)|[A-Za-z_][\w-]*(\[\d+\])*(\.[^\s.:[\]]+(\[\d+\])*)*): \S/;
