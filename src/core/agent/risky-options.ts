/**
 * Options that make a program do more than an auto-approve prefix naming it says: write a file
 * (`git diff --output=~/.bashrc`), read outside the workspace or past the sensitive-file check
 * (`git diff --no-index /dev/null .env`, `git -C ~/other log`), or run another program
 * (`git log --ext-diff`, `find -exec`). A prefix rule ("git diff") approves the program, not these,
 * as it approves no output redirection; the command then asks.
 */
import { riskyAwk } from "./risky-awk";
import { riskySed } from "./risky-sed";
import { evaluatedSubscript } from "./risky-subscript";
import { remoteArchive } from "./risky-tar";

interface ProgramOptions {
  /** Options of the program itself, before its subcommand (`git -C dir log`): only there. */
  readonly global?: readonly string[];
  /** Other global options whose value is the next word, which is then not the subcommand (`git --attr-source TREE grep`). */
  readonly globalValued?: readonly string[];
  /** Short options of one subcommand, in place of `short` (`git grep -O` opens a pager; `git diff -O` orders files). */
  readonly subcommandShort?: Readonly<Record<string, ShortOptions>>;
  /**
   * Subcommands that read a path outside the repository as a file (git diff with one, in place of
   * a pathspec, compares the two files as `--no-index` does): such a path, even after `--`, asks.
   */
  readonly outsidePaths?: readonly string[];
  /** Subcommands judged by a rule of their own, given the words after them. */
  readonly subcommandRules?: Readonly<Record<string, (args: readonly (string | undefined)[]) => string | undefined>>;
  /** Words after one subcommand that run a command given with them, matched whole or with `=value` (`git submodule foreach CMD`). */
  readonly subcommandWords?: Readonly<Record<string, readonly string[]>>;
  /**
   * Long options, matched whole, with `=value`, or abbreviated: getopt_long and git read any
   * unambiguous prefix (`--out=x` is `--output=x`), and an ambiguous one is an error, so every
   * prefix counts, except the exact names in `safeLong`.
   */
  readonly long: readonly string[];
  /** Risky long options (also in `long`) reported with why, in place of their name alone. */
  readonly explained?: Readonly<Record<string, string>>;
  /** Harmless options whose whole name is also a prefix of a risky one (`git log --cc`, not `--cc-cmd`). */
  readonly safeLong?: readonly string[];
  readonly short?: ShortOptions;
  /** A first word without a dash is a bundle of short options, their values in the words after it (`tar xIf prog a.tar`). */
  readonly bundleFirst?: boolean;
  /** Find-style single-dash words, matched whole; `--` does not end them. */
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

/** git config's options that write, edit (in an editor) or take another file; abbreviated as git reads them (`--ad`). */
const gitConfigWrites = ["--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "--edit", "--file"];
/** Its options that make it read, whatever the operands (`--get-regexp NAME VALUE-PATTERN`). */
const gitConfigReads = ["--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "--list"];
/** Options whose value is the next word, which is then no operand. */
const gitConfigValued = ["--type", "--default", "--blob", "--comment"];

/**
 * What makes `git config` write a setting rather than read one: `git config core.fsmonitor CMD`
 * (a value), `--add`, `--unset`…, `-e`, `-f FILE`, or the `set`/`unset`/`edit`… subcommands of
 * newer git. A write can make the next approved `git status` run a command.
 */
function gitConfigWrite(args: readonly (string | undefined)[]): string | undefined {
  if (args.includes(undefined)) return "a computed argument";
  const verb = args.find((a) => !a!.startsWith("-"));
  if (verb !== undefined && ["set", "unset", "edit", "rename-section", "remove-section"].includes(verb)) return `a setting to change (git config ${verb})`;
  if (verb === "get" || verb === "list") return undefined;
  let operands = 0;
  let reads = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === "--") {
      operands += args.length - i - 1;
      break;
    }
    if (!word.startsWith("-")) operands++;
    else if (word.startsWith("--")) {
      const name = word.split("=")[0]!;
      const long = (list: readonly string[]) => name.length > 3 && list.find((o) => o.startsWith(name));
      const writes = long(gitConfigWrites);
      if (writes) return writes;
      if (long(gitConfigReads)) reads = true;
      else if (!word.includes("=") && long(gitConfigValued)) i++;
    } else {
      const letters = word.slice(1);
      if (/[ef]/.test(letters)) return `-${/[ef]/.exec(letters)![0]}`;
      if (letters.includes("l")) reads = true;
    }
  }
  return operands >= 2 && !reads ? "a setting to change (git config with a value)" : undefined;
}

/** An absolute path, one under the home folder, or one that climbs out with `..`. */
const outsidePath = /^[/~]|(^|\/)\.\.(\/|$)/;

/** What git's diff options take a value in the same word (`-U3`, `-M50%`, `-Oorder`), as format-patch and difftool read them. */
const gitDiffValued = "UOSGlMCBI";

const programs: Readonly<Record<string, ProgramOptions>> = {
  git: {
    global: ["-C", "-c", "--git-dir", "--work-tree", "--exec-path", "--config-env", "--namespace", "--super-prefix"],
    globalValued: ["--attr-source"],
    long: [
      "--output", "--output-directory", "--no-index", "--ext-diff", "--open-files-in-pager",
      // Run a program given on the command line: fetch, clone, ls-remote, push, archive, rebase, difftool, send-email.
      "--upload-pack", "--receive-pack", "--exec", "--extcmd", "--sendmail-cmd", "--smtp-server", "--to-cmd", "--cc-cmd", "--header-cmd",
      // clone sets config (core.hooksPath, core.fsmonitor) or copies hooks that its checkout then runs.
      "--config", "--template",
      "--src-prefix", "--dst-prefix",
    ],
    explained: Object.fromEntries(["--src-prefix", "--dst-prefix"].map((o) => [o, `an option that renames the files in a diff (${o}), so that a sensitive file's changes could not be left out of what it shows`])),
    safeLong: ["--cc", "--to", "--header"],
    subcommandShort: {
      // `-NUM` (context lines) may lead a bundle: `git grep -3O` opens the pager too.
      grep: { risky: "O", valued: "ABCefm" },
      rebase: { risky: "x", valued: "sXCS" },
      clone: { risky: "cu", valued: "obj" },
      "ls-remote": { risky: "u", valued: "o" },
      archive: { risky: "o", valued: "" },
      "format-patch": { risky: "o", valued: `v${gitDiffValued}` },
      difftool: { risky: "x", valued: `t${gitDiffValued}` },
    },
    outsidePaths: ["diff"],
    subcommandRules: { config: gitConfigWrite },
    subcommandWords: {
      submodule: ["foreach"],
      bisect: ["run"],
      // A shell script: no abbreviations.
      "filter-branch": ["--setup", "--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter"],
    },
  },
  find: { long: [], words: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"] },
  sort: { long: ["--output", "--compress-program"], short: { risky: "o", valued: "kStTy" } },
  rg: { long: ["--pre", "--hostname-bin"] },
  // A lesskey file may set LESSOPEN, a command less runs on each file, even when it only copies to a pipe.
  less: { long: ["--lesskey-file", "--lesskey-src", "--lesskey-content"], short: { risky: "k", valued: "bhjoOpPtTxyzD#" } },
  tar: {
    long: [
      // Run a program given on the command line (a remote archive's shell, `exec=` actions, a compressor).
      "--to-command", "--checkpoint-action", "--use-compress-program", "--info-script", "--new-volume-script", "--rsh-command", "--rmt-command",
      // Write or delete files besides the archive.
      "--index-file", "--volno-file", "--remove-files",
    ],
    safeLong: ["--checkpoint"],
    short: { risky: "IF", valued: "bCfgHKLNTVX" },
    bundleFirst: true,
  },
  // `-I` is macOS sed's in-place edit. Not `-l`: it takes a value in GNU sed but not in macOS sed, where `sed -li` edits in place.
  sed: { long: ["--in-place"], short: { risky: "iI", valued: "ef" } },
};

/**
 * The first word of the command that is such an option, or "a computed argument" where a word is
 * only known when it runs; undefined when there is none. `words` are the command and its arguments,
 * `literalWords` the same with parameters undefined.
 */
export function riskyOption(words: readonly (string | undefined)[], literalWords = words): string | undefined {
  const written = words[0];
  // A parameter at the start of a word or in an option (`$f`, `"$f"`, `-r$f`) may make it any option: `for f in --output=x; do git diff $f; done`.
  // So may a glob at its start (`rg x *` in a folder with a file named `--pre=sh`), or an escape fish reads otherwise (`\x2d-output`).
  words = words.map((word, i) => (word === undefined || /^[-$*?[]/.test(word) || (literalWords[i] === undefined && !word.includes("$")) ? literalWords[i] : word));
  const program = words[0]?.slice(words[0].lastIndexOf("/") + 1);
  if (program !== undefined && /^[gmn]?awk$/.test(program)) return riskyAwk(words);
  // `[` reads as a glob in literalWords: its name is the written one.
  const subscript = evaluatedSubscript(written?.slice(written.lastIndexOf("/") + 1) ?? "", words);
  if (subscript) return subscript;
  const options = program === undefined ? undefined : Object.hasOwn(programs, program) ? programs[program] : undefined;
  if (!options) return undefined;
  return riskyListed(words, options) ?? (program === "sed" ? riskySed(words) : program === "tar" ? remoteArchive(words) : undefined);
}

/** The first of the program's risky options in `words`, as `riskyOption` reports it. */
function riskyListed(words: readonly (string | undefined)[], options: ProgramOptions): string | undefined {
  let subcommand: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word !== undefined && options.global && subcommand === undefined) {
      const global = options.global.find((o) => word === o || word.startsWith(`${o}=`) || (!o.startsWith("--") && word.startsWith(o)));
      if (global) return global;
      if (options.globalValued?.includes(word)) i++;
      else if (!word.startsWith("-")) {
        subcommand = word;
        const rule = options.subcommandRules && Object.hasOwn(options.subcommandRules, word) ? options.subcommandRules[word] : undefined;
        const risky = rule?.(words.slice(i + 1));
        if (risky) return risky;
      }
      continue;
    }
    if (word === undefined) return "a computed argument";
    if (subcommand !== undefined && options.outsidePaths?.includes(subcommand) && (word === "--" || !word.startsWith("-"))) {
      const outside = words.slice(word === "--" ? i + 1 : i, word === "--" ? undefined : i + 1).find((w) => w !== undefined && outsidePath.test(w));
      if (outside !== undefined) return `a path outside the workspace (${outside}), read as a file (${words[0]} ${subcommand} then works as --no-index)`;
    }
    if (i === 1 && options.bundleFirst && options.short && !word.startsWith("-")) {
      const letter = [...word].find((l) => options.short!.risky.includes(l));
      if (letter) return `-${letter}`;
      continue;
    }
    // After `--` the words are paths, not options; find reads on (`find -- . -delete`).
    if (word === "--" && !options.words) return undefined;
    if (options.words?.includes(word)) return word;
    const runs = subcommand !== undefined && options.subcommandWords && Object.hasOwn(options.subcommandWords, subcommand) ? options.subcommandWords[subcommand]!.find((o) => word === o || word.startsWith(`${o}=`)) : undefined;
    if (runs) return runs.startsWith("-") ? runs : `a command that ${subcommand} ${runs} runs`;
    if (word.startsWith("--")) {
      const risky = riskyLong(word, options);
      if (risky) return options.explained?.[risky] ?? risky;
      continue;
    }
    if (!word.startsWith("-")) continue;
    const short = subcommand !== undefined && options.subcommandShort && Object.hasOwn(options.subcommandShort, subcommand) ? options.subcommandShort[subcommand] : options.short;
    const risky = short && riskyShort(word, short);
    if (risky) return risky;
  }
  return undefined;
}

/** The risky long option `word` is, or abbreviates (`--out=x`, `--outp x` for `--output`). */
function riskyLong(word: string, options: ProgramOptions): string | undefined {
  const name = word.split("=")[0]!;
  if (name.length <= 2 || options.safeLong?.includes(name)) return undefined;
  return options.long.find((o) => o.startsWith(name));
}

/** The risky option among the short options of `word` (`-uofile`), read letter by letter. */
function riskyShort(word: string, short: ShortOptions): string | undefined {
  for (const letter of word.slice(1)) {
    if (short.risky.includes(letter)) return `-${letter}`;
    if (short.valued.includes(letter)) return undefined;
  }
  return undefined;
}
