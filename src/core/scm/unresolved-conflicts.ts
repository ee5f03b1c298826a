/**
 * What to tell the user when a merge, rebase or cherry-pick left files with conflicts, as
 * `git diff --cached` names them (`* Unmerged path P`, the path as it is, unquoted; the only line it has for such a file):
 * undefined when there are none. Git commits nothing until they are resolved, and their
 * changes are not in the staged diff, so a message asked for now would describe a merge the
 * model cannot see.
 */
export function unresolvedConflicts(stagedDiff: string): string | undefined {
  const paths = [...stagedDiff.matchAll(/^\* Unmerged path (.*)$/gm)].map((match) => match[1]!);
  if (paths.length === 0) return undefined;
  const which = paths.length === 1 ? `${paths[0]} still has merge conflicts` : `${paths.length} files still have merge conflicts (${paths.slice(0, 3).join(", ")}${paths.length > 3 ? ", …" : ""})`;
  return `${which}: resolve them and stage ${paths.length === 1 ? "the file" : "the files"}, then generate the message. Git commits nothing until then.`;
}
