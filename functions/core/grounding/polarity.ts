/**
 * Polarity: a claim that reuses every word of its chunk can still say the opposite ("URDF can describe closed loops"
 * where the chunk says it cannot). Each clause of the claim is matched to the sentence of the evidence that shares the
 * most content words with it, and the two are compared word by word:
 *
 * - a word under a negation in one and not in the other ("not supported" / "supported", "without a certificate" /
 *   "requires a certificate", "lacks exact knowledge" / "knows the exact");
 * - a word whose antonym stands in the evidence's sentence instead, under the same polarity ("required" / "optional",
 *   "compatible" / "incompatible", "private" / "publicly"); under opposite polarities they agree ("not required" /
 *   "optional").
 *
 * A conflict is reported as the claim's words and the evidence's, so a person sees why.
 */
import { isContentWord, stemWord } from './claim-terms.ts';
import { statedNumbers } from './quantities.ts';

/** Words that negate what follows them in their clause. */
const NEGATION_CUES: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'none',
  'nothing',
  'neither',
  'nor',
  'without',
  'cannot',
  'lack',
  'lacks',
  'lacked',
  'lacking',
]);
/**
 * Contractions of "not" written without their apostrophe ("dont block reads", "isnt supported"): a typo, read as the
 * contraction. "cant" and "wont" are also rare words of their own ("thieves' cant"), which no answer of this domain uses.
 */
const BARE_CONTRACTIONS: ReadonlySet<string> = new Set(
  'dont doesnt didnt isnt arent wasnt werent hasnt havent hadnt cant couldnt wont wouldnt shouldnt mustnt neednt'.split(
    ' ',
  ),
);
/**
 * Cues that negate a noun phrase ("without a client certificate", "no data", "instead of kneading"): only its first
 * content word. The others ("not", "never", "cannot") negate a verb phrase, whose first content word may be an
 * adverb or an auxiliary's complement ("never run heron init", "not usually used"): DEFAULT_NEGATION_SCOPE words.
 */
const NOUN_CUES: ReadonlySet<string> = new Set([
  'no',
  'none',
  'nothing',
  'without',
  'lack',
  'lacks',
  'lacked',
  'lacking',
  'instead',
  'rather',
]);
/** Indefinite pronouns carry no claim of their own ("not ... for anything that takes long"): skipped in a scope. */
const PRONOUNS: ReadonlySet<string> = new Set([
  'anything',
  'something',
  'everything',
  'anyone',
  'someone',
  'everyone',
  'anybody',
  'somebody',
  'everybody',
]);
/** Words that open a subordinate clause, ending a negation's scope ("not ... for anything that takes long"). */
const SCOPE_ENDS: ReadonlySet<string> = new Set([
  'that',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'if',
  'unless',
  'until',
]);
/** Words after a cue that make it a bound or a contrast, not a negation: "not only", "no more than", "no later". */
const NOT_NEGATING_AFTER: ReadonlySet<string> = new Set([
  'only',
  'just',
  'merely',
  'more',
  'less',
  'fewer',
  'later',
  'earlier',
  'longer',
  'matter',
  'doubt',
]);
/**
 * A prefix written with its hyphen that denies the word it joins, as "without" would: "non-RTX Windows machines" are
 * machines without RTX, "non-essential warnings" are not essential ones. Only with the hyphen: "none" and "nonzero"
 * are words of their own.
 */
const NON_PREFIX = 'non';
/** Two-word cues: "instead of kneading", "rather than copying". */
const PAIR_CUES: readonly [string, string][] = [
  ['instead', 'of'],
  ['rather', 'than'],
];

/**
 * Pairs of opposite words of general English, compared by stem. Not a domain's vocabulary: a pair is here when a
 * reader takes one for the denial of the other in any text.
 */
