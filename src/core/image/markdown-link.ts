import { encodeLinkPath } from "../base/link-path";
import { cutAt } from "../base/surrogates";

/** Longest alt text taken from a prompt. */
const maxAlt = 100;

/**
 * A Markdown image link from a document to an image, both given as `/`-separated paths (file
 * system paths or URI paths); the link is relative when both share a root.
 */
export function markdownImageLink(prompt: string, documentPath: string, imagePath: string): string {
  return markdownImage(prompt, encodeLinkPath(relativePath(parentOf(documentPath), imagePath)));
}

/** `![prompt](destination)` with the prompt as alt text; `destination` must already be URL-encoded. */
export function markdownImage(prompt: string, destination: string): string {
  const alt = cutAt(prompt.replace(/\s+/g, " ").trim(), maxAlt).replace(/[[\]\\]/g, "\\$&");
  return `![${alt}](${destination})`;
}

/** `a/b/c.md` -> `a/b`. */
function parentOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index <= 0 ? (index === 0 ? "/" : "") : path.slice(0, index);
}

/** The path of `to` seen from the folder `from` (`..` where needed). */
export function relativePath(from: string, to: string): string {
  const split = (path: string) => path.split("/").filter((part) => part !== "" && part !== ".");
  const a = split(from);
  const b = split(to);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  // Different roots (another drive letter): no relative path exists.
  if (common === 0 && a.length > 0 && /^[A-Za-z]:$/.test(a[0] ?? "") && a[0] !== b[0]) return to;
  return [...a.slice(common).map(() => ".."), ...b.slice(common)].join("/");
}
