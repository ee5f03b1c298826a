/**
 * Options that make a program do more than an auto-approve prefix naming it says: write a file
 * (`git diff --output=~/.bashrc`), read outside the workspace or past the sensitive-file check
 * (`git diff --no-index /dev/null .env`, `git -C ~/other log`), or run another program
 * (`git log --ext-diff`, `find -exec`). A prefix rule ("git diff") approves the program, not these,
 * as it approves no output redirection; the command then asks.
 */

interface ProgramOptions {
  /** Options of the program itself, before its subcommand (`git -C dir log`): only there. */
  readonly global?: readonly string[];
  /** Short options of one subcommand, in place of `short` (`git grep -O` opens a pager; `git diff -O` orders files). */
  readonly subcommandShort?: Readonly<Record<string, ShortOptions>>;
  /** Long options, matched whole or with `=value`. */
  readonly long: readonly string[];
  readonly short?: ShortOptions;
  /** Find-style single-dash words, matched whole. */
  readonly words?: readonly string[];
}

/**
 * Short options, read as getopt reads them: `-abc` is `-a -b -c`, and an option that takes a value
 * takes the rest of the word (`-ofile`), so `sort -uofile` writes `file` but `sort -to` splits on "o".
 */
interface ShortOptions {
  /** The letters of risky options. */
  readonly risky: string;
  /** The letters of the program's other options that take a value: what follows one in a word is not an option. */
  readonly valued: string;
}

const programs: Readonly<Record<string, ProgramOptions>> = {
  git: {
    global: ["-C", "-c", "--git-dir", "--work-tree", "--exec-path", "--config-env", "--namespace", "--super-prefix"],
    long: ["--output", "--no-index", "--ext-diff", "--open-files-in-pager", "--upload-pack", "--receive-pack", "--exec"],
    // `-NUM` (context lines) may lead a bundle: `git grep -3O` opens the pager too.
    subcommandShort: { grep: { risky: "O", valued: "ABCefm" } },
  },
  find: { long: [], words: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"] },
  sort: { long: ["--output"], short: { risky: "o", valued: "kStTy" } },
  rg: { long: ["--pre"] },
  // Not `-l`: it takes a value in GNU sed but not in macOS sed, where `sed -li` edits in place.
  sed: { long: ["--in-place"], short: { risky: "i", valued: "ef" } },
};

/**
 * The first word of the command that is such an option, or "a computed argument" where a word is
 * only known when it runs; undefined when there is none. `words` are the command and its arguments.
 */
export function riskyOption(words: readonly (string | undefined)[]): string | undefined {
  const program = words[0]?.slice(words[0].lastIndexOf("/") + 1);
  const options = program === undefined ? undefined : Object.hasOwn(programs, program) ? programs[program] : undefined;
  if (!options) return undefined;
  let subcommand: string | undefined;
  for (const word of words.slice(1)) {
    if (word !== undefined && options.global && subcommand === undefined) {
      const global = options.global.find((o) => word === o || word.startsWith(`${o}=`) || (!o.startsWith("--") && word.startsWith(o)));
      if (global) return global;
      if (!word.startsWith("-")) subcommand = word;
      continue;
    }
    if (word === undefined) return "a computed argument";
    // After `--` the words are paths, not options.
    if (word === "--") return undefined;
    if (options.words?.includes(word)) return word;
    if (word.startsWith("--")) {
      if (options.long.some((o) => word === o || word.startsWith(`${o}=`))) return word.split("=")[0];
      continue;
    }
    if (!word.startsWith("-")) continue;
    const short = subcommand !== undefined && options.subcommandShort && Object.hasOwn(options.subcommandShort, subcommand) ? options.subcommandShort[subcommand] : options.short;
    const risky = short && riskyShort(word, short);
    if (risky) return risky;
  }
  return undefined;
}

/** The risky option among the short options of `word` (`-uofile`), read letter by letter. */
function riskyShort(word: string, short: ShortOptions): string | undefined {
  for (const letter of word.slice(1)) {
    if (short.risky.includes(letter)) return `-${letter}`;
    if (short.valued.includes(letter)) return undefined;
  }
  return undefined;
}
