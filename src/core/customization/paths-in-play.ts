/**
 * The files a request is about, for scoped instructions: the files attached to the question, and
 * the file names and paths its text mentions (`cart.py`, `src/app.ts`).
 */
import type { UserTurn } from "../chat/conversation";
import type { ScopedInstructions } from "./scoped-instructions";

/**
 * Words that look like a file name or path with an extension (not a version number or a URL), with
 * forward slashes (`src\cart\cart.py`, as Windows writes it, is `src/cart/cart.py`).
 */
export function pathsInText(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/(?:^|[\s`'"(\[])((?:[\w@.-]+[\/\\])*[\w@-][\w@.-]*\.[A-Za-z][A-Za-z0-9]{0,9})(?=$|[\s`'"),:;!?\]]|\.(?:\s|$))/g)) {
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

/** Each instructions file as a part of a system prompt, named by where it comes from and what it applies to. */
export function instructionsParts(files: readonly ScopedInstructions[]): string[] {
  // One without applyTo is here because another links it.
  return files.map((f) => `${f.applyTo.length > 0 ? `Instructions for files matching ${f.applyTo.join(", ")}` : "Instructions"} (from ${f.source}):\n${f.text.trim()}`);
}
