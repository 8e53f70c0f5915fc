/**
 * The claim judge (issue 22 §1): a second model reads each claim of an answer against its evidence and says whether
 * the evidence supports it, contradicts it, or does not say, quoting the span it rests on. It reads meaning where the
 * lexical gate (support.ts) counts words: a swapped role, an implicit denial, a synonym.
 *
 * Pure: the model is the ClaimJudge port (adapters/cohere/judge.ts). What the judge answers is not trusted: a reply
 * that is not the JSON asked for, a verdict outside the three, evidence that is not found verbatim in the chunk it
 * names, a timeout, a refusal or any other failure is `could_not_verify`, never `supported`. So is a claim past the
 * run's claim budget, and a claim left when the agent's time ran out (`stop`, a margin before the run's deadline):
 * it was not judged. The judge splits each claim into atomic statements and judges each in the same call
 * (readJudgement): a sentence holding one false fact among true ones is not supported, and says which fact.
 */

import type { ChatDocument, ClaimJudge } from '../ports.ts';
import type {
  ClaimJudgement,
  ClaimSupport,
  JudgedStatement,
  JudgeFailure,
  TokenUsage,
} from '../report/grounding-report.ts';
import { describeError, isServiceError, truncate } from '../shared/errors.ts';
import { isContentWord, stemWord } from './claim-terms.ts';
import { polarityConflicts } from './polarity.ts';
import { type NumberSpan, numberSpans, type Quantity, sameQuantity } from './quantities.ts';

/** The three verdicts a judge may give; anything else it says is unreadable. */
const READABLE_VERDICTS: readonly string[] = [
  'supported',
  'contradicted',
  'not_in_context',
] satisfies ClaimJudgement['verdict'][];
const isReadable = (v: unknown): v is 'supported' | 'contradicted' | 'not_in_context' =>
  typeof v === 'string' && READABLE_VERDICTS.includes(v);