const ANTONYM_PAIRS: readonly [string, string][] = [
  ['required', 'optional'],
  ['requires', 'optional'],
  ['require', 'optionally'],
  ['mandatory', 'optional'],
  ['essential', 'unnecessary'],
  ['essential', 'optional'],
  ['always', 'never'],
  ['include', 'exclude'],
  ['increase', 'decrease'],
  ['increase', 'reduce'],
  ['raise', 'lower'],
  ['fast', 'slow'],
  ['faster', 'slower'],
  ['high', 'low'],
  ['higher', 'lower'],
  ['more', 'less'],
  ['more', 'fewer'],
  ['before', 'after'],
  ['large', 'small'],
  ['larger', 'smaller'],
  ['long', 'short'],
  ['longer', 'shorter'],
  ['early', 'late'],
  ['earlier', 'later'],
  ['first', 'last'],
  ['stop', 'continue'],
  ['stops', 'keeps'],
  ['accept', 'reject'],
  ['allow', 'forbid'],
  ['allow', 'prevent'],
  ['public', 'private'],
  ['publicly', 'private'],
  ['open', 'closed'],
  ['hot', 'cold'],
  ['warm', 'cold'],
  ['strong', 'weak'],
  ['wet', 'dry'],
  ['soft', 'firm'],
  ['soft', 'hard'],
  ['easy', 'hard'],
  ['easier', 'harder'],
  ['add', 'remove'],
  ['success', 'failure'],
  ['succeed', 'fail'],
  ['true', 'false'],
  ['local', 'remote'],
  ['internal', 'external'],
  ['inside', 'outside'],
  ['maximum', 'minimum'],
  ['cheap', 'expensive'],
  ['online', 'offline'],
  ['sparse', 'dense'],
  ['thin', 'thick'],
  ['wide', 'narrow'],
  ['static', 'dynamic'],
  ['manual', 'automatic'],
  ['manually', 'automatically'],
  ['explicit', 'implicit'],
  ['explicitly', 'implicitly'],
  ['synchronous', 'asynchronous'],
  ['permanent', 'temporary'],
  ['safe', 'dangerous'],
  ['accurate', 'inaccurate'],
  ['fresh', 'stale'],
];
const ANTONYMS: ReadonlyMap<string, ReadonlySet<string>> = (() => {
  const map = new Map<string, Set<string>>();
  const add = (a: string, b: string) => map.set(a, (map.get(a) ?? new Set()).add(b));
  for (const [a, b] of ANTONYM_PAIRS) {
    add(stemWord(a), stemWord(b));
    add(stemWord(b), stemWord(a));
  }
  return map;
})();
/** Particles that make a verb another verb ("keep out", "turn off", "give away"): its antonyms are not theirs. */
const PARTICLES: ReadonlySet<string> = new Set(['out', 'off', 'away']);
/** How far after its verb a particle may stand: past a short object ("keeps most other microbes out"). */
const PARTICLE_REACH = 5;
/** Negating prefixes: "incompatible" denies "compatible", "unsafe" "safe", "disabled" "enabled". */
const NEGATING_PREFIXES = ['un', 'in', 'im', 'ir', 'il', 'non', 'dis'] as const;

/** How many content words after a cue it negates (tuned on the evaluation set's dev split). */
const DEFAULT_NEGATION_SCOPE = 2;

interface Token {
  /** The word, lowercased, as written (a hedge is named by it). */
  word: string;
  stem: string;
  content: boolean;
  /** Under a negation: 1 for the first content word after the cue (its head), 2 for the next, and so on; 0 when not. */
  depth: number;
  /** The stem of the cue's head word, for a word further in its scope. */
  head: string | null;
  /**
   * After a word of absence ("removes the single point of failure", "free of lumps"): absent, which agrees with a
   * denial ("no single point of failure") and with a plain mention alike, so it is compared with neither.
   */
  absent: boolean;
  /** Its clause holds a denial somewhere ("Wheel odometry is not available"), whether or not this word is under it. */
  deniedClause: boolean;
  /** The head words its clause denies (the stems of its tokens at depth 1), for pairing denials one to one. */
  clauseDenials: readonly string[];
}

/** How a text's polarity is read: the negation's scope in content words, and whether words of absence count. */
interface Reading {
  scope: number;
  absence: boolean;
  /** "dont", "isnt" read as "don't", "isn't" (BARE_CONTRACTIONS). */
  bareContractions: boolean;
  /** "non-" before a hyphen is a cue ("non-RTX machines" deny the RTX; NON_PREFIX). */
  nonPrefix: boolean;
  /** A dash between two numbers is a range, not a clause break (CLAUSE_BREAK_BUT_RANGES). */
  dashRanges: boolean;
}
const keyOf = (reading: Reading) =>
  `${reading.scope}${reading.absence ? '+absence' : ''}${reading.bareContractions ? '+bare' : ''}${reading.dashRanges ? '+dash' : ''}${reading.nonPrefix ? '+non' : ''}`;

/**
 * Words that say a thing is gone or kept away without a negation: "removes the single point of failure" says there is
 * none, as "no single point of failure" does. Their object's head is absent (Token.absent). Not a denial: "removes the
 * lid" against "the lid stays on" is left to the other rules, since an answer rewords both ways.
 */
