/**
 * The stand-in's claim judge: a small rule-based NLI (natural language inference) that answers the judge route the way
 * an instructed model would (supported, contradicted, not_in_context, with the evidence copied from a passage), so the
 * sandbox, the demo and the tests run the judge offline and deterministically. It is a stand-in, not a model: it reads
 * what rules can read (negation, numbers with their units, antonyms, two names exchanged, a possibility stated as a
 * certainty, clauses the passages do not state, a small list of general English synonyms) and misses what rules
 * cannot. Its figures on the evaluation set are the stand-in's, not Cohere's (docs/GROUNDING.md).
 *
 * Its own code on purpose: it shares nothing with the lexical gate (functions/core/grounding), so the bench compares
 * two readers rather than one reader twice. Words go through the stand-in's tokenizer (tokenizer.ts).
 */

import { extractTerms, tokenizeWords } from './tokenizer.ts';

export interface JudgePassage {
  id: string;
  text: string;
}

export interface StandInJudgement {
  verdict: 'supported' | 'contradicted' | 'not_in_context';
  chunk_id: string;
  evidence: string;
  reason: string;
}

/** A sentence of a passage, with its text copied exactly (the judge's evidence must be a verbatim span). */
interface Sentence {
  passage: string;
  text: string;
  terms: Set<string>;
  clauses: string[];
}

/** Below this share of a clause's terms stated in the passages, the clause is not in the context. */
const MIN_CLAUSE_COVERAGE = 0.5;

/** General English synonyms, each group read as one word (not drawn from any evaluation item). */
const SYNONYM_GROUPS: readonly string[] = [
  'big large huge sizable',
  'small little tiny',
  'fast quick rapid speedy swift',
  'slow sluggish',
  'begin start commence',
  'end finish stop halt terminate',
  'make create build produce generate construct',
  'show display present',
  'use utilise utilize employ',
  'need require',
  'help assist aid',
  'choose select pick',
  'get obtain acquire receive',
  'give provide supply offer',
  'send transmit',
  'tell inform',
  'important crucial critical essential vital key',
  'main primary principal chief',
  'common frequent usual',
  'hard difficult',
  'easy simple straightforward',
  'error mistake fault',
  'expensive costly',
  'cheap inexpensive',
  'enough sufficient adequate',
  'too excessive',
  'low insufficient',
  'keep retain preserve maintain',
  'change modify alter',
  'check verify inspect examine',
  'fix repair',
  'find locate discover',
  'allow permit let enable',
  'stop prevent block',
  'move shift',
  'turn rotate spin',
  'slip slide',
  'stick grip',
  'image picture photo',
  'label annotate tag',
  'hand manual manually',
  'often frequently',
  'whole entire',
  'part portion piece',
  'link connect join attach',
  'answer reply respond response',
  'ask request query',
  'run execute',
  'say state',
  'describe specify define',
  'store save',
  'delete remove erase',
  'add append insert',
  'wait block',
  'quickly rapidly fast',
  'way direction',
  'also too',
  'about approximately roughly around',
];

const SYNONYMS: ReadonlyMap<string, string> = new Map(
  SYNONYM_GROUPS.flatMap((group) => {
    const words = group.split(' ');
    const head = extractTerms(words[0] as string)[0] ?? (words[0] as string);
    return words.flatMap((w) => extractTerms(w).map((t) => [t, head] as [string, string]));
  }),
);

const canon = (term: string) => SYNONYMS.get(term) ?? term;
/** Content terms, synonyms read as one; numbers and units are left to quantitiesOf, which reads them by value. */
const termsOf = (text: string) =>
  new Set(
    extractTerms(text)
      .filter((t) => !/^\d/.test(t) && !NUMBER_OR_UNIT.has(t))
      .map(canon),
  );

/**
 * Words that deny what follows them in their clause, the prefix "non-" ("non-RTX machines") among them, and the near
 * negators ("would barely rise" says it does not).
 */
const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'cannot',
  'without',
  'none',
  'neither',
  'nor',
  'nothing',
  'unable',
  'lacks',
  'lack',
  'non',
  'barely',
  'hardly',
  'scarcely',
]);
/** Two-word denials: "instead of kneading" and "rather than gas" deny what follows them. */
const DENIAL_PAIRS: ReadonlyMap<string, string> = new Map([
  ['instead', 'of'],
  ['rather', 'than'],
]);
/** Words a denial runs through to reach what it denies: "no longer stops" denies "stops". */
const DENIAL_PARTICLES = new Set(['longer']);
/** Words that end a denial's scope: a new clause starts. */
const SCOPE_ENDS = new Set(['but', 'so', 'because', 'while', 'whereas', 'although', 'though', 'which', 'since']);
const isNegator = (w: string) => NEGATORS.has(w) || /n['’]t$/.test(w);

/** Words and the punctuation that bounds what a denial governs, lowercased, in order. */
const polarityTokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)*|[,;:.!?]/gu) ?? [];
const isMark = (token: string) => /^[,;:.!?]$/.test(token);

/**
 * The terms of a text that a negation governs: the first content word after each negator within three words, an
 * adverb or a hedge skipped ("is not usually used" denies "used"). A negator a mark follows denies nothing after it:
 * "No, Babel transpiles ..." answers a question; except "none" after a label and its colon, which denies the label
 * ("Changes needed: none"). Returns the denied terms and the affirmed ones.
 */
