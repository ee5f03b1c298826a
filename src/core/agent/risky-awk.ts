/**
 * awk runs a program, and the program can run others (`system("…")`, `print | "sh"`,
 * `"cmd" | getline`), write files (`print > "f"`) or load code (gawk's `@load`, `@include`).
 * Short of parsing awk, a program text with any of those characters or names asks, as do the
 * options that take the program from a file we cannot see (`-f`, `--include`, `--load`) and gawk's
 * options that write a file (`--profile`, `--pretty-print`, `--dump-variables`).
 */

/** `|` also starts `|&` (a coprocess); `>` may be a comparison, which then asks too. */
const runsOrWrites = /system|[|>@]/;
const riskyProgram = "an awk program that may run commands or write files";

/** gawk's getopt letters that take the program elsewhere or write a file; `-W` is mawk's and gawk's `-W long-option`. */
const riskyLetters = "fEilopdW";
/** Letters whose value is the rest of the word or the next word (`-e` is the program's text). */
const valuedLetters = "FvZe";
const riskyLong = ["--file", "--exec", "--include", "--load", "--pretty-print", "--profile", "--dump-variables"];
const valuedLong = ["--field-separator", "--assign", "--source"];

/** The risky option or program of an awk command, as `riskyOption` reports it. */
export function riskyAwk(words: readonly (string | undefined)[]): string | undefined {
  const computed = "a computed argument";
  const texts: string[] = [];
  let i = 1;
  for (; i < words.length; i++) {
    const word = words[i];
    if (word === undefined) return computed;
    if (word === "--") {
      i++;
      break;
    }
    if (!word.startsWith("-") || word === "-") break;
    let option: string;
    let value: string | undefined;
    if (word.startsWith("--")) {
      // gawk abbreviates long options as getopt_long does (`--so` is `--source`).
      const name = word.split("=")[0]!;
      const risky = name.length > 2 && riskyLong.find((o) => o.startsWith(name));
      if (risky) return risky;
      option = (name.length > 2 && valuedLong.find((o) => o.startsWith(name))) || "";
      value = word.includes("=") ? word.slice(word.indexOf("=") + 1) : undefined;
    } else {
      const at = [...word.slice(1)].findIndex((letter) => riskyLetters.includes(letter) || valuedLetters.includes(letter));
      const letter = at < 0 ? "" : word[at + 1]!;
      if (riskyLetters.includes(letter) && letter !== "") return `-${letter}`;
      option = letter;
      value = word.length > at + 2 ? word.slice(at + 2) : undefined;
    }
    if (option === "") continue;
    if (value === undefined && ++i < words.length) value = words[i];
    if (option === "e" || option === "--source") {
      if (value === undefined && i < words.length) return computed;
      texts.push(value ?? "");
    }
  }
  // The first operand is the program unless -e gave it; the rest are files and assignments, never
  // options (awk reads options up to the program only), so a glob there (`awk 1 *.log`) is safe.
  if (texts.length === 0 && i < words.length) {
    const program = words[i];
    if (program === undefined) return computed;
    texts.push(program);
  }
  return texts.some((text) => runsOrWrites.test(text)) ? riskyProgram : undefined;
}