const ABSENCE_CUES: ReadonlySet<string> = new Set([
  'remove',
  'removes',
  'removed',
  'removing',
  'eliminate',
  'eliminates',
  'eliminated',
  'eliminating',
  'avoid',
  'avoids',
  'avoided',
  'avoiding',
  'drop',
  'drops',
  'dropped',
  'dropping',
  'discard',
  'discards',
  'discarded',
  'discarding',
  'omit',
  'omits',
  'omitted',
  'omitting',
  'exclude',
  'excludes',
  'excluded',
  'excluding',
  'skip',
  'skips',
  'skipped',
  'skipping',
  'slows',
  'slowed',
  'slowing',
]);
/** How many content words after a word of absence are absent. */
const ABSENCE_REACH = 2;
/** Two-word words of absence: "free of lumps", "rid of the master". */
const ABSENCE_PAIRS: readonly [string, string][] = [
  ['free', 'of'],
  ['rid', 'of'],
  ['absence', 'of'],
  ['out', 'of'],
  ['away', 'from'],
];

/** A clause or a sentence, as tokens with their polarity. */
type Unit = Token[];

const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;
// A line break inside a paragraph is wrapping, not a break: only a blank line or a list item ends a sentence.
const LINE_BREAK = String.raw`\n\s*\n|\n(?=\s*(?:[-*+>#]|\d+\.)\s)`;
const SENTENCE_BREAK = new RegExp(String.raw`[.!?;]+(?=\s|$)|${LINE_BREAK}`, 'gu');
// Clause breaks: a sentence's, punctuation inside it, and the conjunctions that start a clause of their own.
const clauseBreak = (dash: string) =>
  new RegExp(
    String.raw`[.!?;]+(?=\s|$)|${LINE_BREAK}|,(?!\d)|[:()]|${dash}|\b(?:but|though|although|whereas|while|which|so|yet|because)\b`,
    'giu',
  );
const CLAUSE_BREAK = clauseBreak('[–—]');
/** With `dashRanges`, a dash between two numbers ("1–3 hours", "20 — 30") is a range, not a break between clauses. */
const CLAUSE_BREAK_BUT_RANGES = clauseBreak(String.raw`(?<!\d\s?)[–—]|[–—](?!\s?\d)`);
const clauseBreakOf = (reading: Reading) => (reading.dashRanges ? CLAUSE_BREAK_BUT_RANGES : CLAUSE_BREAK);

/**
 * Words before an elliptical cue that make it no denial of a predicate: "whether or not", "if not", "or not", "why not".
 */
const NOT_ELLIPTICAL_AFTER: ReadonlySet<string> = new Set(['or', 'if', 'why', 'whether']);

/**
 * Whether a clause ends in a denial of a verb phrase it leaves out: "A humanoid cannot:", "0.1pl2 cannot do this",
 * "the client does not" (only function words after the cue). Such a clause denies, of its own subject, what the
 * clause before it states ("A wheeled base executes a cmd_vel twist directly. A humanoid cannot").
 */
