// In Python, a compound statement's header (`if`, `for`, `except`, `def`, …) ends with a colon.
// A copied line can complete one without it: `ionError` after `except Validat` (copied from a
// `raise ValidationError`), `m.cleaned_data["value"]` after `if for`. Where the file is Python
// and the cursor's line is such a header, a line that closes every bracket and leaves no colon
// outside them is not offered. (A comprehension's `if` or `for` on a line of its own is no header.)
import { bracketDepths } from "./bracket-depths";
import { startsStatement } from "./unopened-closers";

/** Lines only Python writes: a `def`, a `from … import`, a class header ending with its colon. */
const PYTHON = /^\s*(?:async\s+)?def \w+\s*\(|^from [\w.]+ import |^\s*class \w+.*:\s*$/m;
const HEADER = /^\s*(?:async\s+)?(?:if|elif|else|for|while|try|except|finally|with|def|class)\b/;

/**
 * A check for the lines a one-line answer may give at the end of `prefix`: true for a line that
 * would end a Python compound statement's header without its colon.
 */
export function missingColon(prefix: string): (rest: string) => boolean {
  const line = prefix.slice(prefix.lastIndexOf("\n") + 1);
  if (!HEADER.test(line) || !PYTHON.test(prefix) || !startsStatement(prefix)) return () => false;
  return (rest) => {
    const code = line + rest;
    if (code.trimEnd().endsWith("\\")) return false;
    const { end, colon, inString } = bracketDepths(code, true);
    return end === 0 && !inString && !colon;
  };
}
