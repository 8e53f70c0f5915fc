/**
 * Numbers as a reader means them: spelled out ("five modules", "one millisecond") as well as in digits, and with their
 * unit ("16 GB", "230 to 250 °C", "a second"). A claim that changes a unit ("16 MB" for "16 GB") keeps its digits, and
 * one that converts a unit exactly ("1000 ms" for "a second", "205 °F" for "96 °C") loses them: comparing quantities
 * by dimension and value, not digit strings, tells the two apart.
 */

/** A number with its unit, in the unit's base (seconds, bytes, hertz, metres, grams, °C, percent). */
export interface Quantity {
  /** The number as written, e.g. "16", "five", "a". */
  raw: string;
  /** The number as statedNumbers gives it ("16", "5"), so a quantity found in another unit vouches for its number. */
  number: string;
  /** Its value in the dimension's base unit. */
  value: number;
  dimension: string;
  /** The unit as written. */
  unit: string;
}

/** What a unit measures: its dimension, and how many of the dimension's base unit it is. */
interface Unit {
  dimension: string;
  factor: number;
}

const UNITS: Readonly<Record<string, Unit>> = (() => {
  const table: Record<string, Unit> = {};
  const add = (dimension: string, factor: number, names: string) => {
    for (const name of names.split(' ')) table[name] = { dimension, factor };
  };
  add('time', 1e-9, 'ns nanosecond nanoseconds');
  add('time', 1e-6, 'µs us microsecond microseconds');
  add('time', 1e-3, 'ms msec millisecond milliseconds');
  add('time', 1, 's sec secs second seconds');
  add('time', 60, 'min mins minute minutes');
  add('time', 3600, 'h hr hrs hour hours');
  add('time', 86_400, 'day days');
  add('time', 604_800, 'week weeks');
  add('time', 2_592_000, 'month months');
  add('time', 31_536_000, 'year years');
  add('data', 1, 'b byte bytes');
  add('data', 1e3, 'kb kbyte kbytes kilobyte kilobytes');
  add('data', 1e6, 'mb mbyte mbytes megabyte megabytes');
  add('data', 1e9, 'gb gigabyte gigabytes');
  add('data', 1e12, 'tb terabyte terabytes');
  add('data', 1024, 'kib');
  add('data', 1024 ** 2, 'mib');
  add('data', 1024 ** 3, 'gib');
  add('data', 1024 ** 4, 'tib');
  add('frequency', 1, 'hz hertz');
  add('frequency', 1e3, 'khz');
  add('frequency', 1e6, 'mhz');
  add('frequency', 1e9, 'ghz');
  add('length', 1e-3, 'mm millimetre millimetres millimeter millimeters');
  add('length', 1e-2, 'cm centimetre centimetres centimeter centimeters');
  add('length', 1, 'm metre metres meter meters');
  add('length', 1e3, 'km kilometre kilometres kilometer kilometers');
  add('mass', 1, 'g gram grams');
  add('mass', 1e3, 'kg kilogram kilograms');
  add('percent', 1, '% percent');
  add('celsius', 1, '°c ºc celsius');
  add('fahrenheit', 1, '°f ºf fahrenheit');
  add('voltage', 1, 'v volt volts');
  add('power', 1, 'w watt watts');
  add('power', 1e3, 'kw kilowatt kilowatts');
  return table;
})();

/** Number words, so "five modules" carries the number 5 and "one millisecond" the number 1. */
const NUMBER_WORDS: Readonly<Record<string, number>> = {
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
  hundred: 100,
  thousand: 1000,
  dozen: 12,
  half: 0.5,
  // A plural magnitude is an order of size: "tens of hertz" is not "hundreds of hertz".
  tens: 10,
  dozens: 12,
  hundreds: 100,
  thousands: 1000,
  millions: 1_000_000,
  // Counts of times: "twice per second" is "two times every second".
  once: 1,
  twice: 2,
  thrice: 3,
};

/**
 * "one" is also a pronoun ("the one that", "one of them", "one at a time"), and "hundred" is "hundreds" singularised
 * ("hundred of hertz"): alone they count as a number before a unit only (or, for a multiplier, after a number word:
 * "two hundred"), unless `lenient` (the evidence side, where reading a number too many only makes a claim easier to support).
 */
const AMBIGUOUS_WORDS: ReadonlySet<string> = new Set([
  'one',
  'half',
  'hundred',
  'thousand',
  'dozen',
  // "once the node starts", "twice as fast" (a ratio, not a count a chunk states in digits): read on the evidence
  // side only, where "twice per second" vouches for a claim's "two times".
  'once',
  'twice',
  'thrice',
]);