function isElliptical(text: string): boolean {
  const raw = [...text.matchAll(WORD)].map((m) => m[0].toLowerCase().replace(/[’]/g, "'"));
  const cue = raw.findLastIndex((w) => w === 'not' || w === 'cannot' || w === 'never' || /n't$/.test(w));
  // "whether or not", "may or may not": a cue one or two words after one of these is no denial.
  if (cue < 0 || raw.slice(Math.max(0, cue - 2), cue).some((w) => NOT_ELLIPTICAL_AFTER.has(w))) return false;
  return raw.slice(cue + 1).every((w) => !isContentWord(w.replace(/'\p{L}+$/u, '')));
}

function tokenize(text: string, reading: Reading): Unit {
  const { scope } = reading;
  const tokens: Token[] = [];
  let negateNext = 0;
  let depth = 0;
  let head: string | null = null;
  let absentNext = 0;
  const matches = [...text.matchAll(WORD)];
  const raw = matches.map((m) => m[0].toLowerCase().replace(/[’]/g, "'"));
  // "non-RTX", "Non-LTS", "non-essential": a prefix the tokenizer splits off at its hyphen.
  const prefixed = (i: number) => {
    const m = matches[i] as RegExpExecArray;
    return text[m.index + m[0].length] === '-';
  };
  // Whether the current clause denies anything: a subordinate clause ("until the dough is kneaded") is one of its own.
  let clauseStart = 0;
  let deniedClause = false;
  const closeClause = () => {
    const clause = tokens.slice(clauseStart);
    const heads = clause.filter((t) => t.depth === 1 && t.content).map((t) => t.stem);
    for (const token of clause) {
      token.deniedClause = deniedClause;
      token.clauseDenials = heads;
    }
    clauseStart = tokens.length;
    deniedClause = false;
  };
  raw.forEach((word, i) => {
    const next = raw[i + 1] ?? '';
    const contraction = /n't$/.test(word) || (reading.bareContractions && BARE_CONTRACTIONS.has(word));
    const base = contraction ? word.replace(/n't$/, '') : word.replace(/'\p{L}+$/u, '');
    const nonPrefix = reading.nonPrefix && base === NON_PREFIX && prefixed(i);
    const isCue =
      ((NEGATION_CUES.has(base) || contraction) && !NOT_NEGATING_AFTER.has(next)) ||
      PAIR_CUES.some(([a, b]) => base === a && next === b) ||
      nonPrefix;
    if (isCue) {
      deniedClause = true;
      negateNext = NOUN_CUES.has(base) || nonPrefix ? Math.min(scope, 1) : scope;
      depth = 0;
      head = null;
      return;
    }
    if (SCOPE_ENDS.has(base)) {
      closeClause();
      negateNext = 0;
      absentNext = 0;
    }
    const content = isContentWord(base) && !PRONOUNS.has(base);
    const stem = stemWord(base);
    const negated = negateNext > 0;
    if (negated && content) depth++;
    const absent = absentNext > 0 && content;
    tokens.push({
      word: base,
      stem,
      content,
      depth: negated ? Math.max(depth, 1) : 0,
      head: negated ? head : null,
      absent,
      deniedClause: false,
      clauseDenials: [],
    });
    if (negated && content && head === null) head = stem;
    if (content && negateNext > 0) negateNext--;
    if (content && absentNext > 0) absentNext--;
    // "removes the lid", "free of lumps": the next content word is absent.
    if (reading.absence && (ABSENCE_CUES.has(base) || ABSENCE_PAIRS.some(([a, b]) => base === a && next === b)))
      absentNext = ABSENCE_REACH;
  });
  closeClause();
  return tokens;
}

/** A clause of the claim: its tokens and the numbers it states (digits or words, as statedNumbers reads them). */
interface ClaimClause {
  tokens: Unit;
  numbers: string[];
}

/** Numbers that are part of a name ("ROS 2", "Python 3.12"): a name's version, not a figure of the sentence. */
function versions(text: string): Set<string> {
  return new Set([...text.matchAll(/\b\p{Lu}[\p{L}\p{N}_-]*\s+(\d+(?:\.\d+)*)\b/gu)].map((m) => m[1] ?? ''));
}

function claimClausesOf(text: string, reading: Reading): ClaimClause[] {
  const clauses: ClaimClause[] = [];
  let pending: string[] = [];
  for (const part of text.split(clauseBreakOf(reading))) {
    const tokens = tokenize(part, reading);
    const numbers = statedNumbers(part).filter((n) => !versions(part).has(n));
    const last = clauses.at(-1);
    // A clause without a content word ("such as 4.2 to 4.4", "In short:") gives its numbers to the clause before it
    // (or after it, at the start); its words claim nothing.
    if (!tokens.some((t) => t.content)) {
      if (last) last.numbers.push(...numbers);
      else pending.push(...numbers);
      continue;
    }
    clauses.push({ tokens, numbers: [...pending, ...numbers] });
    pending = [];
  }
  return clauses;
}

/** A sentence of the evidence: its tokens, the same tokens clause by clause (for the hedges), and its numbers. */
interface Sentence {
  tokens: Unit;
  clauses: Unit[];
  numbers: ReadonlySet<string>;
  /** The numbers of each clause, in the order of `clauses`. */
  clauseNumbers: ReadonlySet<string>[];
}

/**
 * The evidence's sentences, read once per text and scope: a chunk is read again for every claim that cites it, and
 * an uncited part is read against every chunk given. Bounded, so a long run does not keep every chunk it saw.
 */
const READ_SENTENCES = new Map<string, Sentence[]>();
const READ_SENTENCES_MAX = 512;
function sentencesOf(text: string, reading: Reading): Sentence[] {
  const key = `${keyOf(reading)}\n${text}`;
  const known = READ_SENTENCES.get(key);
  if (known) return known;
  if (READ_SENTENCES.size >= READ_SENTENCES_MAX) READ_SENTENCES.clear();
  const read = readSentences(text, reading);
  READ_SENTENCES.set(key, read);
  return read;
}

/** Sentences of the evidence, each the tokens of its clauses, so polarity is read the same way on both sides. */
function readSentences(text: string, reading: Reading): Sentence[] {
  return text
    .split(SENTENCE_BREAK)
    .map((sentence) => {
      const read = claimClausesOf(sentence, reading);
      const clauses = read.map((c) => c.tokens);
      return {
        tokens: clauses.flat(),
        clauses,
        numbers: new Set(statedNumbers(sentence, { lenient: true })),
        clauseNumbers: read.map((c) => new Set(c.numbers)),
      };
    })
    .filter((s) => s.tokens.length > 0);
}

/** A clause that denies, of its own subject, what the clause before it states (isElliptical), as stems. */
interface Ellipsis {
  subject: ReadonlySet<string>;
  antecedent: ReadonlySet<string>;
}

const READ_ELLIPSES = new Map<string, Ellipsis[]>();
function ellipsesOf(text: string, reading: Reading): Ellipsis[] {
  const key = `${keyOf(reading)}\n${text}`;
  const known = READ_ELLIPSES.get(key);
  if (known) return known;
  if (READ_ELLIPSES.size >= READ_SENTENCES_MAX) READ_ELLIPSES.clear();
  const clauses = text
    .split(SENTENCE_BREAK)
    .flatMap((sentence) => sentence.split(clauseBreakOf(reading)))
    .map((part) => ({ part, stems: contentStems(tokenize(part, reading)) }))
    .filter((c) => c.stems.size > 0);
  const read: Ellipsis[] = [];
  for (const [i, { part, stems }] of clauses.entries()) {
    const before = clauses[i - 1];
    if (before === undefined || !isElliptical(part)) continue;
    // The subject is what tells it from the clause before: "The big robot walks fast. The small robot cannot" is of
    // the small one. "The client retries. The client does not" denies nothing of another.
    const subject = [...stems].filter((s) => !before.stems.has(s));
    // What it denies is what the clause before says besides the words the two share ("robot").
    const antecedent = new Set([...before.stems].filter((s) => !stems.has(s)));
    // An empty subject (the same subject) is never named by a claim (ellipsisRestated), so it restates nothing.
    read.push({ subject: new Set(subject), antecedent });
  }
  READ_ELLIPSES.set(key, read);
  return read;
}

/**
 * The ellipsis a claim clause restates: it names the elliptical clause's subject and shares two content words with
 * what the clause before it states (its predicate, the subject's words aside). Its predicate's stems, or null.
 */
function ellipsisRestated(stems: ReadonlySet<string>, ellipses: readonly Ellipsis[]): string[] | null {
  for (const e of ellipses) {
    if (![...e.subject].some((s) => stems.has(s))) continue;
    const predicate = [...e.antecedent].filter((s) => stems.has(s));
    if (predicate.length >= 2) return predicate;
  }
  return null;
}

/**
 * Words that make a statement a possibility or a usual case rather than a fact or a rule: "may still fail",
 * "typically uses", "is commonly rooted". A claim that states it without any of them ("will fail", "must use",
 * "is always rooted") says more than its evidence.
 */
const HEDGES: ReadonlySet<string> = new Set([
  'may',
  'might',
  'could',
  'can',
  'usually',
  'often',
  'typically',
  'commonly',
  'generally',
  'normally',
  'sometimes',
  'occasionally',
  'frequently',
  'likely',
  'possibly',
  'perhaps',
  'probably',
  'rarely',
  'seldom',
  'tend',
  'tends',
]);
const hedgeOf = (unit: Unit) => unit.find((t) => HEDGES.has(t.word))?.word;
/**
 * Words that state a rule or a certainty. Only a claim that says one of them is held to its evidence's hedge: a
 * clause without a hedge may simply be cut from a longer sentence ("scene full of animated humans" from "can render a
 * scene full of animated humans"), while "will fail" for "may fail" asserts what the evidence does not.
 */
const CATEGORICAL: ReadonlySet<string> = new Set([
  'will',
  'always',
  'must',
  'every',
  'all',
  'certainly',
  'definitely',
  'guaranteed',
  'guarantees',
  'invariably',
  'necessarily',
  'only',
]);
const categoricalOf = (unit: Unit) => unit.find((t) => CATEGORICAL.has(t.word))?.word;

/**
 * The hedge the evidence puts on what a clause states as a rule or a certainty: a hedged clause of the matched
 * sentence, itself without a categorical word, that shares two content words with it. Null when the claim clause
 * hedges too, states nothing categorical, or no such clause exists.
 */
function hedgeDropped(clause: Unit, sentence: Sentence): string | null {
  const categorical = categoricalOf(clause);
  if (hedgeOf(clause) !== undefined || categorical === undefined) return null;
  const stems = contentStems(clause);
  for (const theirs of sentence.clauses) {
    const hedge = hedgeOf(theirs);
    const shared = [...contentStems(theirs)].filter((stem) => stems.has(stem));
    if (hedge !== undefined && categoricalOf(theirs) === undefined && shared.length >= 2)
      return `${categorical} / ${hedge} (${shared.slice(0, 3).join(' ')})`;
  }
  return null;
}

const contentStems = (unit: Unit) => new Set(unit.filter((t) => t.content).map((t) => t.stem));
/**
 * Whether a token is negated, seen from the other side: the cue's head word always is; a word further in its scope
 * ("not in a sealed bag") is only when the other side does not share the head, for then the object carries the
 * difference ("don't knead the dough" against "instead of kneading, ... the dough" denies the kneading, not the dough).
 */
const isNegated = (token: Token, otherStems: ReadonlySet<string>) =>
  token.depth === 1 ||
  (token.depth > 1 &&
    (token.head === null ||
      // The head is shared in other words too when the other side states its antonym ("not required" / "optional").
      !(otherStems.has(token.head) || oppositesOf(token.head).some((o) => otherStems.has(o)))));
const polarities = (unit: Unit, stem: string, otherStems: ReadonlySet<string>) =>
  new Set(unit.filter((t) => t.stem === stem).flatMap((t) => (t.absent ? [true, false] : [isNegated(t, otherStems)])));

/** The polarity conflicts of a claim against its evidence, each as "claim word / evidence word"; empty when none. */
export function polarityConflicts(
  claim: string,
  evidenceTexts: readonly string[],
  options: {
    scope?: number;
    antonyms?: boolean;
    hedges?: boolean;
    numbers?: boolean;
    anywhere?: boolean;
    ellipsis?: boolean;
    absence?: boolean;
    particles?: boolean;
    sharedDenial?: boolean;
    pairedDenial?: boolean;
    bareContractions?: boolean;
    nonPrefix?: boolean;
    dashRanges?: boolean;
    closestClause?: boolean;
    onOff?: boolean;
    numbersInClause?: boolean;
  } = {},
): string[] {
  const scope = options.scope ?? DEFAULT_NEGATION_SCOPE;
  const reading: Reading = {
    scope,
    absence: options.absence === true,
    bareContractions: options.bareContractions === true,
    nonPrefix: options.nonPrefix === true,
    dashRanges: options.dashRanges === true,
  };
  const sentences = evidenceTexts.flatMap((t) => sentencesOf(t, reading));
  // A denial that leaves its verb phrase out ("A humanoid cannot:") takes it from the clause before; only with a
  // negation to read (scope > 0).
  const ellipses = options.ellipsis === true && scope > 0 ? evidenceTexts.flatMap((t) => ellipsesOf(t, reading)) : [];
  const allEvidence = new Set(sentences.flatMap((s) => s.tokens.map((t) => t.stem)));
  const allNumbers = new Set(sentences.flatMap((s) => [...s.numbers]));
  const conflicts = new Set<string>();
  for (const { tokens: clause, numbers } of claimClausesOf(claim, reading)) {
    const stems = contentStems(clause);
    const predicate = ellipsisRestated(stems, ellipses);
    if (predicate !== null) {
      // The clause speaks of the elliptical clause's subject: it must deny the predicate as that clause does, and the
      // sentence that states the predicate of another subject is not its evidence.
      const subject = ellipses.find((e) => [...e.subject].some((x) => stems.has(x)))?.subject ?? new Set<string>();
      const named = [...subject].filter((x) => stems.has(x)).join(' ');
      if (!clause.some((t) => t.depth >= 1 && predicate.includes(t.stem)))
        conflicts.add(`${named} ${predicate[0]} / ${named} not ${predicate[0]}`);
    }
    const shared = sentences.map((s) => [...contentStems(s.tokens)].filter((stem) => stems.has(stem)).length);
    const best = Math.max(0, ...shared);
    // One shared word says too little about which sentence the clause restates.
    if (best < 2) continue;
    const aligned = sentences.filter((_, i) => shared[i] === best);
    const perSentence = aligned.map((sentence) => [
      ...clauseConflicts(clause, sentence, allEvidence, {
        antonyms: options.antonyms !== false,
        particles: options.particles === true,
        sharedDenial: options.sharedDenial === true,
        pairedDenial: options.pairedDenial === true,
        closestClause: options.closestClause === true,
        onOff: options.onOff === true,
      }),
      ...(options.hedges === false ? [] : [hedgeDropped(clause, sentence)].filter((h) => h !== null)),
    ]);
    // Several sentences restate the clause equally well: a conflict counts only when every one of them has it.
    const [first = [], ...rest] = perSentence;
    if (predicate === null) for (const c of first) if (rest.every((r) => r.includes(c))) conflicts.add(c);
    // A number the evidence states, but not in the sentence the clause restates ("4.2 to 4.4" where that sentence
    // says "4.2 to 4.3" and the next one "4.4"): a figure moved to another role. A number stated nowhere is already
    // a missing number (support.ts).
    if (options.numbers === false) continue;
    for (const n of numbers)
      if (allNumbers.has(n) && !aligned.some((s) => s.numbers.has(n)))
        conflicts.add(`${n} / ${[...(aligned[0]?.numbers ?? [])].join(' ') || 'no number'}`);
    // The sentence holds the number, in another clause than the one the claim's restates, which states a number the
    // claim's clause lacks: "above 50 ms for 5 minutes, or ... for more than 15 minutes" read as "for 15 minutes". Only
    // when the clause that holds it restates the claim's less well (fewer shared words): a clause that sums up two
    // ("1–3 hours or overnight") is left alone.
    const [only] = aligned;
    if (options.numbersInClause !== true || aligned.length !== 1 || only === undefined) continue;
    const k = closestClauseIndex(clause, only.clauses);
    const theirs = k === null ? undefined : only.clauseNumbers[k];
    if (k === null || theirs === undefined || [...theirs].every((m) => numbers.includes(m))) continue;
    const sharedIn = (unit: Unit) => [...contentStems(unit)].filter((x) => stems.has(x)).length;
    const closest = sharedIn(only.clauses[k] ?? []);
    for (const n of numbers) {
      const holders = only.clauses.filter((_, j) => only.clauseNumbers[j]?.has(n));
      if (holders.length > 0 && holders.every((h) => sharedIn(h) < closest))
        conflicts.add(`${n} / ${[...theirs].join(' ')}`);
    }
  }
  if (options.anywhere === true)
    for (const c of reversedAnywhere(claim, reading, sentences, options.sharedDenial === true)) conflicts.add(c);
  return [...conflicts];
}

/**
 * The words a claim states with one polarity that the evidence states only with the other, wherever they stand: the
 * clause alignment above compares a clause with the one sentence that shares most words with it, and misses a denial
 * that sits in the next sentence or clause ("A starter with pink streaks can be rescued" against "Discard a starter
 * that shows pink streaks; ... it cannot be rescued safely"). Only a negation's head word counts on either side (a
 * word further in a scope depends on what the other side shares: isNegated), and only a word every occurrence of
 * which in the evidence is denied: a text that states it both ways leaves the claim to the alignment. One direction
 * only: a claim that denies a word the text states somewhere is left to the alignment, for a word met far from its
 * clause is often another word ("should never store data" against "a key-value store"; on `dev` that direction
 * flagged faithful claims and caught nothing).
 */
function reversedAnywhere(
  claim: string,
  reading: Reading,
  sentences: readonly Sentence[],
  sharedDenial: boolean,
): string[] {
  const evidence = sentences.flatMap((s) => s.tokens);
  const found: string[] = [];
  for (const token of claimClausesOf(claim, reading).flatMap((c) => c.tokens)) {
    if (!token.content || token.depth > 0 || token.absent) continue;
    // "Neither bzip2 nor bunzip2 overwrites" denies the overwriting too, at another word (clauseConflicts).
    if (sharedDenial && token.deniedClause) continue;
    const theirs = evidence.filter((t) => t.stem === token.stem);
    if (theirs.length === 0 || !theirs.every((t) => t.depth === 1 && !t.absent)) continue;
    found.push(`${token.stem} / not ${token.stem}`);
  }
  return found;
}

function clauseConflicts(
  clause: Unit,
  { tokens: sentence, clauses }: Sentence,
  allEvidence: ReadonlySet<string>,
  {
    antonyms,
    particles,
    sharedDenial,
    pairedDenial,
    closestClause,
    onOff,
  }: {
    antonyms: boolean;
    particles: boolean;
    sharedDenial: boolean;
    pairedDenial: boolean;
    closestClause: boolean;
    onOff: boolean;
  },
): string[] {
  const found: string[] = [];
  const closest = closestClause ? closestClauseOf(clause, clauses) : null;
  const sentenceStems = new Set(sentence.map((t) => t.stem));
  const clauseStems = new Set(clause.map((t) => t.stem));
  const not = (negated: boolean) => (negated ? 'not ' : '');
  for (const [i, token] of clause.entries()) {
    // An absent word agrees with a denial and with a mention alike (Token.absent).
    if (token.absent) continue;
    const negated = isNegated(token, sentenceStems);
    let theirs = polarities(sentence, token.stem, clauseStems);
    // A sentence that states the word both ways ("ROS 2, the Robot Operating System, is not an operating system"):
    // the clause of it that restates the claim's clause decides, when it holds the word.
    if (closest !== null && theirs.size === 2) {
      const own = polarities(closest, token.stem, clauseStems);
      if (own.size > 0) theirs = own;
    }
    if (onOff && SWITCH_STATES.has(token.word) && isState(clause, i)) {
      const other = token.word === 'on' ? 'off' : 'on';
      const states = sentence.filter((t, k) => SWITCH_STATES.has(t.word) && isState(sentence, k));
      if (states.some((t) => t.word === other) && !states.some((t) => t.word === token.word))
        found.push(`${not(negated)}${token.word} / ${other}`);
      continue;
    }
    if (token.content && theirs.size > 0 && !theirs.has(negated)) {
      // Both clauses deny, at different words ("no wheel odometry" / "wheel odometry is not available"): they agree.
      const stating = negated ? sentence.filter((t) => t.stem === token.stem) : [token];
      // One denial pairs with one: a denial whose head word the denying side denies too is matched already, and
      // excuses no other word ("won't work without modification" against "should work without modification"). A
      // denial without a head ("For simulation they cannot.") or of the word itself is never matched.
      const denying = negated ? clause : sentence;
      const unmatched = (t: Token) =>
        !pairedDenial ||
        t.clauseDenials.length === 0 ||
        t.clauseDenials.some((d) => d === token.stem || !denying.some((o) => o.depth === 1 && o.stem === d));
      if (sharedDenial && stating.every((t) => t.deniedClause && unmatched(t))) continue;
      found.push(`${not(negated)}${token.stem} / ${not(!negated)}${token.stem}`);
      continue;
    }
    if (!antonyms || allEvidence.has(token.stem)) continue;
    // A verb with a particle is another verb: "keeps microbes out" is "stops microbes", not "keeps" going.
    if (particles && clause.slice(i + 1, i + 1 + PARTICLE_REACH).some((t) => PARTICLES.has(t.word))) continue;
    for (const opposite of oppositesOf(token.stem)) {
      const stated = sentence.filter((t) => t.stem === opposite && !t.absent);
      if (polarities(stated, opposite, clauseStems).has(negated))
        found.push(`${not(negated)}${token.stem} / ${not(negated)}${opposite}`);
    }
  }
  return found;
}

/** A setting's two states: "WAL archiving is off by default", "keep compression on". */
const SWITCH_STATES: ReadonlySet<string> = new Set(['on', 'off']);
/** Verbs a state follows ("is on", "stays off", "switched on"). */
const STATE_VERBS: ReadonlySet<string> = new Set(
  'is are was were be been being stays stay remains remain left turned switched set'.split(' '),
);
/**
 * Whether the "on" or "off" at `k` names a state, not a place or a particle: after a verb of state, and at the end of
 * its clause or before "by default" ("is off by default", "switched on."), not before an object ("on the disk"),
 * and not in a condition ("if it was switched on").
 */
function isState(unit: Unit, k: number): boolean {
  const after = unit[k + 1]?.word;
  const ends = after === undefined || (after === 'by' && unit[k + 2]?.word === 'default');
  // "only works if compression was switched on" sets a condition; it states no setting.
  const condition = unit.slice(0, k).some((t) => SCOPE_ENDS.has(t.word));
  return ends && !condition && STATE_VERBS.has(unit[k - 1]?.word ?? '');
}

/**
 * The clause of a sentence that restates a claim's clause: the one sharing most content words with it, the shorter
 * on a tie (fewer words of its own besides); null when two clauses tie on both, or when none shares two words.
 */
function closestClauseOf(clause: Unit, clauses: readonly Unit[]): Unit | null {
  const k = closestClauseIndex(clause, clauses);
  return k === null ? null : (clauses[k] ?? null);
}
function closestClauseIndex(clause: Unit, clauses: readonly Unit[]): number | null {
  const stems = contentStems(clause);
  const scored = clauses.map((c, k) => {
    const own = contentStems(c);
    return { k, shared: [...own].filter((x) => stems.has(x)).length, extra: own.size };
  });
  const best = scored.reduce<(typeof scored)[number] | null>(
    (a, b) => (a === null || b.shared > a.shared || (b.shared === a.shared && b.extra < a.extra) ? b : a),
    null,
  );
  if (best === null || best.shared < 2) return null;
  return scored.filter((x) => x.shared === best.shared && x.extra === best.extra).length > 1 ? null : best.k;
}

/** The stems that deny `stem`: its antonyms, and the word with a negating prefix added or removed. */
function oppositesOf(stem: string): string[] {
  const out = [...(ANTONYMS.get(stem) ?? [])];
  for (const prefix of NEGATING_PREFIXES) {
    // Short stems take a prefix by accident ("put" / "input"), so both sides keep four letters or more.
    if (stem.length >= 4) out.push(prefix + stem);
    if (stem.startsWith(prefix) && stem.length - prefix.length >= 4) out.push(stem.slice(prefix.length));
  }
  return out;
}
