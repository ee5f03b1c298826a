/**
 * Commands that run other commands: which words of `env A=1 npm test`, `sudo -u x rm …`,
 * `xargs -n1 rm`, `timeout 5 make`, `find . -exec rm {} ;` are the command that finally runs, and
 * which strings are scripts (`bash -c '…'`, `eval …`, `watch '…'`, `env -S '…'`).
 */

export type Unwrapped =
  /** Not a wrapper, or a wrapper with nothing to run (`env` alone prints the environment). */
  | { readonly kind: "plain" }
  /**
   * Runs words[start…] with the NAME=value words[from…start) set (`env`); `input` when it adds
   * words it reads to them (`xargs`).
   */
  | { readonly kind: "runs"; readonly from: number; readonly start: number; readonly assigns: readonly (string | undefined)[]; readonly input?: boolean }
  /** Runs itself and, besides, each command words[start…end) (`find -exec`). */
  | { readonly kind: "also"; readonly commands: readonly { readonly start: number; readonly end: number }[] }
  /** Runs a script: words[from…to) joined with spaces, the first `skip` characters left out (`--command=`). */
  | { readonly kind: "script"; readonly from: number; readonly to: number; readonly skip?: number }
  | { readonly kind: "opaque"; readonly reason: string };

interface WrapperOptions {
  /**
   * Options that take a value: single letters for `-x`, longer names for `--name`, which may be
   * abbreviated (getopt_long reads `env --ch DIR` as `--chdir DIR`). Not those whose value is
   * optional, so only after `=` (xargs `--replace[=R]`, `--eof[=E]`).
   */
  readonly valued: readonly string[];
  /** Non-option words before the command (`timeout DURATION cmd`). */
  readonly positional?: number;
  /** NAME=value words may come before the command. */
  readonly assigns?: boolean;
  /** The command gets more words, read from the input or a file (`xargs`). */
  readonly input?: boolean;
}