/** How a refusal reads when the model answers in words instead of JSON. */
const REFUSAL = /\b(?:i can(?:not|'t|’t)|i am unable|i'm unable|i’m unable|i (?:won't|will not)|sorry)\b/i;

/** At most this many claims of a run are judged: each is one billed chat call. */
export const DEFAULT_JUDGE_MAX_CLAIMS = 100;

/** The claims a run may still put to the judge; shared by every answer of the run. */
export interface JudgeBudget {
  readonly maxClaims: number;
  used: number;
}

export function createJudgeBudget(maxClaims: number): JudgeBudget {
  return { maxClaims: Math.max(0, maxClaims), used: 0 };
}

/** A claim's key in a judgement map: its span in the answer. */
export const claimKey = (claim: { start: number; end: number }): string => `${claim.start}:${claim.end}`;

/** Collapses runs of white space and straightens quotes, so a quote re-flowed by the model still matches. */
const normalise = (text: string) =>
  text
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The chunks a claim is judged against: those its citations name, or, for an uncited sentence, every chunk the
 * model was given (a fact it states may be there even though it was not cited).
 */
export function evidenceChunks(
  claim: Pick<ClaimSupport, 'kind' | 'chunk_ids'>,
  chunkTexts: Readonly<Record<string, string>>,
): ChatDocument[] {
  const ids = claim.kind === 'uncited_sentence' ? Object.keys(chunkTexts) : claim.chunk_ids;
  return ids.flatMap((id) => {
    const text = chunkTexts[id];
    return text === undefined ? [] : [{ id, text }];
  });
}

const unverified = (failure: JudgeFailure, reason: string): ClaimJudgement => ({
  verdict: 'could_not_verify',
  chunk_id: null,
  evidence: null,
  reason: truncate(reason, 300),
  failure,
});

/** At most this many statements are read from one claim: a sentence holds a few facts, not dozens. */
export const MAX_STATEMENTS = 20;

/** How bad a verdict is: a statement the evidence refutes outranks one it does not hold, which outranks a failure. */
const SEVERITY: Readonly<Record<ClaimJudgement['verdict'], number>> = {
  supported: 0,
  could_not_verify: 1,
  not_in_context: 2,
  contradicted: 3,
};

/**
 * Reads one verdict: a supported or contradicted verdict must quote its evidence from the chunk it names, verbatim
 * (white space and quote marks aside); a not_in_context verdict needs none.
 */
function readVerdict(fields: Record<string, unknown>, chunks: readonly ChatDocument[]): ClaimJudgement {
  const verdict = fields.verdict;
  if (!isReadable(verdict))
    return unverified(
      'malformed',
      `the judge's verdict ${JSON.stringify(verdict ?? null)} is not one of supported, contradicted, not_in_context`,
    );
  const reason = typeof fields.reason === 'string' ? truncate(fields.reason, 300) : '';
  if (verdict === 'not_in_context')
    return { verdict: 'not_in_context', chunk_id: null, evidence: null, reason, failure: null };
  const chunkId = typeof fields.chunk_id === 'string' ? fields.chunk_id : '';
  const evidence = typeof fields.evidence === 'string' ? normalise(fields.evidence) : '';
  const chunk = chunks.find((c) => c.id === chunkId);
  if (chunk === undefined)
    return unverified(
      'evidence_not_found',
      `the judge says ${verdict} citing ${JSON.stringify(chunkId)}, not a chunk it was given`,
    );
  if (!/[\p{L}\p{N}]/u.test(evidence) || !normalise(chunk.text).includes(evidence))
    return unverified(
      'evidence_not_found',
      `the judge says ${verdict}, but its evidence ${JSON.stringify(truncate(evidence, 120))} is not in chunk ${chunkId}`,
    );
  return { verdict, chunk_id: chunkId, evidence, reason, failure: null };
}

/** Reads the judge's `index`-th statement: its text and its own verdict, checked as a claim's. */
function readStatement(raw: unknown, index: number, chunks: readonly ChatDocument[]): JudgedStatement {
  const at = `statement ${index + 1}`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return {
      statement: `(${at}: not a JSON object)`,
      ...unverified('malformed', `the judge's ${at} is not a JSON object`),
    };
  const fields = raw as Record<string, unknown>;
  const text = typeof fields.statement === 'string' ? normalise(fields.statement) : '';
  if (!/[\p{L}\p{N}]/u.test(text))
    return { statement: `(${at}: no text)`, ...unverified('malformed', `the judge's ${at} states nothing`) };
  return { statement: truncate(text, 300), ...readVerdict(fields, chunks) };
}

/**
 * Reads the judge's reply: a JSON object `{ statements: [{ statement, verdict, chunk_id, evidence, reason }] }`, the
 * claim split into atomic statements, each judged (the Ragas faithfulness way, in one call). Each statement is read
 * as a verdict of its own (readVerdict); the claim's verdict, evidence and reason are those of its worst statement
 * (contradicted, then not_in_context, then could_not_verify, then supported; the first on a tie), so one false fact
 * fails the sentence and a statement that could not be verified keeps it from being supported. No statements, or more
 * than MAX_STATEMENTS, is malformed. Statements all supported that leave out a figure `claim` states (in digits or
 * words, with its unit: numbersLeftOut) or one of its denials (denialsLeftOut) are incomplete: the judge split off and
 * dropped a fact, or turned a denial into its opposite, and the claim is could_not_verify, not supported. The reason
 * names what was left out.
 */
export function readJudgement(claim: string, reply: string, chunks: readonly ChatDocument[]): ClaimJudgement {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply);
  } catch {
    return REFUSAL.test(reply)
      ? unverified('refused', `the judge refused: ${JSON.stringify(truncate(reply, 120))}`)
      : unverified('malformed', `the judge's reply is not JSON: ${JSON.stringify(truncate(reply, 120))}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return unverified('malformed', "the judge's reply is not a JSON object");
  const raw = (parsed as Record<string, unknown>).statements;
  if (!Array.isArray(raw) || raw.length === 0) return unverified('malformed', "the judge's reply has no statements");
  if (raw.length > MAX_STATEMENTS)
    return unverified(
      'malformed',
      `the judge split the claim into ${raw.length} statements, more than ${MAX_STATEMENTS}`,
    );
  const statements = raw.map((entry, index) => readStatement(entry, index, chunks));
  const worst = statements.reduce((w, s) => (SEVERITY[s.verdict] > SEVERITY[w.verdict] ? s : w));
  const { statement: _, ...verdict } = worst;
  // Statements that leave out a figure of the claim judged less than the claim ("X runs on Y" of "X runs on Y and
  // needs 64 GB"): every one of them supported does not make the claim supported.
  // Statements that drop a denial of the claim ("X needs Y" of "X does not need Y") state its opposite, or less.
  const figures = verdict.verdict === 'supported' ? numbersLeftOut(claim, statements) : [];
  const denials = verdict.verdict === 'supported' ? denialsLeftOut(claim, statements) : [];
  if (figures.length > 0 || denials.length > 0) {
    const quoted = (list: readonly string[]) => list.map((n) => JSON.stringify(n)).join(', ');
    const parts = [
      ...(figures.length > 0 ? [`${quoted(figures)} of the claim`] : []),
      ...(denials.length > 0 ? [`the claim's denial ${quoted(denials)}`] : []),
    ];
    return { ...unverified('incomplete', `the judge's statements leave out ${parts.join(' and ')}`), statements };
  }
  return { ...verdict, statements };
}

/**
 * How polarity.ts reads the claim and the statements here: as the gate reads a claim against its evidence
 * (support.ts, ALL_SUPPORT_FEATURES), a denial anywhere in the statements included; hedges and numbers are not
 * denials (numbers are numbersLeftOut's).
 */
const DENIAL_READING = {
  anywhere: true,
  sharedDenial: true,
  pairedDenial: true,
  nonPrefix: true,
  bareContractions: true,
  closestClause: true,
  absence: true,
  hedges: false,
  numbers: false,
} as const;

const WORDS = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;
/** What joins a word into a name: "NOT_LEADER", "no-op". */
const GLUED = /^[\p{L}\p{N}_-]$/u;
/** A conflict of a text that states a word against one that denies it: "gpu / not gpu" (polarity.ts's form). */
const STATED_BUT_DENIED = /^(\S+) \/ not \1$/u;
/** The same conflict the other way: the text denies the word, the one it is read against states it. */
const DENIED_BUT_STATED = /^not (\S+) \/ \1$/u;
/** How many words after a denial's cue its name runs to, at most, looking for the first word that carries meaning. */
const DENIAL_NAME_REACH = 4;

/**
 * The longest claim, in words, whose denials are read. Finding a denial's cue reads the claim once per word, so a
 * runaway sentence (800 words: about 10 s on the 2-core machine) would hold up the run; the evaluation set's longest
 * claim is 57 words. A longer claim is judged as before the denial guard: its figures are still read.
 */
export const MAX_DENIAL_WORDS = 60;

/**
 * The claim's denials, each with the words that name it and the stem of the word it denies. A word is a denial's cue exactly when
 * polarity.ts reads the claim without it as stating a word the claim denies ("It does need a GPU" states "gpu", which
 * "It does not need a GPU" denies), so the cues are polarity.ts's own (not, no, never, without, cannot, n't, lacks,
 * instead of...), and a denial it does not read is not checked.
 */
function denialsOf(claim: string): { name: string; denied: string }[] {
  const words = [...claim.matchAll(WORDS)];
  // Each word is one reading of the whole claim: the cost grows with the square of its length.
  if (words.length > MAX_DENIAL_WORDS) return [];
  return words.flatMap((word, i) => {
    // A word glued to a name ("NOT_LEADER", "no-op") is part of it: no denial of the claim's.
    const end = word.index + word[0].length;
    if (GLUED.test(claim.charAt(word.index - 1)) || GLUED.test(claim.charAt(end))) return [];
    const opposite = `${claim.slice(0, word.index)}${claim.slice(end)}`;
    // Without sharedDenial: the claim's other denials stay in the opposite, and must not hide this one.
    // One word is denied: a cue's head (on the evaluation set's claims, no cue gave two).
    const [denied] = polarityConflicts(opposite, [claim], { ...DENIAL_READING, sharedDenial: false }).flatMap(
      (c) => STATED_BUT_DENIED.exec(c)?.[1] ?? [],
    );
    if (denied === undefined) return [];
    const after = words.slice(i + 1, i + 1 + DENIAL_NAME_REACH);
    const reach = after.findIndex((w) => isContentWord(w[0].toLowerCase()));
    const last = reach < 0 ? after.at(-1) : after[reach];
    return [{ name: claim.slice(word.index, last === undefined ? end : last.index + last[0].length), denied }];
  });
}

/**
 * The claim's denials the statements leave out, each named as the claim writes it ("not need a GPU"). A denial is left
 * out when a statement states what it denies (polarity.ts reads "needs a GPU" against "does not need a GPU" as a
 * conflict), or when no statement names what it denies and none denies anything (the denied fact was split off and
 * dropped: "X does not need a map, and it plans paths" judged as "X plans paths"). A statement that restates the
 * denial in other words keeps it: "works without a GPU" names the GPU under a denial; "X lacks support" is a denial
 * polarity.ts reads. A restatement with no denial polarity.ts reads and a word of the opposite ("is optional" for
 * "is not required") is read as a conflict, as the lexical gate reads it (docs/GROUNDING.md, the judge's failures).
 */
function denialsLeftOut(claim: string, statements: readonly JudgedStatement[]): string[] {
  const denials = denialsOf(claim);
  if (denials.length === 0) return [];
  const texts = statements.map((s) => s.statement);
  const stated = new Set(
    polarityConflicts(claim, texts, DENIAL_READING).flatMap((c) => DENIED_BUT_STATED.exec(c)?.[1] ?? []),
  );
  const named = new Set(texts.flatMap((t) => [...t.matchAll(WORDS)].map((w) => stemWord(w[0].toLowerCase()))));
  const unnamed = denials.filter((d) => !named.has(d.denied));
  const dropped = unnamed.length > 0 && !texts.some((t) => denialsOf(t).length > 0) ? unnamed : [];
  const left = denials.filter((d) => stated.has(d.denied) || dropped.includes(d));
  return [...new Set(left.map((d) => d.name))];
}

/**
 * Ordinal words, read on the statements' side only: "the third node" keeps a claim's "3rd node" (quantities.ts reads
 * "3rd" as 3 but no ordinal word). A claim's own ordinal word is no figure it states, so it is never counted as left out.
 */
const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  twentieth: 20,
  hundredth: 100,
  thousandth: 1000,
};

