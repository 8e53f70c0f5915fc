/**
 * One folder name or S3 key segment made from a value that comes from configuration or a report (a collection,
 * an environment). Whatever the value, the segment stays inside its folder: only A-Z a-z 0-9 . _ - are kept
 * (anything else becomes "_"), and a segment of dots alone ("." or "..", which would name the folder itself or
 * its parent) has its dots replaced too. Configuration refuses such collection names first (core/config.ts);
 * this is the second guard, at the place the path is built.
 */
export function pathSegment(name: string, fallback = 'collection'): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  if (safe === '') return fallback;
  return /^\.+$/.test(safe) ? safe.replace(/\./g, '_') : safe;
}
