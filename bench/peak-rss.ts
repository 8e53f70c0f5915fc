/**
 * The peak resident memory of this process since it started, in KB. Why not process.resourceUsage().maxRSS: on
 * Linux a child's ru_maxrss keeps the high-water mark of the process it was forked from (it survives the exec), so a
 * child spawned by a parent holding 500 MB reports at least that much whatever it used itself; the bench and fault
 * children are spawned by processes holding the stand-ins' data. /proc/self/status's VmHWM belongs to the memory of
 * this program image only (reset by exec). Off Linux there is no /proc, and maxRSS is the best there is.
 */
import { readFileSync } from 'node:fs';

export function peakRssKb(): number {
  try {
    const hwm = /^VmHWM:\s+(\d+)\s+kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm?.[1] !== undefined) return Number(hwm[1]);
  } catch {
    // No procfs: fall through.
  }
  return process.resourceUsage().maxRSS;
}
