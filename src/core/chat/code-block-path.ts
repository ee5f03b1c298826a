/**
 * The workspace file a code block in an answer is about, when the answer names one: a comment on
 * the block's first line (`// src/cart.ts`), or a path in inline code just before the block
 * ("In `src/cart.ts`:").
 */

// Names in any script (src/composants/Résumé.tsx); a folder may be a route's [param] or (group)
// as Next.js names them (app/[slug]/page.tsx), which code such as arr[0].length is not.
const nameChar = String.raw`[\p{L}\p{M}\p{N}_@.-]`;
const pathPattern = new RegExp(String.raw`^(?:\.\/)?(?:(?:${nameChar}+|\[${nameChar}+\]|\(${nameChar}+\))\/)*[\p{L}\p{M}\p{N}_@-]${nameChar}*\.[A-Za-z0-9]{1,8}$`, "u");
const commentPath = /^\s*(?:\/\/|#|--|<!--|\/\*|;)\s*(?:file(?:name)?:\s*)?(\S+?)\s*(?:-->|\*\/)?\s*$/i;

export function looksLikePath(text: string): boolean {
  return text.length <= 200 && pathPattern.test(text) && !/^\d+(\.\d+)+$/.test(text) && !text.includes("..");
}

/**
 * A workspace-relative path a link to a file's line names (`app/[slug]/page.tsx`, `docs/café.md`,
 * `notes/C# tips.md`, decoded): a link says it is a path, so any name a file may have passes; what
 * makes it absolute or leaves the workspace (`/`, `\\`, `C:`, `..`) does not.
 */
export function looksLikeLinkedPath(text: string): boolean {
  return text.length <= 1024 && /^(?:[^\x00-\x1f\x7f\\/:]+\/)*[^\x00-\x1f\x7f\\/:]+$/.test(text) && !text.split("/").includes("..");
}

export function codeBlockPath(firstLine: string, inlineCodeBefore: readonly string[]): string | undefined {
  const comment = commentPath.exec(firstLine)?.[1];
  if (comment !== undefined && looksLikePath(comment)) return comment.replace(/^\.\//, "");
  const named = inlineCodeBefore.findLast((text) => looksLikePath(text.trim()));
  return named?.trim().replace(/^\.\//, "");
}
