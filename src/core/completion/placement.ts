import { closerOf, leadingClosers, scanBrackets } from "./brackets";
import type { CursorContext } from "./cursor-context";

/**
 * A suggestion as the editor applies it: `text` replaces the first `replace` characters after the
 * cursor (on the cursor's line), so accepting it gives
 * `linePrefix + text + lineSuffix.slice(replace)`. A replaced character always appears in `text`
 * in the same order, so the editor can still draw the suggestion as ghost text around it.
 */
export interface Suggestion {
  readonly text: string;
  readonly replace: number;
}

export const noSuggestion: Suggestion = { text: "", replace: 0 };

/**
 * Places the model's text before the rest of the cursor line so that nothing is closed twice:
 * the closers the editor auto-inserted after the cursor (`scale(|)`) are replaced by the ones the
 * suggestion writes (`total, factor);`), and an end that repeats the rest of the line is dropped.
 */
export function placeOnLine(text: string, ctx: Pick<CursorContext, "linePrefix" | "lineSuffix" | "brackets" | "syntax" | "opensBlock">): Suggestion {
  const lineSuffix = ctx.lineSuffix;
  if (lineSuffix.trim() === "" || text === "") return { text, replace: 0 };
  const placed = place(text, ctx);
  if (placed === noSuggestion) return placed;
  // A placement must leave the line as balanced as it was: `log(|)` with `f(x)` ends in the
  // suggestion's own `)`, not in the line's, and `[|]` with `a[0]` replaces nothing.
  const before = lineBalance(lineSuffix, ctx);
  const isBalanced = (s: Suggestion) => {
    const after = lineBalance(s.text + lineSuffix.slice(s.replace), ctx);
    return after.open <= before.open && after.errors <= before.errors;
  };
  if (isBalanced(placed)) return placed;
  // `log(|);` with `f(x);`: the suggestion repeats only the line's end after its own closer.
  const end = text.trimEnd();
  for (let cut = 1; cut < lineSuffix.length && !text.includes("\n"); cut++) {
    const tail = lineSuffix.slice(cut).trimEnd();
    if (tail.trim() === "" || !end.endsWith(tail)) continue;
    const kept = { text: end.slice(0, -tail.length).trimEnd(), replace: 0 };
    if (kept.text.trim() !== "" && isBalanced(kept)) return kept;
  }
  const whole = { text, replace: 0 };
  if (isBalanced(whole)) return whole;
  // Still closing what the line does not open (`bar(|foo);` with `foo)`): it repeats the line.
  // Merely leaving something open (a suggestion cut short) is shown as before.
  return lineBalance(text + lineSuffix, ctx).errors > before.errors ? noSuggestion : whole;
}

function place(text: string, ctx: Pick<CursorContext, "linePrefix" | "lineSuffix" | "brackets" | "syntax" | "opensBlock">): Suggestion {
  const lineSuffix = ctx.lineSuffix;
  const rest = lineSuffix.trim();
  // One line ending with the whole rest of the line: the model wrote what follows, drop it
  // (all of it when the suggestion is just the rest of the line).
  if (!text.includes("\n") && text.trimEnd().endsWith(rest) && text.trimEnd().length >= rest.length) {
    const kept = text.trimEnd().slice(0, -rest.length).trimEnd();
    return kept.trim() === "" ? noSuggestion : { text: kept, replace: 0 };
  }
  // Where the suggestion closes what was open at the cursor, in order.
  const closes: { closer: string; end: number }[] = [];
  let mismatch = -1;
  scanBrackets(text, ctx.syntax, ctx.brackets, {
    onCloseOuter: (frame, end) => {
      if (mismatch === -1) closes.push({ closer: closerOf(frame), end });
    },
    onMismatch: (index) => {
      if (mismatch === -1) mismatch = index;
    },
  });
  // The model's own brackets do not match (`foo(a]`): keep what comes before.
  if (mismatch !== -1) text = text.slice(0, mismatch).trimEnd();
  const run = leadingClosers(lineSuffix);
  let replace = 0;
  let at = 0;
  while (replace < closes.length && run.startsWith(closes[replace]!.closer, at)) {
    at += closes[replace]!.closer.length;
    replace++;
  }
  let chars = at;
  if (replace > 0) {
    // `foo(|);` with `a, b);`: what the suggestion writes after its last replaced closer may
    // repeat the rest of the line too.
    const tail = text.slice(closes[replace - 1]!.end);
    if (tail !== "" && !tail.includes("\n") && lineSuffix.startsWith(tail, chars)) chars += tail.length;
  }
  // `{|}` and a body that does not close the block: the closer goes on a line of its own.
  if (ctx.opensBlock && text.includes("\n") && at < run.length) {
    const lastLine = text.slice(text.lastIndexOf("\n") + 1);
    if (lastLine.trim() !== "") text += `\n${/^[ \t]*/.exec(ctx.linePrefix)?.[0] ?? ""}`;
  }
  return tidy({ text, replace: chars }, lineSuffix);
}

/** Frames left open and closers that close nothing (or the wrong thing), from the cursor. */
function lineBalance(after: string, ctx: Pick<CursorContext, "brackets" | "syntax">): { open: number; errors: number } {
  let errors = 0;
  const count = () => errors++;
  const end = scanBrackets(after, ctx.syntax, ctx.brackets, { onMismatch: count, onUnmatched: count });
  return { open: end.frames.length, errors };
}

/**
 * The simplest equivalent form: an end of `text` equal to the replaced characters is dropped
 * from both (`a, b` rather than `a, b)` over `)`), unless that would leave a line of its own empty.
 */
export function tidy(s: Suggestion, lineSuffix: string): Suggestion {
  let { text, replace } = s;
  while (replace > 0 && text.endsWith(lineSuffix[replace - 1] as string)) {
    const lastLine = text.slice(text.lastIndexOf("\n") + 1);
    if (text.includes("\n") && lastLine.trim().length <= 1) break;
    text = text.slice(0, -1);
    replace--;
  }
  return text.trim() === "" ? noSuggestion : { text, replace };
}

/** `needle` appears in `haystack` in order (what the editor needs to draw replaced text as ghost text). */
export function isSubsequence(needle: string, haystack: string): boolean {
  let at = 0;
  for (const ch of needle) {
    at = haystack.indexOf(ch, at);
    if (at === -1) return false;
    at++;
  }
  return true;
}
