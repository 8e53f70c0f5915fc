/**
 * One rule from a Docusaurus docs folder to the names a chunk carries, used by the indexer to write them and by the
 * checks to read what a suite names:
 * - `chapter_id` is the page's folder path (number prefixes such as `01-` removed) and its id: `module1-ros2/ch1`;
 *   a top-level page's chapter_id is its id alone: `intro`.
 * - a folder's module name, when neither its `_category_` label nor its index page names it (book-modules.ts), is
 *   the folder humanised: words split at `-`, `_` and spaces, a leading word that ends in a number split from it,
 *   each word capitalised. `module1-ros2` and `module-1-ros2` both give "Module 1 Ros2" (seed 001's "Module N Name"
 *   form).
 * A name in a suite (the folder slug, the stored name, "Module 1: ROS 2") is compared by its key: lowercase runs of
 * letters and runs of digits, so "Module 11" and "Module 1 1" stay apart.
 */

/** The module_name of a chapter_id's first segment (see the file's doc comment). */
export function moduleNameOf(slug: string): string {
  const words = slug.split(/[-_\s]+/).filter((word) => word !== '');
  const [first, ...rest] = words;
  const lead = first === undefined ? [] : (/^(\p{L}+)(\p{N}+)$/u.exec(first)?.slice(1, 3) ?? [first]);
  return [...lead, ...rest].map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/** The comparison key of a module name: "Module 1: ROS 2", "module1-ros2" and "Module 1 Ros2" give "module 1 ros 2". */
export function moduleKey(name: string): string {
  return (name.toLowerCase().match(/\p{L}+|\p{N}+/gu) ?? []).join(' ');
}

/** The module folder of a chapter_id: its first segment ("module1-ros2" of "module1-ros2/ch1", "intro" of "intro"). */
export function moduleSlugOf(chapterId: string): string {
  return chapterId.split('/').find((segment) => segment !== '') ?? '';
}