const wrappers: Readonly<Record<string, WrapperOptions>> = {
  env: { valued: ["u", "C", "unset", "chdir"], assigns: true },
  sudo: { valued: ["u", "g", "C", "D", "h", "p", "r", "t", "T", "U", "user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "command-timeout", "other-user"] },
  doas: { valued: ["u", "C"] },
  nice: { valued: ["n", "adjustment"] },
  ionice: { valued: ["c", "n", "p", "P", "u", "class", "classdata", "pid", "pgid", "uid"] },
  nohup: { valued: [] },
  setsid: { valued: [] },
  timeout: { valued: ["s", "k", "signal", "kill-after"], positional: 1 },
  stdbuf: { valued: ["i", "o", "e", "input", "output", "error"] },
  xargs: { valued: ["I", "L", "n", "P", "s", "d", "E", "a", "max-args", "max-lines", "max-procs", "max-chars", "delimiter", "arg-file", "process-slot-var"], input: true },
  command: { valued: [] },
  exec: { valued: ["a"] },
};

const shellNames = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh"]);

/** The program a command word runs: `/usr/bin/rm` is `rm`. */
export function commandName(word: string | undefined): string | undefined {
  return word?.split("/").at(-1);
}

export function isShell(word: string): boolean {
  return shellNames.has(commandName(word) ?? "");
}
const assignment = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const computedOption = { kind: "opaque", reason: "an option of the command that runs another command is computed" } as const;

export function unwrapCommand(words: readonly (string | undefined)[]): Unwrapped {
  const name = commandName(words[0]);
  if (name === undefined) return { kind: "plain" };
  if (shellNames.has(name)) return shellScript(words);
  if (name === "eval") return { kind: "script", from: 1, to: words.length };
  if (name === "watch") return watchCommand(words);
  if (name === "find") return findExec(words);
  const options = wrappers[name];
  return options ? wrapped(name, words, options) : { kind: "plain" };
}

function wrapped(name: string, words: readonly (string | undefined)[], options: WrapperOptions): Unwrapped {
  let i = 1;
  let positional = options.positional ?? 0;
  let from: number | undefined;
  while (i < words.length) {
    const word = words[i];
    if (word === undefined) return computedOption;
    if (from === undefined && word === "--") {
      i++;
      break;
    }
    if (from === undefined && word.startsWith("-") && word.length > 1) {
      // env -S splits its value into a command line.
      const split = name === "env" ? splitString(word, options.valued) : undefined;
      if (split !== undefined) return split ? { kind: "script", from: i, to: words.length, skip: word.length - split.length } : { kind: "script", from: i + 1, to: words.length };
      i += optionLength(word, options.valued);
      continue;
    }
    if (options.assigns && assignment.test(word)) {
      from ??= i;
      i++;
      continue;
    }
    if (positional > 0) {
      positional--;
      i++;
      continue;
    }
    break;
  }
  if (i >= words.length) return { kind: "plain" };
  return { kind: "runs", from: from ?? i, start: i, assigns: from === undefined ? [] : words.slice(from, i), ...(options.input ? { input: true } : {}) };
}

/**
 * The value of env's `-S` in this option word ("" when it is the next word), read as getopt_long
 * does: in a bundle (`-iS…`) or abbreviated (`--sp=…` is `--split-string=…`); undefined if none.
 */
function splitString(word: string, valued: readonly string[]): string | undefined {
  if (word.startsWith("--")) {
    const name = word.split("=")[0]!;
    return name.length > 2 && "--split-string".startsWith(name) ? word.slice(name.length + 1) : undefined;
  }
  for (let j = 1; j < word.length; j++) {
    if (word[j] === "S") return word.slice(j + 1);
    if (valued.includes(word[j]!)) return undefined;
  }
  return undefined;
}

/** How many words an option takes: 2 when its value is the next word. */
function optionLength(word: string, valued: readonly string[]): number {
  if (word.startsWith("--")) return !word.includes("=") && valued.some((name) => name.length > 1 && name.startsWith(word.slice(2))) ? 2 : 1;
  for (let j = 1; j < word.length; j++) if (valued.includes(word[j]!)) return j === word.length - 1 ? 2 : 1;
  return 1;
}

/** `bash -c SCRIPT`, `sh -ec SCRIPT`, `fish --command=SCRIPT`; a shell without -c runs a file or its input. */
function shellScript(words: readonly (string | undefined)[]): Unwrapped {
  let script = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === undefined) return script ? { kind: "script", from: i, to: i + 1 } : computedOption;
    // fish reads abbreviations as getopt_long does: `--comm=…` is `--command=…`.
    const long = word.split("=")[0]!;
    if (long.length > 2 && "--command".startsWith(long)) return long === word ? { kind: "script", from: i + 1, to: i + 2 } : { kind: "script", from: i, to: i + 1, skip: long.length + 1 };
    if (word === "--") continue;
    if (word.startsWith("--")) {
      if (word === "--rcfile" || word === "--init-file") i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(word)) {
      if (/^-[A-Za-z]*c/.test(word)) script = true;
      if (/o$/.test(word)) i++;
      continue;
    }
    return script ? { kind: "script", from: i, to: i + 1 } : { kind: "plain" };
  }
  return script ? { kind: "opaque", reason: "the shell is given -c without a script" } : { kind: "plain" };
}

/** `watch -n 1 'cmd'` runs its words through `sh -c`; with -x it runs them as they are. */
function watchCommand(words: readonly (string | undefined)[]): Unwrapped {
  let i = 1;
  let exec = false;
  for (; i < words.length; i++) {
    const word = words[i];
    if (word === undefined) return computedOption;
    if (word === "--") {
      i++;
      break;
    }
    if (!word.startsWith("-")) break;
    if (word === "-x" || word === "--exec") exec = true;
    else if (["-n", "--interval", "-q", "--equexit"].includes(word)) i++;
  }
  if (i >= words.length) return { kind: "plain" };
  return exec ? { kind: "runs", from: i, start: i, assigns: [] } : { kind: "script", from: i, to: words.length };
}

/** `find … -exec cmd {} ;` (and -execdir, -ok, -okdir) runs cmd besides searching. */
function findExec(words: readonly (string | undefined)[]): Unwrapped {
  const commands: { start: number; end: number }[] = [];
  for (let i = 1; i < words.length; i++) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[i] ?? "")) continue;
    let end = i + 1;
    while (end < words.length && words[end] !== ";" && words[end] !== "+") end++;
    if (end > i + 1) commands.push({ start: i + 1, end });
    i = end;
  }
  return commands.length === 0 ? { kind: "plain" } : { kind: "also", commands };
}