function polarityOf(text: string): { denied: Set<string>; affirmed: Set<string> } {
  const tokens = polarityTokens(text);
  const denied = new Set<string>();
  const deniedAt = new Set<number>();
  const deny = (j: number, term: string) => {
    denied.add(canon(term));
    deniedAt.add(j);
  };
  // Words in a denial's scope (to the end of its clause) are not affirmed either: "can't time it by the clock" does
  // not state the clock.
  const inScope = new Set<number>();
  tokens.forEach((w, i) => {
    if (w === 'none' && tokens[i - 1] === ':') {
      // The label's content words, back to the mark before it.
      for (let j = i - 2; j >= 0 && !isMark(tokens[j] as string); j -= 1) {
        const term = extractTerms(tokens[j] as string)[0];
        if (term !== undefined) deny(j, term);
      }
      return;
    }
    const pair = DENIAL_PAIRS.get(w);
    const negator = pair === undefined ? isNegator(w) : tokens[i + 1] === pair;
    if (!negator || isMark(tokens[i + 1] ?? '.')) return;
    const start = pair === undefined ? i + 1 : i + 2;
    let found = false;
    for (let j = start; j < tokens.length; j += 1) {
      const next = tokens[j] as string;
      if (isMark(next) || SCOPE_ENDS.has(next)) break;
      inScope.add(j);
      if (found || j >= start + 3 || HEDGES.has(next) || DENIAL_PARTICLES.has(next) || /ly$/.test(next)) continue;
      const term = extractTerms(next)[0];
      if (term === undefined) continue;
      deny(j, term);
      found = true;
    }
  });
  const affirmed = new Set<string>();
  tokens.forEach((w, i) => {
    const term = isMark(w) ? undefined : extractTerms(w)[0];
    if (term !== undefined && !deniedAt.has(i) && !inScope.has(i)) affirmed.add(canon(term));
  });
  return { denied, affirmed };
}

/**
 * A term the claim and the evidence both state, denied by one and only affirmed by the other: "can describe loops"
 * against "cannot describe loops". Null when they agree.
 */
function deniedOnOneSide(claim: string, evidence: string): string | null {
  const mine = polarityOf(claim);
  const theirs = polarityOf(evidence);
  // Only a term one side only denies and the other only affirms: "never restored" beside "a restore" is not a denial.
  const only = (a: Set<string>, b: Set<string>, t: string) => a.has(t) && !b.has(t);
  for (const t of mine.denied)
    if (only(mine.denied, mine.affirmed, t) && only(theirs.affirmed, theirs.denied, t)) return t;
  for (const t of theirs.denied)
    if (only(theirs.denied, theirs.affirmed, t) && only(mine.affirmed, mine.denied, t)) return t;
  return null;
}

/** Pairs of words that cannot both describe the same thing. */
const ANTONYMS: readonly [string, string][] = [
  ['required', 'optional'],
  ['before', 'after'],
  ['increase', 'decrease'],
  ['increases', 'decreases'],
  ['more', 'less'],
  ['more', 'fewer'],
  ['higher', 'lower'],
  ['high', 'low'],
  ['faster', 'slower'],
  ['larger', 'smaller'],
  ['bigger', 'smaller'],
  ['enable', 'disable'],
  ['enabled', 'disabled'],
  ['synchronous', 'asynchronous'],
  ['public', 'private'],
  ['first', 'last'],
  ['minimum', 'maximum'],
  ['always', 'never'],
  ['true', 'false'],
  ['static', 'dynamic'],
  ['input', 'output'],
  ['inside', 'outside'],
  ['above', 'below'],
  ['left', 'right'],
  ['early', 'late'],
  ['earlier', 'later'],
  ['hot', 'cold'],
  ['warm', 'cool'],
  ['open', 'closed'],
  ['accept', 'reject'],
  ['accepts', 'rejects'],
  ['include', 'exclude'],
  ['includes', 'excludes'],
  ['success', 'failure'],
  ['safe', 'unsafe'],
  ['compatible', 'incompatible'],
  ['stable', 'unstable'],
  ['possible', 'impossible'],
  ['lossless', 'lossy'],
  ['strong', 'weak'],
  ['light', 'heavy'],
  ['wet', 'dry'],
  ['add', 'remove'],
  ['adds', 'removes'],
  ['start', 'stop'],
  ['starts', 'stops'],
  ['blocks', 'returns'],
  ['local', 'remote'],
  ['global', 'local'],
  ['within', 'without'],
  ['inner', 'outer'],
  ['upper', 'lower'],
  ['up', 'down'],
];

/** Words that hedge a statement, and words that make it a rule or a certainty. */
const HEDGES = new Set([
  'may',
  'might',
  'could',
  'can',
  'usually',
  'often',
  'sometimes',
  'typically',
  'commonly',
  'generally',
  'some',
  'tends',
  'likely',
  'possibly',
  'perhaps',
  'mostly',
]);
const CATEGORICAL = new Set(['always', 'will', 'must', 'every', 'guarantees', 'guaranteed', 'certainly', 'definitely']);

