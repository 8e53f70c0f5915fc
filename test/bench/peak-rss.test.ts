import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('peakRssKb', () => {
  it("reports a child's own peak, not the high-water mark of the parent it was forked from", () => {
    // Arrange: this process holds 400 MB, touched, so it is resident when the child is forked.
    const held = Buffer.alloc(400 * 1024 * 1024, 1);
    const script = [
      `import { peakRssKb } from ${JSON.stringify(path.join(ROOT, 'bench/peak-rss.ts'))};`,
      'console.log(JSON.stringify({ own: peakRssKb(), inherited: process.resourceUsage().maxRSS }));',
    ].join('\n');

    // Act
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });

    // Assert: maxRSS carries the parent's 400 MB across the exec (the fault this helper exists for); VmHWM does not.
    expect(child.stderr).toBe('');
    const { own, inherited } = JSON.parse(child.stdout) as { own: number; inherited: number };
    expect(held[held.length - 1]).toBe(1);
    expect(inherited / 1024).toBeGreaterThan(400);
    expect(own / 1024).toBeGreaterThan(10);
    expect(own / 1024).toBeLessThan(200);
  });
});