/** Letters glued to the end of a number: an ordinal's or a factor's ("rd" of "3rd", "x" of "2x"). */
const GLUED_LETTERS = /^\p{L}+/u;

/** A number's value as compared: "3" and "three" (key "3"), "1.5" and "1.50" are one; a key no number reads as it is. */
const numericValue = (key: string): number | string => {
  const value = Number(key);
  return Number.isNaN(value) ? key : value;
};

/**
 * The figures the claim states that none of the statements states, as the claim writes them ("64 GB", "sixty-four",
 * "1,000"). Numbers are read as quantities.ts reads them: in digits or in words, with their unit, a version glued to
 * letters ("v2", "Nav2") no number. They are compared by value: "three" keeps "3", "64 GB" keeps "sixty-four
 * gigabytes" and "64,000 MB". A figure with a unit is kept by the same quantity, or by its number stated without a
 * unit; a statement that gives it another amount of the unit ("64 MB") does not keep it. The statements are read
 * leniently (as evidence is: "a second" is one second), so a restated figure is found rather than missed.
 */
function numbersLeftOut(claim: string, statements: readonly JudgedStatement[]): string[] {
  const text = statements.map((s) => s.statement).join(' ');
  const stated = numberSpans(text, { lenient: true });
  const values = new Set([
    ...stated.map((s) => numericValue(s.key)),
    ...[...text.toLowerCase().matchAll(/\p{L}+/gu)].flatMap((m) => ORDINALS[m[0]] ?? []),
  ]);
  const bare = new Set(stated.filter((s) => s.quantity === null).map((s) => numericValue(s.key)));
  const quantities = stated.flatMap((s) => s.quantity ?? []);
  const kept = (span: NumberSpan) =>
    span.quantity === null
      ? values.has(numericValue(span.key))
      : bare.has(numericValue(span.key)) || quantities.some((q) => sameQuantity(q, span.quantity as Quantity));
  // Named as written: with its unit ("64 GB"), or with the letters glued to it ("3rd", "2x").
  const written = (span: NumberSpan) =>
    span.quantity === null
      ? `${claim.slice(span.index, span.end)}${GLUED_LETTERS.exec(claim.slice(span.end))?.[0] ?? ''}`
      : `${claim.slice(span.index, span.end)} ${span.quantity.unit}`;
  return [
    ...new Set(
      numberSpans(claim)
        .filter((span) => !kept(span))
        .map(written),
    ),
  ];
}

