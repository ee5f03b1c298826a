/**
 * Git's unified diffs taken apart by file, so that @git can leave out the changes of files that
 * must not be sent (a changed `.env` shows its secrets in the diff as much as in the file).
 */

export interface FilteredDiff {
  readonly text: string;
  /** Repository-relative paths of the files left out, in the diff's order. */
  readonly dropped: readonly string[];
}

/** `diff` without the sections of files for which `drop` says yes (either side of a rename counts). */
export function withoutFiles(diff: string, drop: (path: string) => boolean): FilteredDiff {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const section of diff.split(/(?=^diff --git )/m)) {
    const paths = sectionPaths(section);
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
  return [...paths];
}
