/**
 * The text @git attaches: the uncommitted diff without the sections of sensitive files (named as
 * left out), what looks like a secret in the rest masked, cut to a size the model can use.
 */
import { maskDiffSecrets } from "../scm/mask-diff-secrets";
import { diffSections, withoutFiles } from "./diff-files";

/** `diff` (git's unified diff, several files) with each file's hunks masked by the rules for its kind of file. */
function maskDiff(diff: string): string {
  return diffSections(diff)
    .map((section) => maskDiffSecrets(section.text, section.paths.at(-1) ?? ""))
    .join("");
}

/** What goes to the model for `diff`: sensitive files left out, secrets masked, at most about `maxChars`. */
export function gitContextText(diff: string, isSensitive: (path: string) => boolean, maxChars: number): string {
  const filtered = withoutFiles(diff, isSensitive);
  // Masked first, so that the cut measures what is sent.
  let text = maskDiff(filtered.text);
  if (filtered.dropped.length > 0) text = `${text}(left out, matching wisp.sensitiveFiles/.wispignore: ${filtered.dropped.join(", ")})`;
  if (text.length > maxChars) text = `${text.slice(0, text.lastIndexOf("\n", maxChars))}\n… (diff cut at ${maxChars / 1000} KB)`;
  return text;
}
