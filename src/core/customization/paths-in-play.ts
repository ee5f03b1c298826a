/**
 * The files a request is about, for scoped instructions: the files attached to the question, and
 * the file names and paths its text mentions (`cart.py`, `src/app.ts`).
 */
import type { UserTurn } from "../chat/conversation";
import type { ScopedInstructions } from "./scoped-instructions";
import { cutText, maxRuleChars } from "../agent/agent-prompt";

/**
 * Words that look like a file name or path with an extension (not a version number or a URL), with
 * forward slashes (`src\cart\cart.py`, as Windows writes it, is `src/cart/cart.py`).
 */
export function pathsInText(text: string): string[] {
  const found = new Set<string>();
  // Names in any script: Résumé.tsx, 购物车.py.
  for (const match of text.normalize("NFC").matchAll(/(?:^|[\s`'"(\[])((?:[\p{L}\p{M}\p{N}_@.-]+[\/\\])*[\p{L}\p{M}\p{N}_@-][\p{L}\p{M}\p{N}_@.-]*\.[A-Za-z][A-Za-z0-9]{0,9})(?=$|[\s`'"),:;!?\]]|\.(?:\s|$))/gu)) {
    const path = match[1]!.replace(/\\/g, "/").replace(/^\.\//, "");
    if (/^\d+(\.\d+)+$/.test(path) || /^(e\.g|i\.e|etc)$/i.test(path)) continue;
    found.add(path);
  }
  return [...found];
}

/** The attached files' paths and the paths the text mentions, each once. */
export function pathsInPlay(turn: Pick<UserTurn, "text" | "attachments">): string[] {
  const attached = turn.attachments.filter((a) => a.label === undefined || a.source === "file").map((a) => a.path);
  return [...new Set([...attached, ...pathsInText(turn.text)])];
}

/** How an instructions file is named in a system prompt: where it comes from and what it applies to. */
export function instructionsHeading(file: ScopedInstructions): string {
  // One without applyTo is here because another links it.
  return `${file.applyTo.length > 0 ? `Instructions for files matching ${file.applyTo.join(", ")}` : "Instructions"} (from ${file.source}):\n`;
}

/**
 * Each instructions file as a part of a system prompt, cut at the rules' per-file limit: an
 * instructions file is guidance, and a large one would otherwise fill the model's context.
 */
export function instructionsParts(files: readonly ScopedInstructions[]): string[] {
  return files.map((f) => instructionsHeading(f) + cutText(f.text.trim(), maxRuleChars));
}
