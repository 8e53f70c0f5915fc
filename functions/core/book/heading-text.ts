/**
 * A markdown heading's name as the indexer stores it in heading_hierarchy: inline markup and a Docusaurus
 * `{#custom-id}` left out. One function, so a heading read back from a stored chunk's text (suite generation from the
 * index) is named as the indexer named it.
 */
export function headingText(raw: string): string {
  return raw
    .replace(/\s*\{#[^}]*\}\s*$/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .trim();
}
