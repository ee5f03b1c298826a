/**
 * Git's unified diffs taken apart by file, so that @git can leave out the changes of files that
 * must not be sent (a changed `.env` shows its secrets in the diff as much as in the file).
 */

export interface FilteredDiff {
  readonly text: string;
  /** Repository-relative paths of the files left out, in the diff's order. */
  readonly dropped: readonly string[];
}

/** One file's part of a diff: its text (header included) and the paths its header names. */
export interface DiffSection {
  readonly text: string;
  /** Repository-relative; both sides of a rename or copy. The new side is last. */
  readonly paths: readonly string[];
}

/** A unified diff of several files, split at each `diff --git` header (text before the first one is a section of no path). */
export function diffSections(diff: string): DiffSection[] {
  return diff.split(/(?=^diff --git )/m).filter((text) => text !== "").map((text) => ({ text, paths: sectionPaths(text) }));
}

/** `diff` without the sections of files for which `drop` says yes (either side of a rename counts). */
export function withoutFiles(diff: string, drop: (path: string) => boolean): FilteredDiff {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const { text: section, paths } of diffSections(diff)) {
    const left = paths.filter(drop);
    if (left.length === 0) kept.push(section);
    else dropped.push(...left.filter((p) => !dropped.includes(p)));
  }
  return { text: kept.join(""), dropped };
}

/** The paths a section's header names: `a/` and `b/` sides, renames and copies. */
function sectionPaths(section: string): string[] {
  const header = section.split(/^@@/m)[0]!.split("\n");
  const paths = new Set<string>();
  for (const line of header) {
    const side = /^(?:---|\+\+\+) "?[ab]\/(.*?)"?$/.exec(line) ?? /^(?:rename|copy) (?:from|to) "?(.*?)"?$/.exec(line);
    if (side) paths.add(side[1]!);
    // A mode change or a binary file has no ---/+++ lines: `diff --git a/P b/P` names P twice.
    const both = /^diff --git "?a\/(.*)"? "?b\/(.*?)"?$/.exec(line);
    if (both) for (const path of [both[1]!.replace(/"$/, ""), both[2]!]) paths.add(path);
  }
  // The new side last: `+++ b/` or `rename to` come after the old side's lines.
  return [...paths];
}
