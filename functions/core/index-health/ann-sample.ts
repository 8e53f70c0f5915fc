const DAY_MS = 86_400_000;

/**
 * The searches of tonight's exact-search sample: `size` of them in suite order, starting where the previous night's
 * sample ended (the night's number since the epoch times `size`, modulo the suite), so every query is compared
 * within ceil(N / size) nights and the sample does not depend on anything but the date.
 *
 * Why a sample: Qdrant answers an exact search by scanning every stored vector (P x 1,024 floats, 41 GB at 10M
 * points), so repeating the whole suite exactly costs N full scans a night on the monitored cluster; a sample
 * bounds that at `size` scans whatever N is. 0 turns the comparison off.
 */
export function annSample<T>(searches: readonly T[], size: number, startedAt: Date): T[] {
  const n = searches.length;
  const take = Math.min(Math.max(0, Math.floor(size)), n);
  if (take === n) return [...searches];
  const night = Math.floor(startedAt.getTime() / DAY_MS);
  const start = (((night * take) % n) + n) % n;
  return Array.from({ length: take }, (_, i) => searches[(start + i) % n] as T);
}
