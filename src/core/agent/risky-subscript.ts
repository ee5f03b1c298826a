/**
 * Bash builtins that take a variable's name evaluate an array element's subscript as arithmetic,
 * which expands a `$(cmd)` written in it, even in quotes: `test -v 'a[$(cmd)]'`, `[ -v … ]`,
 * `printf -v 'a[$(cmd)]' x` and `read 'a[$(cmd)]'` run cmd (bash 5.2).
 */

/** A name with a subscript holding a command substitution or a backquote. */
const runningSubscript = /\[[^\]]*(\$\(|`)/;

const anyWord = (words: readonly (string | undefined)[], i: number) => words[i];

/** The builtins, and for each the name a word gives (undefined for a word that is none). */
const nameReaders: Readonly<Record<string, (words: readonly (string | undefined)[], i: number) => string | undefined>> = {
  test: anyWord,
  "[": anyWord,
  read: anyWord,
  // Only the name `-v` gives; the others are printed.
  printf: (words, i) => (words[i - 1] === "-v" ? words[i] : words[i]?.startsWith("-v") ? words[i]!.slice(2) : undefined),
};

/** The element name bash evaluates running a command, as `riskyOption` reports it; undefined when none. */
export function evaluatedSubscript(program: string, words: readonly (string | undefined)[]): string | undefined {
  if (!Object.hasOwn(nameReaders, program)) return undefined;
  const name = words.map((_, i) => (i > 0 ? nameReaders[program]!(words, i) : undefined)).find((n) => n !== undefined && runningSubscript.test(n));
  return name === undefined ? undefined : `an array element (${name}) whose subscript bash evaluates, running the command written in it`;
}