// A number in digits (group 1: thousands separators, decimals) or a word (group 2: "five", "twenty-five", "a"), and
// the word or symbol after it, a unit candidate (% °C MB/s), or the word after a hyphen ("30-second"): read ahead, not
// consumed, so "run five nodes" still reads "five".
const TOKEN =
  /(?<![\p{L}\p{N}.])(?:(\d+(?:[.,]\d+)*)|(\p{L}+(?:-\p{L}+)?))(?=\s*(%|[°º][CF](?![\p{L}]))|(?:\s*(?:of\s+a\s+)?|-)([\p{L}µ]+(?:\/\p{L}+)?)|)/gu;
// The letters glued to a number, up to the end of the word: "GB" in "64GB", "pl2" in "0.1pl2". Read from the number's
// end (sticky), so a long text is not copied once per number.
const GLUED = /\p{L}[\p{L}\p{N}]*/uy;
// What a number glued to letters still is, besides a unit: a factor ("2x"), thousands as written ("100k"), an
// ordinal ("99th", "1st") and dimensions ("3D"). Any other letters make it part of a name: a version ("0.1pl2",
// "1.2rc1"), a commit id ("187e165"), a product ("3com").
const GLUED_SUFFIX = /^(?:x|k|st|nd|rd|th|d)$/iu;
// Words that join two numbers of a range sharing one unit: "230 to 250 °C", "20-30 minutes".
const RANGE_JOIN = /^\s*(?:to|-|–|and|or)\s*$/u;

/** True when a lowercase word spells a number ("five", "twenty-five"); "one" and "half" are also other words. */
export function isNumberWord(lower: string): boolean {
  return wordValue(lower) !== null && !AMBIGUOUS_WORDS.has(lower);
}

/** True when a lowercase word names a unit ("gb", "minutes", "celsius"). */
export function isUnitWord(lower: string): boolean {
  return unitOf(lower) !== null;
}

/** The value of a number written in words ("five", "twenty-five"), or null when the word is no number. */
function wordValue(raw: string): number | null {
  const parts = raw.toLowerCase().split('-');
  const values = parts.map((p) => NUMBER_WORDS[p]);
  if (values.some((v) => v === undefined)) return null;
  // "twenty-five": tens and units add up.
  return (values as number[]).reduce((a, b) => a + b, 0);
}

/** The unit a word names ("GB", "MB/s"), or null. */
function unitOf(word: string): Unit | null {
  const lower = word.toLowerCase();
  const slash = lower.indexOf('/');
  if (slash < 0) return UNITS[lower] ?? null;
  const a = UNITS[lower.slice(0, slash)];
  const b = UNITS[lower.slice(slash + 1)];
  return a && b ? { dimension: `${a.dimension}/${b.dimension}`, factor: a.factor / b.factor } : null;
}

/** A number in digits as compared: thousands separators removed ("1,000" -> "1000"), the rest as written ("22.04"). */
function digitsKey(raw: string): string {
  return raw.replace(/,(?=\d{3}(?:\D|$))/g, '');
}

/** The numbers a text states, digits and words: digits as written (digitsKey), words as their value ("five" -> "5"). */
export function statedNumbers(text: string, options: { lenient?: boolean } = {}): string[] {
  return readNumbers(text, options).map(keyOf);
}

/** A number as a text states it: its key as statedNumbers gives it, where it stands, and its unit if any. */
export interface NumberSpan {
  key: string;
  index: number;
  end: number;
  /** The number with its unit, when it has one. */
  quantity: Quantity | null;
}

/** The numbers a text states with their places (readNumbers), for the figures' bindings and ranges (figures.ts). */
export function numberSpans(text: string, options: { lenient?: boolean } = {}): NumberSpan[] {
  return readNumbers(text, options).map((n) => ({
    key: keyOf(n),
    index: n.index,
    end: n.end,
    quantity: quantityOf(n),
  }));
}

/** How statedNumbers gives a number: digits as written (digitsKey), words as their value. */
function keyOf(n: ReadNumber): string {
  return n.digits ? digitsKey(n.raw) : String(n.value);
}

function quantityOf(n: ReadNumber): Quantity | null {
  if (n.unit === null) return null;
  const { word, measure } = n.unit;
  return { raw: n.raw, number: keyOf(n), value: n.value * measure.factor, dimension: measure.dimension, unit: word };
}

interface ReadNumber {
  ambiguous: boolean;
  /** Written in digits ("16", "1,000"), not in words. */
  digits: boolean;
  /** "a" or "an" before a unit: one of it. */
  article: boolean;
  raw: string;
  value: number;
  index: number;
  end: number;
  /** The unit after the number, as written and what it measures. */
  unit: { word: string; measure: Unit } | null;
}

