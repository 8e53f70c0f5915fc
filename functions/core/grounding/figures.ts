/**
 * Figures in their places. A claim can state every number of its chunk and still misstate them:
 *
 * - two figures exchanged between the things they measure ("the inflation radius is 0.35 and the robot radius 0.6"
 *   where the chunk sets `robot_radius: 0.35` and `inflation_radius: 0.6`): each number is bound to the words just
 *   before it (its label), and a pair whose labels the chunk gives the other way round is a conflict;
 * - a range moved ("two to three hours" where the chunk says "four to six hours", and "two hours" and "three hours"
 *   elsewhere): a range of the claim must be a range of the chunk, end for end.
 *
 * Each conflict reads "claim / cited", as polarity.ts's do.
 */
import { isContentWord, stemWord } from './claim-terms.ts';
import { isNumberWord, isUnitWord, type NumberSpan, numberSpans, sameQuantity } from './quantities.ts';

/**
 * How many content words before a number make its label: "upper limit is 2.4", "robot_radius: 0.35". Two keeps a
 * qualifier with its noun ("inflation radius") without reaching into the clause before.
 */
export const LABEL_WORDS = 2;

const WORD = /[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu;
// A label does not reach across a sentence or a line ("resolution: 0.05" on the next line of a YAML block).
const LABEL_BREAK = /[.!?;](?=\s|$)|\n/gu;
// What joins the two ends of a range. A claim's range is written with "to", a dash or "through" ("between 2 and 4"
// too, below); the evidence's may also be "2 or 3", "2 and 3", read leniently as the evidence always is.
const CLAIM_RANGE_JOIN = /^\s*(?:to|-|–|through)\s*$/u;
const EVIDENCE_RANGE_JOIN = /^\s*(?:to|-|–|through|and|or)\s*$/u;
const BETWEEN = /\bbetween\s*$/iu;

/** The stems of the content words just before each number: its label, empty when a number or a break is nearer. */
function labelled(text: string, lenient: boolean): { span: NumberSpan; label: string[] }[] {
  const spans = numberSpans(text, { lenient });
  return spans.map((span, i) => {
    const from = spans[i - 1]?.end ?? 0;
    const before = text.slice(from, span.index);
    const breaks = [...before.matchAll(LABEL_BREAK)];
    const last = breaks.at(-1);
    const window = last === undefined ? before : before.slice(last.index + last[0].length);
    const words = [...window.matchAll(WORD)]
      .map((m) => m[0].toLowerCase().replace(/['’]\p{L}+$/u, ''))
      .filter((w) => isContentWord(w) && !isNumberWord(w) && !isUnitWord(w));
    return { span, label: words.slice(-LABEL_WORDS).map(stemWord) };
  });
}

/**
 * A chunk's labels and ranges, read once per text: a chunk is read again for every claim that cites it, and for every
 * claim's uncited part and better chunk. Bounded, so a long run keeps few (as support.ts and polarity.ts do).
 */
const READ = new Map<string, { labels: ReturnType<typeof labelled>; ranges: [NumberSpan, NumberSpan][] }>();
const READ_MAX = 512;
function evidenceOf(text: string): { labels: ReturnType<typeof labelled>; ranges: [NumberSpan, NumberSpan][] } {
  const known = READ.get(text);
  if (known) return known;
  if (READ.size >= READ_MAX) READ.clear();
  const read = { labels: labelled(text, true), ranges: rangesOf(text, true) };
  READ.set(text, read);
  return read;
}

/** Every number's labels, pooled per number over the texts (a number stated twice has both labels). */
function labelsByNumber(texts: readonly string[], lenient: boolean): Map<string, Set<string>> {
  const byNumber = new Map<string, Set<string>>();
  for (const text of texts)
    for (const { span, label } of lenient ? evidenceOf(text).labels : labelled(text, false)) {
      const set = byNumber.get(span.key) ?? new Set<string>();
      for (const stem of label) set.add(stem);
      byNumber.set(span.key, set);
    }
  return byNumber;
}

const meets = (words: readonly string[], set: ReadonlySet<string> | undefined) => words.some((w) => set?.has(w));

/**
 * Pairs of the claim's numbers whose labels the evidence gives the other way round: what tells the claim's `a` from
 * its `b` (the words of a's label that b's lacks) is never beside `a` in the evidence and is beside `b`, and the same
 * from b's side. Both sides must hold, so a label the evidence words differently ("robot_radius" against "the robot's
 * radius") or a number the evidence states twice leaves the pair alone.
 */
export function exchangedFigures(claim: string, evidenceTexts: readonly string[]): string[] {
  const mine = labelsByNumber([claim], false);
  const theirs = labelsByNumber(evidenceTexts, true);
  const keys = [...mine.keys()].filter((k) => theirs.has(k));
  const found: string[] = [];
  for (const [i, a] of keys.entries())
    for (const b of keys.slice(i + 1)) {
      const labelA = [...(mine.get(a) ?? [])];
      const labelB = [...(mine.get(b) ?? [])];
      const onlyA = labelA.filter((w) => !labelB.includes(w));
      const onlyB = labelB.filter((w) => !labelA.includes(w));
      const theirsA = theirs.get(a);
      const theirsB = theirs.get(b);
      if (!meets(onlyA, theirsA) && meets(onlyA, theirsB) && !meets(onlyB, theirsB) && meets(onlyB, theirsA))
        found.push(`${onlyA[0]} ${a}, ${onlyB[0]} ${b} / ${onlyA[0]} ${b}, ${onlyB[0]} ${a}`);
    }
  return found;
}

/** The ranges a text states: two numbers in a row joined as a range ("230 to 250 °C", "20-30 minutes"). */
function rangesOf(text: string, lenient: boolean): [NumberSpan, NumberSpan][] {
  const spans = numberSpans(text, { lenient });
  const join = lenient ? EVIDENCE_RANGE_JOIN : CLAIM_RANGE_JOIN;
  const ranges: [NumberSpan, NumberSpan][] = [];
  for (const [i, low] of spans.entries()) {
    const high = spans[i + 1];
    if (high === undefined) continue;
    const between = text.slice(low.end, high.index);
    const betweenAnd = /^\s*and\s*$/u.test(between) && BETWEEN.test(text.slice(0, low.index));
    if (join.test(between) || betweenAnd) ranges.push([low, high]);
  }
  return ranges;
}

/** The same end of a range: the same number, or the same quantity in another unit ("446 °F" for "230 °C"). */
const sameEnd = (a: NumberSpan, b: NumberSpan) =>
  a.key === b.key || (a.quantity !== null && b.quantity !== null && sameQuantity(a.quantity, b.quantity));

/**
 * The claim's ranges that the evidence does not state as a range with the same two ends: "two to three hours" where it
 * says "four to six hours". A range whose ends are stated nowhere is flagged here too; its numbers also go missing.
 */
export function movedRanges(claim: string, evidenceTexts: readonly string[]): string[] {
  const theirs = evidenceTexts.flatMap((t) => evidenceOf(t).ranges);
  return rangesOf(claim, false)
    .filter(([low, high]) => !theirs.some(([l, h]) => sameEnd(low, l) && sameEnd(high, h)))
    .map(([low, high]) => {
      const stated = theirs.map(([l, h]) => `${l.key} to ${h.key}`);
      return `${low.key} to ${high.key} / ${stated.length === 0 ? 'no range' : stated.join(', ')}`;
    });
}
