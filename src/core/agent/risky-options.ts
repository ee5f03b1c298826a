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
  /** Short options of one subcommand only (`git grep -O` opens a pager; `git diff -O` orders files). */
  readonly subcommandShort?: Readonly<Record<string, readonly string[]>>;
  /** Long options, matched whole or with `=value`. */
  readonly long: readonly string[];
  /** Short options, matched alone or with their value attached (`-Cdir`, `-ofile`). */
  readonly short: readonly string[];
  /** Find-style single-dash words, matched whole. */
  readonly words?: readonly string[];
  /** A short flag letter that may come in a cluster (`sed -ni`). */
  readonly clustered?: string;
}

const programs: Readonly<Record<string, ProgramOptions>> = {
  git: {
    global: ["-C", "-c", "--git-dir", "--work-tree", "--exec-path", "--config-env", "--namespace", "--super-prefix"],
    long: ["--output", "--no-index", "--ext-diff", "--open-files-in-pager", "--upload-pack", "--receive-pack", "--exec"],
    short: [],
    subcommandShort: { grep: ["-O"] },
  },
  find: { long: [], short: [], words: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"] },
  sort: { long: ["--output"], short: ["-o"] },
  rg: { long: ["--pre"], short: [] },
  sed: { long: ["--in-place"], short: [], clustered: "i" },
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
    const short = [...options.short, ...(options.subcommandShort?.[subcommand ?? ""] ?? [])].find((o) => word.startsWith(o));
    if (short) return short;
    if (options.clustered && /^-[A-Za-z]+/.test(word) && word.slice(1).split(/[^A-Za-z]/)[0]!.includes(options.clustered)) return `-${options.clustered}`;
  }
  return undefined;
}
