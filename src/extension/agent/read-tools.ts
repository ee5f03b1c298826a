import { readdir } from "node:fs/promises";
import * as vscode from "vscode";
import type { ToolOutcome } from "../../core/agent/agent-loop";
import type { StepReporter } from "../../core/agent/agent-session";
import { formatMatches, grepText, lineMatcher, type GrepMatch } from "../../core/agent/grep-lines";
import { cutOutput } from "../../core/agent/output-cut";
import { readTextFile } from "../context/text-files";
import { maxReadBytes, maxReadSize } from "../../core/agent/read-limit";
import type { AgentWorkspace } from "./agent-workspace";

/** Most rows of a listing or search: more would crowd out the task in the model's context. */
const maxRows = 200;

const fail = (content: string): ToolOutcome => ({ content, isError: true });

/** read_file: the file's text (or some of its lines), from the editor when it is open there. */
export async function readFile(ws: AgentWorkspace, args: { path: string; start_line?: number; end_line?: number }, step: StepReporter, signal: AbortSignal): Promise<ToolOutcome> {
  const file = await ws.file(args.path);
  if ("error" in file) return fail(file.error);
  step.update({ title: `read ${file.relative}`, path: file.relative });
  const asked = await ws.askToRead(file, step, signal);
  if (asked) return asked;
  const read = await ws.text(file.uri);
  if (read.kind !== "text") return fail(read.kind === "missing" ? `${file.relative} does not exist.` : read.kind === "binary" ? `${file.relative} is a binary file.` : `${file.relative} is over ${maxReadSize}, too large to read, even in part: read the lines you need with a command (head, tail, grep -n, sed -n '100,200p').`);
  const { text } = read;
  const lines = text.split("\n");
  // A final newline ends the last line; it does not start another.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const start = Math.max(1, args.start_line ?? 1);
  const end = Math.min(lines.length, args.end_line ?? lines.length);
  if (start > lines.length) return fail(`${file.relative} has ${lines.length} lines; start_line ${start} is past its end.`);
  const part = lines.slice(start - 1, end).join("\n");
  const range = start === 1 && end === lines.length ? `${lines.length} line${lines.length === 1 ? "" : "s"}` : `lines ${start}-${end} of ${lines.length}`;
  step.update({ title: start === 1 && end === lines.length ? `read ${file.relative}` : `read ${file.relative}:${start}-${end}`, status: "done" });
  return { content: `${file.relative} (${range}):\n${cutOutput(part, ws.maxOutputChars)}` };
}

/** list_dir: the folder's entries, folders with a trailing slash, without what git or files.exclude leave out. */
export async function listDir(ws: AgentWorkspace, args: { path: string }, step: StepReporter): Promise<ToolOutcome> {
  const folder = await ws.file(args.path);
  if ("error" in folder) return fail(folder.error);
  step.update({ title: `listed ${folder.relative || "."}` });
  let entries;
  try {
    entries = await readdir(folder.absolute, { withFileTypes: true });
  } catch (error) {
    return fail(`Cannot list ${folder.relative || "."}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such folder" : (error as Error).message}`);
  }
  const names = entries
    .map((e) => ({ name: e.name, dir: e.isDirectory(), rel: folder.relative ? `${folder.relative}/${e.name}` : e.name }))
    .filter((e) => !ws.hidden(e.dir ? `${e.rel}/` : e.rel))
    .sort((a, b) => Number(b.dir) - Number(a.dir) || a.name.localeCompare(b.name))
    .map((e) => (e.dir ? `${e.name}/` : e.name));
  step.update({ status: "done" });
  if (names.length === 0) return { content: `${folder.relative || "."} is empty.` };
  const more = names.length > maxRows ? `\n[${names.length - maxRows} more not shown]` : "";
  return { content: names.slice(0, maxRows).join("\n") + more };
}

/** file_search: workspace files whose paths match a glob. */
export async function fileSearch(ws: AgentWorkspace, args: { query: string }, step: StepReporter): Promise<ToolOutcome> {
  const glob = args.query.includes("/") || args.query.startsWith("**") ? args.query : `**/${args.query}`;
  step.update({ title: `searched files ${args.query}` });
  const paths = (await ws.files(glob, maxRows * 5)).slice(0, maxRows + 1);
  step.update({ status: "done" });
  if (paths.length === 0) return { content: `No files match ${args.query}.` };
  const more = paths.length > maxRows ? `\n[More files match: narrow the pattern.]` : "";
  return { content: paths.slice(0, maxRows).join("\n") + more };
}

/** grep_search: matching lines, from the workspace index where it has the file, from disk otherwise. */
export async function grepSearch(ws: AgentWorkspace, args: { query: string; is_regexp?: boolean; include?: string }, step: StepReporter): Promise<ToolOutcome> {
  const matcher = lineMatcher({ query: args.query, isRegexp: args.is_regexp === true });
  if ("error" in matcher) return fail(matcher.error);
  step.update({ title: `searched for ${args.query}${args.include ? ` in ${args.include}` : ""}` });
  const matches: GrepMatch[] = [];
  let skipped = 0;
  const tooLarge: string[] = [];
  const include = args.include ? (args.include.includes("/") || args.include.startsWith("**") ? args.include : `**/${args.include}`) : undefined;
  // Without a pattern, the index's files (already without ignored, excluded, binary and large ones) spare a file search.
  const paths = include === undefined ? (ws.indexedPaths() ?? (await ws.files("**/*", 20_000))) : await ws.files(include, 20_000);
  for (const path of paths) {
    if (matches.length >= maxRows) break;
    if (ws.isSensitivePath(path)) {
      skipped++;
      continue;
    }
    const chunks = ws.indexed(path);
    if (chunks) {
      for (const chunk of chunks) grepText(path, chunk.text, chunk.startLine, matcher, matches, maxRows);
      continue;
    }
    const file = await readTextFile(ws.uri(path), { maxBytes: maxReadBytes }).catch(() => undefined);
    if (file?.kind === "text") grepText(path, file.text, 1, matcher, matches, maxRows);
    else if (file?.kind === "too-large") tooLarge.push(path);
  }
  step.update({ status: "done" });
  return { content: formatMatches(matches, maxRows, skipped, tooLarge) };
}

/** get_errors: the editor's diagnostics (errors and warnings) of some files, or of the workspace. */
export async function getErrors(ws: AgentWorkspace, args: { paths?: string[] }, step: StepReporter): Promise<ToolOutcome> {
  step.update({ title: args.paths?.length ? `checked problems in ${args.paths.join(", ")}` : "checked problems" });
  let entries: [vscode.Uri, readonly vscode.Diagnostic[]][];
  if (args.paths?.length) {
    entries = [];
    for (const path of args.paths) {
      const file = await ws.file(path);
      if ("error" in file) return fail(file.error);
      entries.push([file.uri, vscode.languages.getDiagnostics(file.uri)]);
    }
  } else {
    entries = vscode.languages.getDiagnostics().filter(([uri]) => ws.relative(uri) !== undefined);
  }
  const rows = entries.flatMap(([uri, diagnostics]) =>
    diagnostics
      .filter((d) => d.severity <= vscode.DiagnosticSeverity.Warning)
      .map((d) => `${ws.relative(uri) ?? uri.fsPath}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity === vscode.DiagnosticSeverity.Error ? "error" : "warning"}: ${d.message}`),
  );
  step.update({ status: "done" });
  return { content: rows.length === 0 ? "No errors or warnings." : rows.slice(0, maxRows).join("\n") };
}
