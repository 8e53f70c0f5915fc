/** The mutation score printer: Stryker's score per file, and beside it the score with static mutants counted. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = path.resolve(import.meta.dirname, '../../scripts/mutation-scores.ts');
const dir = mkdtempSync(path.join(tmpdir(), 'ragwatch-mutation-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const STATIC = { status: 'Ignored', statusReason: 'Static mutant (and "ignoreStatic" was enabled)', static: true };
const mutants = (status: string, n: number, extra: object = {}) =>
  Array.from({ length: n }, () => ({ status, ...extra }));

function scores(files: Record<string, { mutants: object[] }>) {
  const file = path.join(dir, `${Object.keys(files).join('-').replace(/\W/g, '_')}.json`);
  writeFileSync(file, JSON.stringify({ files }));
  const run = spawnSync(process.execPath, [SCRIPT, file], { encoding: 'utf8' });
  const row = (name: string) => run.stdout.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';
  return { code: run.status, row };
}

describe('mutation-scores', () => {
  it('prints the score with unrun static mutants counted as undetected beside the headline', () => {
    // Act: 9 killed, 1 survived, 10 static mutants left unrun; 1 mutant ignored for another reason
    const { code, row } = scores({
      'a.ts': {
        mutants: [
          ...mutants('Killed', 8),
          ...mutants('Timeout', 1),
          ...mutants('Survived', 1),
          ...Array.from({ length: 10 }, () => STATIC),
          { status: 'Ignored', statusReason: 'Ignored because of excluded mutation "StringLiteral"' },
        ],
      },
    });

    // Assess: 9 of 10 run, 9 of 20 with the static ones
    expect(row('a.ts')).toMatch(
      /^a\.ts\s+90\.00 %\s+with static\s+45\.00 %\s+killed\s+9\s+survived\s+1\s+no coverage\s+0\s+static unrun\s+10$/,
    );
    expect(code).toBe(0);
  });

  it('counts static mutants that ran by their status, so both scores agree', () => {
    // Act: a run with --ignoreStatic false
    const { row } = scores({
      'b.ts': { mutants: [...mutants('Killed', 3, { static: true }), ...mutants('Survived', 1, { static: true })] },
    });

    // Assess
    expect(row('b.ts')).toMatch(/^b\.ts\s+75\.00 %\s+with static\s+75\.00 %\s+.*static unrun\s+0\s+UNDER TARGET$/);
  });

  it('fails under either target, and passes on both of them: 80 % a file, 90 % the whole', () => {
    // Act
    const onTargets = scores({
      'c.ts': { mutants: [...mutants('Killed', 4), ...mutants('NoCoverage', 1)] },
      'd.ts': { mutants: mutants('Killed', 5) },
    });
    const fileUnder = scores({
      'e.ts': { mutants: [...mutants('Killed', 79), ...mutants('Survived', 21)] },
      'f.ts': { mutants: mutants('Killed', 900) },
    });
    const wholeUnder = scores({ 'g.ts': { mutants: [...mutants('Killed', 89), ...mutants('Survived', 11)] } });

    // Assess
    expect([onTargets.row('c.ts'), onTargets.row('all files')]).toEqual([
      expect.stringMatching(/^c\.ts\s+80\.00 %.*no coverage\s+1\s+static unrun\s+0$/),
      expect.stringMatching(/^all files\s+90\.00 %.*static unrun\s+0$/),
    ]);
    expect(onTargets.code).toBe(0);
    expect([fileUnder.row('e.ts'), fileUnder.row('all files')]).toEqual([
      expect.stringMatching(/79\.00 %.*UNDER TARGET$/),
      expect.stringMatching(/97\.90 %.*static unrun\s+0$/),
    ]);
    expect(fileUnder.code).toBe(1);
    expect(wholeUnder.row('all files')).toMatch(/89\.00 %.*UNDER TARGET$/);
    expect(wholeUnder.code).toBe(1);
  });
});