/** The statement a claim's verdict came from (its first statement with that verdict); undefined without statements. */
export function failingStatement(judgement: ClaimJudgement): JudgedStatement | undefined {
  return judgement.statements?.find((s) => s.verdict === judgement.verdict);
}

/** Why the run stopped the judge (its stop signal's reason), in words for a claim's reason and a finding. */
export function stopReason(stop: AbortSignal): string {
  const reason: unknown = stop.reason;
  return reason instanceof Error ? reason.message : 'the run had to stop';
}

/** What judging an answer's claims cost and found. */
export interface JudgedClaims {
  judgements: Map<string, ClaimJudgement>;
  usage: TokenUsage;
}

/**
 * Puts every claim of an answer to the judge, one call at a time, while the run's budget lasts and until `stop`
 * aborts. A claim without a chunk to read (its citations name none that was given) is not_in_context without a call.
 * Once `stop` has aborted, no call starts, and the claims left (the one whose call it cut included) are
 * could_not_verify with failure "deadline": the verdicts already had are kept.
 */
export async function judgeClaims(options: {
  claims: readonly ClaimSupport[];
  chunkTexts: Readonly<Record<string, string>>;
  judge: ClaimJudge;
  budget: JudgeBudget;
  /** Aborts when the agent's time is up (a margin before the run's deadline). */
  stop?: AbortSignal;
}): Promise<JudgedClaims> {
  const { judge, budget, stop } = options;
  const notJudged = (signal: AbortSignal) => unverified('deadline', `not judged: ${stopReason(signal)}`);
  const judgements = new Map<string, ClaimJudgement>();
  const usage: TokenUsage = { input_tokens: 0, output_tokens: 0 };
  for (const claim of options.claims) {
    const chunks = evidenceChunks(claim, options.chunkTexts);
    if (chunks.length === 0) {
      judgements.set(claimKey(claim), {
        verdict: 'not_in_context',
        chunk_id: null,
        evidence: null,
        reason: 'no chunk given to the model to check it against',
        failure: null,
      });
      continue;
    }
    if (stop?.aborted) {
      judgements.set(claimKey(claim), notJudged(stop));
      continue;
    }
    if (budget.used >= budget.maxClaims) {
      judgements.set(
        claimKey(claim),
        unverified('budget_exhausted', `the run's judge budget of ${budget.maxClaims} claims was spent`),
      );
      continue;
    }
    budget.used += 1;
    try {
      const reply = await judge.judge({ claim: claim.text, chunks });
      usage.input_tokens += reply.billedUnits.inputTokens;
      usage.output_tokens += reply.billedUnits.outputTokens;
      judgements.set(claimKey(claim), readJudgement(claim.text, reply.text, chunks));
    } catch (error) {
      // A call the stop cut is the run's time running out, not the judge failing.
      if (stop?.aborted) judgements.set(claimKey(claim), notJudged(stop));
      else {
        const timedOut = isServiceError(error) && error.kind === 'timeout';
        judgements.set(claimKey(claim), unverified(timedOut ? 'timeout' : 'unavailable', describeError(error)));
      }
    }
  }
  return { judgements, usage };
}

