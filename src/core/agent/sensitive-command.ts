/**
 * The sensitive-file rules for the agent's commands. A command the user's rules approve
 * (`git diff`, `git log`) still shows what a sensitive file holds when it names one
 * (`git diff .env`, `git show HEAD:.env`), and a diff without paths (`git log -p`) shows a tracked
 * one's changes: the first asks, the second leaves those files' sections out of the output, as
 * @git does.
 */
import { commandUnits, type CommandUnit } from "./command-units";
import { diffHeader, withoutFiles } from "../context/diff-files";
import { plainText } from "../terminal/terminal-command";
import { relativeInside } from "./workspace-path";

/** Workspace-relative, forward slashes. */
type IsSensitive = (relative: string) => boolean;

/** The workspace files matching the sensitive-file rules that the command's words or input redirections name (run in the workspace folder). */
export function sensitivePathsNamed(command: string, isSensitive: IsSensitive): string[] {
  const named = new Set<string>();
  for (const word of pathWords(command)) {
    const inside = relativeInside(word, { file: true });
    if (!("error" in inside) && isSensitive(inside.path)) named.add(inside.path);
  }
  return [...named];
}

/**
 * What the command's words (its program's arguments, through pipes and blocks) and input
 * redirections may name as a path, as written: `.env`, `../x/.env`, `~/.netrc`; an option's value
 * (`--file=.env`) and git's REV:PATH (`HEAD:.env`, `:0:.env`) give their path.
 */
export function pathWords(command: string): string[] {
  const parsed = commandUnits(command);
  if ("error" in parsed) return [];
  const words: string[] = [];
  const visit = (unit: CommandUnit) => {
    for (const word of [...unit.layers.flatMap((layer) => layer.words.slice(1)), ...(unit.inputs ?? [])]) if (word !== undefined) words.push(pathIn(word));
    unit.feeds.forEach(visit);
  };
  parsed.units.forEach(visit);
  return words;
}

function pathIn(word: string): string {
  const value = word.startsWith("-") ? word.slice(word.indexOf("=") + 1 || word.length) : word;
  return value.includes(":") && !value.includes("://") ? value.slice(value.lastIndexOf(":") + 1) : value;
}

/** What `git log --graph` draws before each line: its columns (`|`, `/`, `\`, `_`, `*`) and the spaces between them. */
const graphColumns = "[|/\\\\_* ]*";

/**
 * `text` without the graph columns it ends with. Scanned back by hand: a pattern anchored at the end
 * (`[|/\\_* ]*$`) is tried from every position, minutes for a long line of spaces before a header.
 */
function withoutGraphEnd(text: string): string {
  let end = text.length;
  while (end > 0 && "|/\\_* ".includes(text[end - 1]!)) end--;
  return text.slice(0, end);
}

/**
 * The output without the diff sections of sensitive files, each named in a line of its own instead.
 * A diff in colour (`git diff --color`, `--color-words`), with `--line-prefix` or drawn beside a
 * `--graph` (whose columns change from commit to commit) is read without them, as the model would
 * read it; such output comes back plain.
 */
export function withoutSensitiveDiffs(output: string, isSensitive: IsSensitive): string {
  const plain = output.includes("\x1b") ? plainText(output) : output;
  const first = new RegExp(`^(.*?)${diffHeader.source.slice(1)}`, "m").exec(plain);
  if (first === null) return output;
  const linePrefix = withoutGraphEnd(first[1]!);
  // Without a graph only a line that starts with the header is one; with it, the columns before each header are that commit's.
  const header = first[1]!.length > linePrefix.length ? new RegExp(`^(${graphColumns})${diffHeader.source.slice(1)}`) : new RegExp(`^()${diffHeader.source.slice(1)}`);
  let graph = "";
  const diff = plain
    .split("\n")
    .map((line) => {
      const rest = line.startsWith(linePrefix) ? line.slice(linePrefix.length) : line;
      graph = header.exec(rest)?.[1] ?? graph;
      return rest.startsWith(graph) ? rest.slice(graph.length) : rest;
    })
    .join("\n");
  const { text, dropped } = withoutFiles(diff, isSensitive);
  if (dropped.length === 0) return output;
  const notes = dropped.map((path) => `[the diff of ${path} is left out: it matches wisp.sensitiveFiles or .wispignore and may hold secrets]\n`);
  return `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${notes.join("")}`;
}
