/**
 * The commit box's text without the comment lines of a commit template or a merge message, as
 * git's strip cleanup reads them (`git stripspace --strip-comments`): a line that starts with
 * core.commentChar. VS Code puts commit.template, MERGE_MSG and SQUASH_MSG in the box with only
 * its `#` lines taken out, so with another comment character (`;`) their comments stayed in the
 * box and went to the model as the user's own draft.
 */
export function withoutCommentLines(text: string, commentChar: string | undefined): string {
  const char = commentChar?.trim() ?? "";
  // `#` (git's default, and what `auto` reads as): VS Code took those lines out already, and a `#`
  // line left is the user's own (`#42 …`, a reference git would keep under VS Code's commit).
  if (char === "" || char === "auto" || char === "#") return text;
  return text
    .split("\n")
    .filter((line) => !line.startsWith(char))
    .join("\n");
}