/** Splits a text into its sentences, each copied exactly. */
function splitSentences(text: string): string[] {
  // Chunks wrap lines inside sentences: a sentence ends at . ! ? or a blank line, a heading or a list item.
  return text
    .split(/(?<=[.!?])\s+|\n\s*\n|\n(?=\s*(?:#|[-*] |\d+\. ))/)
    .map((s) => s.trim())
    .filter((s) => /[\p{L}\p{N}]/u.test(s));
}

/** Clauses: a sentence cut at semicolons, colons, and a comma or dash before a conjunction or a relative word. */
function splitClauses(sentence: string): string[] {
  return sentence
    .split(
      /\s*[;:]\s+|\s*,?\s+(?:and|but|while|whereas|although|though|so|because|which|and then)\s+|\s+[—–-]{1,2}\s+/i,
    )
    .map((s) => s.trim())
    .filter((s) => extractTerms(s).length > 0);
}

// ---- numbers and quantities ----

const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  half: 0.5,
  dozen: 12,
  single: 1,
  double: 2,
  twice: 2,
  once: 1,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1000, million: 1e6, billion: 1e9 };

/** Units by name, with their dimension and factor to the dimension's base unit. */
const UNITS: Record<string, [string, number]> = {
  ns: ['time', 1e-9],
  nanosecond: ['time', 1e-9],
  nanoseconds: ['time', 1e-9],
  µs: ['time', 1e-6],
  us: ['time', 1e-6],
  microsecond: ['time', 1e-6],
  microseconds: ['time', 1e-6],
  ms: ['time', 1e-3],
  millisecond: ['time', 1e-3],
  milliseconds: ['time', 1e-3],
  s: ['time', 1],
  sec: ['time', 1],
  secs: ['time', 1],
  second: ['time', 1],
  seconds: ['time', 1],
  min: ['time', 60],
  mins: ['time', 60],
  minute: ['time', 60],
  minutes: ['time', 60],
  h: ['time', 3600],
  hr: ['time', 3600],
  hrs: ['time', 3600],
  hour: ['time', 3600],
  hours: ['time', 3600],
  day: ['time', 86400],
  days: ['time', 86400],
  week: ['time', 604800],
  weeks: ['time', 604800],
  b: ['data', 1],
  byte: ['data', 1],
  bytes: ['data', 1],
  kb: ['data', 1e3],
  kilobytes: ['data', 1e3],
  mb: ['data', 1e6],
  megabytes: ['data', 1e6],
  gb: ['data', 1e9],
  gigabytes: ['data', 1e9],
  tb: ['data', 1e12],
  terabytes: ['data', 1e12],
  kib: ['data', 1024],
  mib: ['data', 1048576],
  gib: ['data', 1073741824],
  hz: ['freq', 1],
  khz: ['freq', 1e3],
  mhz: ['freq', 1e6],
  ghz: ['freq', 1e9],
  mm: ['length', 1e-3],
  millimetres: ['length', 1e-3],
  millimeters: ['length', 1e-3],
  cm: ['length', 1e-2],
  centimetres: ['length', 1e-2],
  centimeters: ['length', 1e-2],
  m: ['length', 1],
  metre: ['length', 1],
  metres: ['length', 1],
  meter: ['length', 1],
  meters: ['length', 1],
  km: ['length', 1e3],
  kilometres: ['length', 1e3],
  kilometers: ['length', 1e3],
  g: ['mass', 1],
  gram: ['mass', 1],
  grams: ['mass', 1],
  kg: ['mass', 1e3],
  kilograms: ['mass', 1e3],
  percent: ['percent', 1],
  '%': ['percent', 1],
  w: ['power', 1],
  watts: ['power', 1],
  kw: ['power', 1e3],
  v: ['voltage', 1],
  volts: ['voltage', 1],
  c: ['celsius', 1],
  celsius: ['celsius', 1],
  f: ['fahrenheit', 1],
  fahrenheit: ['fahrenheit', 1],
};

const NUMBER_OR_UNIT: ReadonlySet<string> = new Set(
  [...Object.keys(SMALL), ...Object.keys(SCALES), ...Object.keys(UNITS), 'degree', 'degrees'].flatMap((w) =>
    extractTerms(w),
  ),
);

interface Quantity {
  value: number;
  /** The dimension and the value in its base unit; null for a bare number. */
  dimension: string | null;
  base: number;
  raw: string;
}

/**
 * The numbers of a text, in digits or in words, each with the unit after it when there is one. A number right after a
 * capitalised word is a version or a name ("ROS 2"), no figure of a claim; `afterNames` reads it too, for what the
 * passages state: "Orin NX (16GB)" and "RTX 2060" do state 16 GB and 2060.
 */
function quantitiesOf(text: string, afterNames = false): Quantity[] {
  const tokens = text.match(/\d+(?:[.,]\d+)*|[\p{L}]+(?:-[\p{L}]+)*|%|°\s?[CF]/gu) ?? [];
  const out: Quantity[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as string;
    const previous = i > 0 ? (tokens[i - 1] as string) : '';
    let value: number | null = null;
    let consumed = 0;
    const unitAfter = ((tokens[i + 1] as string | undefined) ?? '').toLowerCase();
    if (/^an?$/i.test(token) && ['second', 'minute', 'hour', 'day', 'week', 'millisecond'].includes(unitAfter)) {
      // "a minute", "an hour": one of the unit.
      value = 1;
    } else if (/^\d/.test(token)) {
      // A number right after a capitalised word is a version or a name ("ROS 2", "Python 3").
      if (!afterNames && /^\p{Lu}/u.test(previous) && !/^\d/.test(previous)) continue;
      value = Number(token.replace(/,(?=\d{3}\b)/g, ''));
    } else {
      const words = token.toLowerCase().split('-');
      if (words.every((w) => w in SMALL || w in SCALES) && words.some((w) => w in SMALL)) {
        value = words.reduce(
          (sum, w) => (w in SCALES ? (sum || 1) * (SCALES[w] as number) : sum + (SMALL[w] as number)),
          0,
        );
        let j = i + 1;
        const lower = (k: number) => (tokens[k] as string | undefined)?.toLowerCase() ?? '';
        for (;;) {
          if (lower(j) in SCALES) {
            value *= SCALES[lower(j)] as number;
            j += 1;
          } else if (
            lower(j) === 'and' &&
            value >= 100 &&
            lower(j + 1)
              .split('-')
              .every((w) => w in SMALL)
          ) {
            // "two hundred and forty"
            value += lower(j + 1)
              .split('-')
              .reduce((sum, w) => sum + (SMALL[w] as number), 0);
            j += 2;
          } else break;
        }
        consumed = j - i - 1;
        // "one" and "once" read as numbers only before a unit: "the one that" is no count.
        const next = (tokens[j] as string | undefined)?.toLowerCase() ?? '';
        if (['one', 'once', 'single', 'half'].includes(words[0] as string) && !(next in UNITS)) continue;
      }
    }
    if (value === null || Number.isNaN(value)) continue;
    let nextRaw = (tokens[i + 1 + consumed] as string | undefined) ?? '';
    // "25 degrees Celsius": the unit is the word after "degrees".
    if (/^degrees?$/i.test(nextRaw)) nextRaw = (tokens[i + 2 + consumed] as string | undefined) ?? 'celsius';
    const unitName = nextRaw.replace(/^°\s?/, '').toLowerCase();
    const unit = UNITS[unitName];
    if (unit) out.push({ value, dimension: unit[0], base: value * unit[1], raw: `${token} ${nextRaw}` });
    else out.push({ value, dimension: null, base: value, raw: token });
    i += consumed;
  }
  return out;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
const toCelsius = (q: Quantity) => (q.dimension === 'fahrenheit' ? ((q.value - 32) * 5) / 9 : q.value);

/** True when `evidence` states the quantity: the same value in some unit of its dimension, or the same bare number. */
function states(evidence: readonly Quantity[], q: Quantity): boolean {
  return evidence.some((e) => {
    if (q.dimension === null) return close(e.value, q.value);
    if (e.dimension === null) return false;
    const temperature = (d: string) => d === 'celsius' || d === 'fahrenheit';
    if (temperature(q.dimension) && temperature(e.dimension)) return Math.abs(toCelsius(e) - toCelsius(q)) < 1;
    return e.dimension === q.dimension && close(e.base, q.base);
  });
}

// ---- the judge ----

/** The longest common subsequence of two word lists, by length: how much of one reads in the other's order. */
function lcs(a: readonly string[], b: readonly string[]): number {
  let previous = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    const row = [0];
    for (let j = 0; j < b.length; j += 1)
      row.push(x === b[j] ? (previous[j] as number) + 1 : Math.max(previous[j + 1] as number, row[j] as number));
    previous = row;
  }
  return previous[b.length] as number;
}

/**
 * Two words the claim and the evidence both use once, in opposite orders, such that exchanging them in the claim
 * makes it read much more like the evidence: roles or names swapped ("ROS uses a left-handed frame" for "Unity uses a
 * left-handed frame, while ROS ...").
 */
/** Words for comparing order: numbers whole ("0.35"), other words by their stem ("followers" is "follower"). */
const orderWords = (text: string) =>
  (text.toLowerCase().match(/\d+(?:[.,]\d+)*|[\p{L}\p{N}]+/gu) ?? []).map((w) => extractTerms(w)[0] ?? w);

function swappedPair(claim: string, evidence: string): [string, string] | null {
  const a = orderWords(claim);
  const b = orderWords(evidence);
  const once = (list: string[], w: string) => list.indexOf(w) === list.lastIndexOf(w);
  // Short names count too when the claim writes them as names ("Orin NX", "Unitree G1"), not as words ("on", "it").
  const shortNames = new Set(
    (claim.match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => /^\p{Lu}[\p{Lu}\d]+$|\d/u.test(w)).map((w) => w.toLowerCase()),
  );
  const meaningful = (w: string) =>
    /^\d/.test(w) || shortNames.has(w) || (w.length >= 3 && !NEGATORS.has(w) && extractTerms(w).length > 0);
  const shared = [...new Set(a)].filter((w) => meaningful(w) && b.includes(w) && once(a, w) && once(b, w));
  const base = lcs(a, b);
  for (let i = 0; i < shared.length; i += 1) {
    for (let j = i + 1; j < shared.length; j += 1) {
      const x = shared[i] as string;
      const y = shared[j] as string;
      if (a.indexOf(x) < a.indexOf(y) === b.indexOf(x) < b.indexOf(y)) continue;
      const exchanged = a.map((w) => (w === x ? y : w === y ? x : w));
      // Exchanged, the claim must read as the evidence almost word for word: a reworded claim is no swap.
      const after = lcs(exchanged, b);
      if (after >= base + 2 && after >= 0.75 * a.length) return [x, y];
    }
  }
  return null;
}

/** The sentences of every passage. */
function sentencesOf(passages: readonly JudgePassage[]): Sentence[] {
  return passages.flatMap((p) =>
    splitSentences(p.text).map((text) => ({ passage: p.id, text, terms: termsOf(text), clauses: splitClauses(text) })),
  );
}

const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>) => [...a].filter((t) => b.has(t)).length;

/** Two names or roles exchanged, read against the best sentences and the one after each in its passage. */
function swapIn(
  claim: string,
  sentences: readonly Sentence[],
  ranked: readonly Sentence[],
): { sentence: Sentence; pair: [string, string] } | null {
  for (const s of ranked.slice(0, 3)) {
    const next = sentences[sentences.indexOf(s) + 1];
    // The sentence alone first: beside the next one, a name both use ("leader", "followers") is no longer used once.
    const windows = next && next.passage === s.passage ? [s.text, `${s.text} ${next.text}`] : [s.text];
    for (const window of windows) {
      const pair = swappedPair(claim, window);
      if (pair) return { sentence: s, pair };
    }
  }
  return null;
}

/** The passages' sentences, those sharing most terms with the claim first. */
function rankFor(claim: string, sentences: readonly Sentence[]): Sentence[] {
  const claimTerms = termsOf(claim);
  return [...sentences].sort((x, y) => overlap(claimTerms, y.terms) - overlap(claimTerms, x.terms));
}

/** Judges one claim against passages. */
export function judgeClaim(claim: string, passages: readonly JudgePassage[]): StandInJudgement {
  // "It is not true that X" denies X: contradicted when the passages state X.
  const denial = /^(?:it is (?:not true|false|not the case)|it's (?:not true|false)) that\s+(.+)$/is.exec(claim.trim());
  if (denial) {
    const inner = judgeClaim(denial[1] as string, passages);
    return inner.verdict === 'supported'
      ? { ...inner, verdict: 'contradicted', reason: 'the claim denies what the passage states' }
      : { verdict: 'not_in_context', chunk_id: '', evidence: '', reason: 'the passages do not settle it' };
  }
  const sentences = sentencesOf(passages);
  const none = (reason: string): StandInJudgement => ({
    verdict: 'not_in_context',
    chunk_id: '',
    evidence: '',
    reason,
  });
  if (sentences.length === 0) return none('there is no passage to check it against');
  const claimTerms = termsOf(claim);
  const ranked = rankFor(claim, sentences);
  const best = ranked[0] as Sentence;
  const against = (s: Sentence, reason: string): StandInJudgement => ({
    verdict: 'contradicted',
    chunk_id: s.passage,
    evidence: s.text,
    reason,
  });

  const swap = swapIn(claim, sentences, ranked);
  if (swap) return against(swap.sentence, `the passage has ${swap.pair[0]} and ${swap.pair[1]} the other way round`);

  // Numbers and quantities: each must be stated; one the passage states otherwise is a contradiction.
  const allText = passages.map((p) => p.text).join('\n');
  const stated = quantitiesOf(allText, true);
  for (const q of quantitiesOf(claim)) {
    if (states(stated, q)) continue;
    const rival = ranked.slice(0, 2).find((s) => quantitiesOf(s.text).some((e) => e.dimension === q.dimension));
    if (rival && overlap(claimTerms, rival.terms) >= 2)
      return against(rival, `the passage gives another figure than ${q.raw}`);
    return none(`no passage states ${q.raw}`);
  }

  const allTerms = termsOf(allText);
  for (const clause of splitClauses(claim)) {
    const terms = termsOf(clause);
    if (terms.size === 0) continue;
    // The clause of the passages that says most of what this clause says.
    let match: { sentence: Sentence; clause: string; shared: number } | null = null;
    for (const s of sentences) {
      for (const c of s.clauses) {
        const shared = overlap(terms, termsOf(c));
        if (match === null || shared > match.shared) match = { sentence: s, clause: c, shared };
      }
    }
    const words = new Set(tokenizeWords(clause));
    // A denial is read against the sentence that says most of what this clause says (every one of them on a tie).
    const scores = sentences.map((x) => overlap(terms, x.terms));
    const top = Math.max(...scores);
    const tied = sentences.filter((_, i) => scores[i] === top);
    // Enough in common: half of the clause, or half of the sentence when the clause runs on past it.
    const smaller = Math.min(terms.size, ...tied.map((x) => x.terms.size));
    if (top >= Math.max(Math.min(2, terms.size), Math.ceil(smaller / 2))) {
      // On a tie, a denial holds unless another of the tied sentences says it the claim's way.
      const mine = polarityOf(clause);
      const agrees = (x: Sentence, t: string) => {
        const theirs = polarityOf(x.text);
        return mine.denied.has(t) ? theirs.denied.has(t) : theirs.affirmed.has(t) && !theirs.denied.has(t);
      };
      for (const x of tied) {
        const denied = deniedOnOneSide(clause, x.text);
        if (denied !== null && !tied.some((y) => agrees(y, denied)))
          return against(x, `one side denies "${denied}", the other states it`);
      }
    }
    if (match && match.shared >= Math.min(2, terms.size)) {
      const theirs = new Set(tokenizeWords(match.clause));
      const antonym = ANTONYMS.find(
        ([x, y]) =>
          (words.has(x) && theirs.has(y) && !theirs.has(x)) || (words.has(y) && theirs.has(x) && !theirs.has(y)),
      );
      if (antonym) return against(match.sentence, `"${antonym[0]}" against "${antonym[1]}"`);
      const categorical = [...words].some((w) => CATEGORICAL.has(w)) && ![...words].some((w) => HEDGES.has(w));
      const hedged = [...theirs].some((w) => HEDGES.has(w)) && ![...theirs].some((w) => CATEGORICAL.has(w));
      if (categorical && hedged) return none('the passage says it may happen, the claim that it does');
    }
    // A short clause ("Three things", "Throw it out") carries too few words to judge by what is missing.
    if (terms.size >= 3 && overlap(terms, allTerms) / terms.size < MIN_CLAUSE_COVERAGE)
      return none(`the passages do not say "${clause}"`);
  }
  if (claimTerms.size > 0 && overlap(claimTerms, allTerms) / claimTerms.size < MIN_CLAUSE_COVERAGE)
    return none('the passages do not say most of it');
  return { verdict: 'supported', chunk_id: best.passage, evidence: best.text, reason: 'the passage states it' };
}

// ---- atomic statements ----

/** One statement of a claim and its verdict: what the judge route answers, a list per claim. */
export interface StandInStatement extends StandInJudgement {
  statement: string;
}

const AUXILIARIES = new Set([
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  'had',
  'does',
  'do',
  'did',
  'can',
  'cannot',
  'could',
  'will',
  'would',
  'should',
  'may',
  'might',
  'must',
]);
/** Words a clause's own subject starts with: a pronoun or a determiner. */
const SUBJECT_STARTS = new Set([
  'it',
  'they',
  'this',
  'that',
  'these',
  'those',
  'he',
  'she',
  'we',
  'you',
  'there',
  'the',
  'a',
  'an',
  'each',
  'every',
  'its',
  'their',
  'both',
]);

/** A finite verb, read from its form alone: an auxiliary, a negated one, or a word in -s or -ed ("needs", "used"). */
function looksFinite(word: string): boolean {
  const w = word.toLowerCase();
  if (AUXILIARIES.has(w) || /n['’]t$/.test(w)) return true;
  return /^[a-z]{3,}(?:s|ed)$/.test(w) && !/(?:ss|us|is|ous)$/.test(w) && !SUBJECT_STARTS.has(w) && !NOT_VERBS.has(w);
}
/** Words in -s that are never a verb: adverbs and prepositions ("and sometimes a magnetometer"). */
const NOT_VERBS = new Set(
  'sometimes always perhaps afterwards besides towards unless whereas across series news'.split(' '),
);

/** A name in code or prose: a capital, a digit or an underscore ("RViz", "robot_state_publisher", "ROS2"). */
const looksLikeName = (word: string) => /[A-Z_\d]/.test(word);

const wordsOf = (text: string) => text.split(/\s+/).filter((w) => w !== '');
const clean = (text: string) => text.trim().replace(/^[,;]\s*|[,;]\s*$/g, '');

/**
 * How a clause after a coordinator stands: `own_subject` when it opens with its own subject and a verb within four
 * words ("and it needs 64 GB", "and robot_state_publisher draws the robot"), `shared_subject` when it opens with a
 * verb ("and needs 64 GB"), null when it is no clause ("RViz and Gazebo").
 */
function clauseAfter(right: string): 'own_subject' | 'shared_subject' | null {
  const raw = wordsOf(right);
  const words = raw.map(bare);
  if (words.length < 2) return null;
  const first = words[0] as string;
  if (looksFinite(first)) return 'shared_subject';
  const opens = SUBJECT_STARTS.has(first.toLowerCase()) || looksLikeName(first);
  // The verb within four words, with no comma before it: in "10 and 11, but it is", "11" is no subject.
  const verb = [1, 2, 3].find((i) => verbAt(words, i));
  const broken = verb !== undefined && raw.slice(0, verb).some((w) => /[,;:]$/.test(w));
  return opens && verb !== undefined && !broken ? 'own_subject' : null;
}

const bare = (word: string) => word.replace(/[^\p{L}\p{N}_'’-]/gu, '');
/** Words after which a word in -s is a noun ("the hurdles", "its needs"), not a verb. */
const DETERMINERS = new Set(
  'the a an each every its their both these those my our your his her some many all no any several'.split(' '),
);
/** Prepositions: a word in -s after one is a noun too ("64 GB for nodes that ..."). */
const PREPOSITIONS = 'of for in on at by with from about into over under between per'.split(' ');
const NOUN_BEFORE = new Set([...DETERMINERS, ...PREPOSITIONS]);
/** Whether the i-th word is a finite verb: its form says so and no determiner stands before it. */
const verbAt = (words: readonly string[], i: number) =>
  i < words.length &&
  looksFinite(words[i] as string) &&
  !(i > 0 && NOUN_BEFORE.has(bare(words[i - 1] as string).toLowerCase()));

/** The words of a clause before its first finite verb (its subject); empty when it opens with the verb. */
function subjectOf(clause: string): string {
  const words = wordsOf(clause);
  const verb = words.findIndex((_, i) => verbAt(words, i));
  return verb <= 0 ? '' : words.slice(0, verb).join(' ');
}

/** The first finite verb of a clause after its subject, lower case; empty when it has none. */
function verbOf(clause: string): string {
  const words = wordsOf(clause).map((w) => bare(w).toLowerCase());
  return words.find((_, i) => i > 0 && verbAt(words, i)) ?? '';
}

const PAST_AUXILIARIES = new Set(['was', 'were', 'had', 'did']);
const MODALS = new Set(['could', 'would', 'should', 'may', 'might']);
/** The tense a finite verb shows by its form: past ("was", "didn't", "trained"), a modal, or present. */
function tenseOf(verb: string): 'past' | 'modal' | 'present' {
  const w = verb.replace(/n['’]t$/, '');
  if (PAST_AUXILIARIES.has(w) || (!AUXILIARIES.has(w) && w.endsWith('ed'))) return 'past';
  return MODALS.has(w) ? 'modal' : 'present';
}
const PLURAL_VERBS = new Set(['are', 'were', 'have', 'do']);
const SINGULAR_VERBS = new Set(['is', 'was', 'has', 'does']);
/** The number a present or past verb shows: "are", "have" plural; "is", "has", "needs" singular; a modal neither. */
function numberOf(verb: string): 'plural' | 'singular' | null {
  const w = verb.replace(/n['’]t$/, '');
  if (PLURAL_VERBS.has(w)) return 'plural';
  if (SINGULAR_VERBS.has(w) || (!AUXILIARIES.has(w) && /s$/.test(w))) return 'singular';
  return null;
}

/**
 * Whether a verb after "and" can share the clause's subject: it shows the tense of the clause's verb ("runs ... and
 * needs", "compresses ... but is", "trained ... and released"; a modal goes with either). A word in -ed after an
 * auxiliary is its participle ("was collected ... and released") or no verb at all ("is a model trained on a very
 * large and varied set"): the sentence is not cut there.
 */
function sameForm(leftVerb: string, rightWord: string): boolean {
  const right = rightWord.toLowerCase();
  const left = tenseOf(leftVerb);
  if (!AUXILIARIES.has(right) && right.endsWith('ed'))
    return left === 'past' && !AUXILIARIES.has(leftVerb.replace(/n['’]t$/, ''));
  const tense = tenseOf(right);
  // "The hurdles are noisy sensors and surroundings ...": a plural verb and a singular one share no subject.
  if (numberOf(leftVerb) !== null && numberOf(right) !== null && numberOf(leftVerb) !== numberOf(right)) return false;
  return left === 'modal' || tense === 'modal' || left === tense;
}

/** A relative word after the clause's verb: a coordinated verb after it may belong to the relative clause. */
const RELATIVE = /\b(?:that|which|who|whose|where)\s/i;

/** Whether the words either side of "and" are both in -s or -ed, neither an auxiliary. */
function pairedAround(left: string, right: string): boolean {
  const before = bare(wordsOf(left).at(-1) ?? '').toLowerCase();
  const after = bare(wordsOf(right)[0] ?? '').toLowerCase();
  return [before, after].every((w) => looksFinite(w) && !AUXILIARIES.has(w) && !/n['’]t$/.test(w));
}

/**
 * The end of a list of nouns before "and": the words since the clause's last comma are few and hold no verb
 * ("to study proximity, gaze and handovers"), so what follows "and" is one more item, not a clause.
 */
function endsAList(left: string): boolean {
  const comma = left.lastIndexOf(',');
  if (comma < 0) return false;
  const item = wordsOf(left.slice(comma + 1));
  return item.length > 0 && item.length <= 3 && !item.some(looksFinite);
}

/**
 * Markup a reader of a statement does not see: a heading's hashes, a list bullet, a bold label before the sentence
 * ("**Interaction.** Virtual reality headsets ..."), emphasis and code marks. A label with a digit stays (the claim's
 * numbers must all be in its statements).
 */
const withoutMarkup = (text: string) =>
  text
    .replace(/^\s*#{1,6}\s+/, '')
    .replace(/^\s*[-*+]\s+/, '')
    .replace(/^\s*(?:\*\*|__)[^*_\d]{1,60}?(?:[.:](?:\*\*|__)|(?:\*\*|__)[.:])\s+/, '')
    .replace(/\*\*|__|`/g, '')
    .trim();

/** Function words a sentence may open with ("if you'd like ...", "when that occurs, ..."): they get a capital. */
const SENTENCE_STARTS = new Set(
  'if when whenever on to otherwise in for with by then so as after before because while once now here most some all many no only also at from without unless although though since where during'.split(
    ' ',
  ),
);

/**
 * A statement as a reader gets it: a sentence without markup, opening with a capital when it opens with a pronoun or
 * a determiner (a name keeps its case: "robot_state_publisher draws ..."), ending with a full stop.
 */
function asSentence(statement: string): string {
  const text = withoutMarkup(statement);
  const first = wordsOf(text)[0] ?? '';
  const capital =
    SUBJECT_STARTS.has(first) || SENTENCE_STARTS.has(first) ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * The stand-in's own split of a claim into atomic statements, each a sentence a reader can follow on its own: at
 * each semicolon, and at and/but/while/whereas/yet when the clause after it has its own verb (and the clause before
 * has one after its subject). A clause that shares the subject before it gets that subject written in ("X runs on Y
 * and needs 64 GB": "X runs on Y.", "X needs 64 GB."), but only when its verb takes the form of that clause's verb,
 * not after a relative word (the verb may be the relative clause's), and not at the end of a list of nouns. Markup
 * is dropped. When in doubt the claim stays one statement. A claim that denies a whole statement ("It is not true
 * that ...") stays one.
 */
export function splitStatements(claim: string): string[] {
  const text = withoutMarkup(claim.trim());
  if (/^(?:it is|it's) (?:not true|false|not the case) that\b/i.test(text)) return [text];
  const statements: string[] = [];
  for (const segment of text.split(/\s*;\s+/)) {
    let subject = '';
    let rest = segment;
    for (;;) {
      const coordinator = /,?\s+(?:and|but|while|whereas|yet)\s+/gi;
      let cut: { left: string; right: string; kind: 'own_subject' | 'shared_subject' } | null = null;
      for (let m = coordinator.exec(rest); m !== null; m = coordinator.exec(rest)) {
        const left = rest.slice(0, m.index);
        const right = rest.slice(m.index + m[0].length);
        const kind = clauseAfter(right);
        // The clause before needs a verb after its subject ("Cameras and lidars feed": "Cameras" is no clause), or
        // after a cut, where its subject was written in.
        const leftWords = wordsOf(left);
        if (kind === null || !leftWords.some((_, i) => verbAt(leftWords, i) && (i > 0 || rest !== segment))) continue;
        // "runs Isaac Sim, Gazebo and Unity and trains": "Unity" ends a list of names, it opens no clause.
        if (!m[0].includes(',') && endsAList(left)) continue;
        // "uses apples and oranges", "handle reads and writes": two words in -s around "and" are one pair, nouns or
        // verbs with one object; cutting between them leaves a statement without its verb or its object.
        if (!m[0].includes(',') && kind === 'shared_subject' && pairedAround(left, right)) continue;
        if (kind === 'shared_subject' && !sharesSubject(left, right)) continue;
        cut = { left, right, kind };
        break;
      }
      if (cut === null) break;
      const own = subjectOf(cut.left);
      subject = own === '' ? subject : own;
      statements.push(cut.left);
      rest =
        cut.kind === 'shared_subject' && subject !== ''
          ? withSubject(subject, cut.right)
          : resolved(subject, cut.right, cut.left);
    }
    statements.push(rest);
  }
  const parts = statements.map(clean).filter((s) => /[\p{L}\p{N}]/u.test(s));
  return parts.length > 1 ? parts.map(asSentence) : [text];
}

/** Adverbs between a subject and its verb ("bzip2 usually compresses"): they go after an auxiliary, as English has it. */
const isAdverb = (word: string) => /^[a-z]+ly$/.test(word) || /^(?:also|often|always|never|still|just|not)$/.test(word);

/**
 * A coordinated clause with the subject written in: "is slower" after "bzip2 usually compresses ..." reads "bzip2 is
 * usually slower", "needs 8 GB" reads "bzip2 usually needs 8 GB". The adverbs stay: a hedge or a denial is kept.
 */
function withSubject(subject: string, clause: string): string {
  const words = wordsOf(subject);
  let noun = words.length;
  while (noun > 1 && isAdverb((words[noun - 1] as string).toLowerCase())) noun--;
  const adverbs = words.slice(noun);
  const [verb = '', ...rest] = wordsOf(clause);
  if (adverbs.length === 0 || !AUXILIARIES.has(verb.toLowerCase())) return `${subject} ${clause}`;
  return [...words.slice(0, noun), verb, ...adverbs, ...rest].join(' ');
}

/**
 * A clause opening with "it" or "they" gets the subject before it written in, as Ragas's and Cohere's judges write
 * pronouns out ("Nav2 is the navigation framework, and it needs 64 GB": "Nav2 needs 64 GB"), when that subject is
 * plain words without a pronoun or punctuation of its own ("By default, Jest", "Throw it out: pink" are not) and its
 * last word agrees in number ("it" a singular noun, "they" a plural one). Otherwise the pronoun stays.
 */
function resolved(subject: string, clause: string, left: string): string {
  const pronoun = /^(it|they)\s/i.exec(clause)?.[1]?.toLowerCase();
  if (pronoun === undefined || subject === '' || /[^\p{L}\p{N}\s_'’-]/u.test(subject)) return clause;
  if (!trustedSubject(subject, left)) return clause;
  // Adverbs before the first verb are that verb's ("Isaac Sim also runs ..., but it is not": "Isaac Sim is not").
  const all = wordsOf(subject);
  let end = all.length;
  while (end > 1 && isAdverb((all[end - 1] as string).toLowerCase())) end--;
  const noun = all.slice(0, end).join(' ');
  const words = all.slice(0, end).map((w) => w.toLowerCase());
  const first = words[0] as string;
  if (words.length > 6 || SENTENCE_STARTS.has(first) || words.some((w) => PRONOUNS.has(w))) return clause;
  const head = words.at(-1) as string;
  const plural = /[^s]s$/.test(head) && !/(?:us|is)$/.test(head);
  if (plural !== (pronoun === 'they')) return clause;
  return `${noun}${clause.slice(pronoun.length)}`;
}
/**
 * Whether the words before a clause's first verb are surely its subject, not cut short at a noun in -s ("Large
 * language models are": "models" is read as the verb): the subject opens with a determiner or holds a name (a
 * capital past its first word, a digit, an underscore: "Isaac Sim", "Nav2"), and the verb is an auxiliary or is
 * followed by what opens an object ("starts two nodes", "runs on Ubuntu"), not by another word that may be the verb.
 */
function trustedSubject(subject: string, left: string): boolean {
  const words = wordsOf(subject);
  const first = (words[0] as string).toLowerCase();
  const named = words.some((w, i) => /[\d_]/.test(w) || /^.+\p{Lu}/u.test(w) || (i > 0 && /\p{Lu}/u.test(w)));
  if (!DETERMINERS.has(first) && !named) return false;
  const after = wordsOf(left)
    .slice(words.length)
    .map((w) => bare(w).toLowerCase());
  const [verb = '', next = ''] = after;
  return AUXILIARIES.has(verb) || DETERMINERS.has(next) || OBJECT_STARTS.has(next) || /^\d/.test(next);
}
const OBJECT_STARTS = new Set(
  'on in at to for from with by about into over under of up out off it them one two three this that these those'.split(
    ' ',
  ),
);
const PRONOUNS = new Set(['it', 'they', 'he', 'she', 'we', 'you', 'i', 'this', 'that', 'these', 'those', 'there']);

/** Whether the verb after "and" is a second predicate of the clause's subject (see splitStatements). */
function sharesSubject(left: string, right: string): boolean {
  const verb = verbOf(left);
  const next = wordsOf(right)[0]?.replace(/[^\p{L}\p{N}_'’-]/gu, '') ?? '';
  const afterVerb = left.slice(left.toLowerCase().indexOf(verb) + verb.length);
  return verb !== '' && sameForm(verb, next) && !RELATIVE.test(afterVerb);
}

/** How bad a verdict is, for the claim's worst statement. */
const SEVERITY: Readonly<Record<StandInJudgement['verdict'], number>> = {
  supported: 0,
  not_in_context: 1,
  contradicted: 2,
};

/**
 * Judges a claim statement by statement: each statement of splitStatements with judgeClaim's rules, and the whole
 * sentence too, so a catch that needs the whole (two roles exchanged across its clauses: "RViz computes X, and
 * robot_state_publisher draws Y") is not lost by reading each clause alone. Such a catch goes to the statements that
 * hold one of the exchanged words; any other catch only the whole shows is given as one more statement, the sentence.
 */
export function judgeStatements(claim: string, passages: readonly JudgePassage[]): StandInStatement[] {
  const text = claim.trim();
  const whole = judgeClaim(text, passages);
  const parts = splitStatements(text);
  if (parts.length < 2) return [{ statement: parts[0] ?? text, ...whole }];
  const judged = parts.map((statement) => ({ statement, ...judgeClaim(statement, passages) }));
  if (SEVERITY[whole.verdict] <= Math.max(...judged.map((j) => SEVERITY[j.verdict]))) return judged;
  const sentences = sentencesOf(passages);
  const pair = swapIn(text, sentences, rankFor(text, sentences))?.pair;
  const holds = (statement: string) => pair !== undefined && orderWords(statement).some((w) => pair.includes(w));
  if (judged.some((j) => holds(j.statement)))
    return judged.map((j) => (holds(j.statement) ? { statement: j.statement, ...whole } : j));
  return [...judged, { statement: text, ...whole }];
}