function readNumbers(text: string, options: { lenient?: boolean }): ReadNumber[] {
  const found: ReadNumber[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const raw = match[0];
    const digits = match[1] !== undefined;
    const end = match.index + raw.length;
    if (digits && !gluedAsNumber(text, end)) continue;
    // "thirteen-second windows", "a five-minute rest": a number word joined to its unit by a hyphen, as "30-second".
    const [, word, unitWord] = digits ? [] : (/^(\p{L}+)-(\p{L}+)$/u.exec(raw) ?? []);
    const hyphened = word === undefined ? null : wordValue(word);
    const hyphenUnit = writtenUnit(unitWord);
    if (word !== undefined && hyphened !== null && hyphenUnit !== null) {
      const ambiguous = AMBIGUOUS_WORDS.has(word.toLowerCase());
      found.push({
        raw: word,
        digits,
        article: false,
        value: hyphened,
        index: match.index,
        end: match.index + word.length,
        unit: hyphenUnit,
        ambiguous,
      });
      continue;
    }
    const unit = writtenUnit(match[3] ?? match[4]);
    // "a minute", "an hour": one of the unit. "a second" is also an ordinal ("a second replica"): evidence side only.
    const article = /^an?$/i.test(raw) && unit !== null && (options.lenient === true || !/^seconds?$/i.test(unit.word));
    const value = article ? 1 : digits ? Number(digitsKey(raw).replace(',', '.')) : wordValue(raw);
    if (value === null) continue;
    // Digits are never ambiguous: no AMBIGUOUS_WORDS entry is written in digits.
    const ambiguous = raw.split('-').every((p) => AMBIGUOUS_WORDS.has(p.toLowerCase()));
    found.push({ raw, digits, article, value, index: match.index, end, unit, ambiguous });
  }
  // "two hundred and forty", "one thousand": consecutive number words make one number.
  const joined: ReadNumber[] = [];
  for (const next of found) {
    const here = joined.at(-1);
    if (here !== undefined && joinsWords(here, next, text.slice(here.end, next.index))) {
      const multiplier = next.value === 100 || next.value === 1000;
      here.value = multiplier ? here.value * next.value : here.value + next.value;
      here.raw = text.slice(here.index, next.end);
      here.end = next.end;
      here.unit = next.unit;
      here.ambiguous = false;
    } else joined.push(next);
  }
  // A range shares its unit: "230 to 250 °C" is two temperatures, "one to three hours" two durations. Only a number
  // without a unit can take one: a unit of its own stands between it and the next number, so RANGE_JOIN fails.
  let later: ReadNumber | undefined;
  for (const here of joined.toReversed()) {
    if (later !== undefined && RANGE_JOIN.test(text.slice(here.end, later.index))) here.unit = later.unit;
    later = here;
  }
  return joined.filter((n) => options.lenient === true || !n.ambiguous || n.unit !== null);
}

/** The unit a word after a number names, as written, or null when there is no word or it is no unit. */
function writtenUnit(word: string | undefined): ReadNumber['unit'] {
  if (word === undefined) return null;
  const measure = unitOf(word);
  return measure === null ? null : { word, measure };
}

/** True when the digits ending at `end` are a number: nothing glued to them, or a unit or a GLUED_SUFFIX alone. */
function gluedAsNumber(text: string, end: number): boolean {
  GLUED.lastIndex = end;
  const glued = GLUED.exec(text)?.[0];
  // Letters then digits ("pl2") are neither: no unit or suffix has a digit.
  return glued === undefined || unitOf(glued) !== null || GLUED_SUFFIX.test(glued);
}

/**
 * True when two number words in a row are one number: "two hundred", "hundred and forty", "twenty five". Digits are
 * not joined, nor an article ("twenty a day" is 20 per day, not 21 days); an article is never the first of the two,
 * since the word after it is its unit.
 */
function joinsWords(here: ReadNumber, next: ReadNumber, between: string): boolean {
  if (here.digits || next.digits || next.article) return false;
  if (!/^\s*(?:and\s+)?$/u.test(between)) return false;
  if (next.value === 100 || next.value === 1000) return here.value < next.value;
  if (next.ambiguous) return false;
  if (here.ambiguous) return false;
  if (here.value >= 100 && here.value % 100 === 0) return next.value < 100;
  return here.value >= 20 && here.value % 10 === 0 && next.value < 10;
}

/** The quantities (numbers with a unit) a text states. `lenient` reads "a second" as 1 s, for evidence. */
export function statedQuantities(text: string, options: { lenient?: boolean } = {}): Quantity[] {
  return readNumbers(text, options).flatMap((n) => quantityOf(n) ?? []);
}

/** True when two quantities state the same amount: the same dimension and value (temperatures across scales too). */
export function sameQuantity(a: Quantity, b: Quantity): boolean {
  const celsius = (q: Quantity) =>
    q.dimension === 'fahrenheit' ? { ...q, dimension: 'celsius', value: ((q.value - 32) * 5) / 9 } : q;
  const x = celsius(a);
  const y = celsius(b);
  if (x.dimension !== y.dimension) return false;
  // A converted temperature is rounded to the degree ("205 °F" for "96 °C"); other conversions are exact.
  // The two dimensions differ only where one was converted, and only temperatures are.
  const tolerance = a.dimension !== b.dimension ? 1 : Math.abs(y.value) * 1e-6;
  return Math.abs(x.value - y.value) <= tolerance;
}
