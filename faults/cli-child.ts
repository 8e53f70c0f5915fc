/**
 * The real CLI in a process of its own, as `ragwatch run` runs (functions/cli/main.ts): the same main(), the same
 * process.exit once it returns. On exit it writes its exit code and peak RSS to FAULTS_OUT for the matrix.
 */
import { writeFileSync } from 'node:fs';
import { peakRssKb } from '../bench/peak-rss.ts';
import { main } from '../functions/cli/main.ts';

const out = process.env.FAULTS_OUT ?? '';
process.on('exit', (code) => {
  writeFileSync(out, JSON.stringify({ exitCode: code, maxRssKb: peakRssKb() }));
});
process.exit(await main(process.argv.slice(2)));
