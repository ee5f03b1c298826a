/**
 * The workspace file a code block in an answer is about, when the answer names one: a comment on
 * the block's first line (`// src/cart.ts`), or a path in inline code just before the block
 * ("In `src/cart.ts`:").
 */

const pathPattern = /^(?:\.\/)?(?:[\w@.-]+\/)*[\w@-][\w@.-]*\.[A-Za-z0-9]{1,8}$/;
const commentPath = /^\s*(?:\/\/|#|--|<!--|\/\*|;)\s*(?:file(?:name)?:\s*)?(\S+?)\s*(?:-->|\*\/)?\s*$/i;

export function looksLikePath(text: string): boolean {
  return text.length <= 200 && pathPattern.test(text) && !/^\d+(\.\d+)+$/.test(text) && !text.includes("..");
}

export function codeBlockPath(firstLine: string, inlineCodeBefore: readonly string[]): string | undefined {
  const comment = commentPath.exec(firstLine)?.[1];
  if (comment !== undefined && looksLikePath(comment)) return comment.replace(/^\.\//, "");
  const named = inlineCodeBefore.findLast((text) => looksLikePath(text.trim()));
  return named?.trim().replace(/^\.\//, "");
}
