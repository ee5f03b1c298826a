/**
 * The built-in deny rules: each is checked on the parsed words of every command (any flag
 * spelling, quoting or path: `/bin/rm -r -f "/"` is `rm -rf /`), not on the text.
 */
import type { CommandLayer, CommandUnits } from "./command-units";
import { commandName, isShell } from "./command-wrappers";

export interface DenyRule {
  /** How the rule is written in `wisp.agent.deny`; also a readable name. */
  readonly rule: string;
  /** Why, for the user and the model. */
  readonly reason: string;
  /** True when this command matches the rule. */
  readonly layer?: (words: readonly (string | undefined)[]) => boolean;
  /** The offending command's text, when a combination of commands matches (a pipeline…). */
  readonly units?: (units: CommandUnits) => string | undefined;
}

/**
 * Whether `word` is the long option `name` or an abbreviation of it at least `shortest` characters
 * long: getopt_long takes any unambiguous prefix (`rm --rec` is `rm --recursive`).
 */
const abbreviates = (word: string | undefined, name: string, shortest: number) => {
  const option = word?.split("=")[0];
  return option !== undefined && option.length >= shortest && name.startsWith(option);
};

const recursiveRemoval = (words: readonly (string | undefined)[], targets: (target: string) => boolean) => {
  if (commandName(words[0]) !== "rm") return false;
  const options = words.slice(1).filter((w) => w?.startsWith("-") && w !== "--");
  // rm has no other long option starting with r.
  const recursive = options.some((o) => abbreviates(o, "--recursive", 3) || /^-[a-zA-Z]*[rR]/.test(o!));
  return recursive && words.slice(1).some((w) => w !== undefined && targets(normalTarget(w)));
};

/** A chmod mode that lets every user write: others' digit with the write bit (`777`, `1777`), or `o`/`a` given `w`. */
const everyoneWrites = (mode: string) => /^0*[0-7]?[0-7]{2}[2367]$/.test(mode) || mode.split(",").some((clause) => /^[ugo]*[oa][ugoa]*[+=][rwxXstugo]*w/.test(clause));

/** `/*`, `//`, `/.`, `~/`, `${HOME}/*` and the like, as `/`, `~` or `$HOME`. */
function normalTarget(word: string): string {
  const trimmed = word.replace(/(?:\/+\.{0,2}|\/\*)+$/, "");
  return trimmed === "" && word.startsWith("/") ? "/" : trimmed;
}

const homes = new Set(["~", "$HOME"]);
const otherUser = new Set(["sudo", "doas", "su", "pkexec"]);

/** `sudo` and its kin: what runs under them runs as another user. */
export const runsAsOtherUser = (words: readonly (string | undefined)[]): boolean => otherUser.has(commandName(words[0]) ?? "");

export const builtInDenyRules: readonly DenyRule[] = [
  {
    rule: "rm -rf /",
    reason: "it deletes the whole filesystem recursively",
    layer: (words) => recursiveRemoval(words, (t) => t === "/"),
  },
  {
    rule: "rm -rf ~",
    reason: "it deletes the home folder recursively",
    layer: (words) => recursiveRemoval(words, (t) => homes.has(t)),
  },
  {
    rule: "sudo",
    reason: "it runs as another user (root); Wisp never runs privileged commands, ask the user to run it",
    layer: runsAsOtherUser,
  },
  {
    rule: "mkfs",
    reason: "it formats a filesystem",
    layer: (words) => /^(mkfs(\..+)?|mke2fs)$/.test(commandName(words[0]) ?? ""),
  },
  {
    // Any dd: its destination can be any file or device, an agent has create_file for writing
    // files, and a computed of= cannot be checked.
    rule: "dd",
    reason: "dd writes raw blocks to files and devices; one wrong of= destroys a disk",
    layer: (words) => commandName(words[0]) === "dd",
  },
  {
    // Any spelling that lets every user write: 777, 1777, a=rwx, o+w, u=rwx,g=rwx,o=rwx.
    rule: "chmod -R 777",
    reason: "it makes a whole tree writable by every user",
    layer: (words) =>
      commandName(words[0]) === "chmod" &&
      words.some((w) => abbreviates(w, "--recursive", 5) || /^-[a-zA-Z]*R/.test(w ?? "")) &&
      words.some((w) => w !== undefined && everyoneWrites(w)),
  },
  {
    rule: "curl | sh",
    reason: "it runs a script downloaded from the network",
    units: downloadIntoShell,
  },
  {
    // Any force, with or without a lease: each rewrites the remote branch's history.
    rule: "git push --force",
    reason: "a force push rewrites the remote branch's history",
    layer: forcePush,
  },
];

const downloaders = new Set(["curl", "wget"]);
const isDownload = (layer: CommandLayer) => downloaders.has(commandName(layer.words[0]) ?? "");
const isShellSink = (layer: CommandLayer) => {
  const name = layer.words[0];
  return name !== undefined && (isShell(name) || ["eval", "source", "."].includes(name));
};

/** `curl … | sh`, `wget -O- … | sudo bash`, `sh <(curl …)`, `bash -c "$(curl …)"`, `source <(curl …)`. */
function downloadIntoShell({ units, pipelines }: CommandUnits): string | undefined {
  for (const stages of pipelines) {
    const first = stages.findIndex((stage) => stage.some((unit) => unit.layers.some(isDownload)));
    if (first < 0) continue;
    const sink = stages.slice(first + 1).flat().find((unit) => unit.layers.some(isShellSink));
    if (sink) return `${stages[first]!.find((unit) => unit.layers.some(isDownload))!.layers[0]!.text} | ${sink.layers[0]!.text}`;
  }
  const fed = units.find((unit) => unit.layers.some(isShellSink) && unit.feeds.some((feed) => feed.layers.some(isDownload)));
  return fed?.layers[0]!.text;
}

function forcePush(words: readonly (string | undefined)[]): boolean {
  if (commandName(words[0]) !== "git") return false;
  let i = 1;
  // Global options before the subcommand; these take a value in the next word.
  while (words[i]?.startsWith("-")) i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"].includes(words[i]!) ? 2 : 1;
  if (words[i] !== "push") return false;
  // `--force-w` is `--force-with-lease`; `--mirror` force-updates every ref on the remote.
  return words.slice(i + 1).some((w) => w !== undefined && (w === "--force" || abbreviates(w, "--force-with-lease", 8) || abbreviates(w, "--mirror", 4) || /^-[a-zA-Z]*f/.test(w) || /^\+[^+]/.test(w)));
}
