/** Plain-text tables for the benchmark's output: fixed-width columns, numbers right-aligned, text left-aligned. */

/** Renders rows under a header; a cell that looks like a number (or a ratio such as 3/3) is right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        return i > 0 && NUMERIC.test(cell) ? cell.padStart(width) : cell.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const NUMERIC = /^[-+~]?[\d.,/×%]+[ a-zA-Z/%]*$/;

/** A number with a fixed count of decimals and thousands separators. */
export function formatNumber(value: number, decimals = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** A point count as 10k / 100k / 1M. */
export function formatCount(value: number): string {
  if (value >= 1_000_000 && value % 1_000_000 === 0) return `${value / 1_000_000}M`;
  if (value >= 1_000 && value % 1_000 === 0) return `${value / 1_000}k`;
  return String(value);
}