/**
 * The claims with the judge's verdicts applied: a judged claim is supported exactly when the judge says so; the
 * lexical gate's verdict stays beside it (`lexical_supported`). Claims the judge did not see are left as they are.
 */
export function applyJudgements(
  claims: readonly ClaimSupport[],
  judgements: ReadonlyMap<string, ClaimJudgement> | undefined,
): ClaimSupport[] {
  if (judgements === undefined) return [...claims];
  return claims.map((claim) => {
    const judgement = judgements.get(claimKey(claim));
    if (judgement === undefined) return claim;
    return {
      ...claim,
      lexical_supported: claim.supported,
      supported: judgement.verdict === 'supported',
      judge: judgement,
    };
  });
}

/**
 * One line a person reads to see why the judge did not find a claim supported. When the judge split the claim, it
 * names the statement the verdict came from ("statement "X needs 64 GB" of claim ...").
 */
export function describeJudgement(claim: Pick<ClaimSupport, 'text' | 'chunk_ids'>, judgement: ClaimJudgement): string {
  const short = (text: string) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  const statement = (judgement.statements?.length ?? 0) > 1 ? failingStatement(judgement) : undefined;
  const quoted =
    statement === undefined
      ? `claim ${short(claim.text)}`
      : `statement ${short(statement.statement)} of claim ${short(claim.text)}`;
  const because = judgement.reason === '' ? '' : `: ${judgement.reason}`;
  switch (judgement.verdict) {
    case 'contradicted':
      return `the judge finds ${quoted} contradicted by ${judgement.chunk_id}, which says ${JSON.stringify(truncate(judgement.evidence ?? '', 120))}${because}`;
    case 'not_in_context':
      return `the judge finds ${quoted} not in the chunks it ${claim.chunk_ids.length > 0 ? `cites (${claim.chunk_ids.join(', ')})` : 'was given'}${because}`;
    case 'could_not_verify':
      return `the judge could not verify ${quoted} (${judgement.failure})${because}`;
    default:
      return `the judge finds ${quoted} supported by ${judgement.chunk_id}`;
  }
}
