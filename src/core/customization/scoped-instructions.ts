/**
 * Scoped instructions (`.github/instructions/NAME.instructions.md`): guidance for the files their
 * `applyTo` globs match, added to a request when such a file is in play.
 */
import { readFields, type FileFormat } from "./file-fields";
import { parseFrontMatter, type FileProblem } from "./front-matter";
import { globMatcher } from "./apply-to";
import { linkedFiles } from "./prompt-variables";
import { folderPathCandidates } from "../context/workspace-paths";

export interface ScopedInstructions {
  readonly source: string;
  readonly description?: string;
  /** The globs; none: the file applies to nothing by itself. */
  readonly applyTo: readonly string[];
  readonly text: string;
  /**
   * The files its body links (Markdown links, `#file:`), as written: an instructions file among
   * them goes with it, as VS Code adds it.
   */
  readonly links?: readonly string[];
  readonly problems: readonly FileProblem[];
  /**
   * The workspace folder holding the file, by its place in the list, in a workspace of several:
   * its globs match paths relative to that folder, and only that folder's files. Undefined (one
   * folder, or the user's own folder): relative to whichever folder a file is in.
   */
  readonly folder?: number;
}

export const instructionsFileSuffix = ".instructions.md";

export const instructionsFileFormat: FileFormat = {
  what: "instructions file",
  fields: { name: "text", description: "text", applyTo: "globs" },
  ignored: ["excludeAgent"],
};

export function parseScopedInstructions(source: string, text: string): ScopedInstructions {
  const front = parseFrontMatter(text);
  const { values, problems } = readFields(front, instructionsFileFormat);
  const all = [...front.problems, ...problems];
  const applyTo = splitGlobs(values.lists.applyTo ?? []);
  if (!front.keys.has("applyTo") && all.every((p) => p.severity !== "error")) {
    all.push({ message: "No applyTo glob: these instructions go with a request only where an instructions file that applies links them. Add applyTo: \"**/*.py\" (for example).", severity: "warning", start: { line: 0, column: 0 }, end: { line: 0, column: 3 } });
  }
  const links = linkedFiles(front.body);
  return { source, ...(values.text.description ? { description: values.text.description } : {}), applyTo, text: front.body.trim(), ...(links.length > 0 ? { links } : {}), problems: all };
}

/** Globs given as one comma-separated string may have commas inside braces: split outside them only. */
export function splitGlobs(items: readonly string[]): string[] {
  const joined = items.join(",");
  const globs: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of joined) {
    if (char === "{") depth++;
    if (char === "}") depth = Math.max(0, depth - 1);
    if (char === "," && depth === 0) {
      globs.push(current);
      current = "";
    } else current += char;
  }
  globs.push(current);
  return globs.map((g) => g.trim()).filter((g) => g !== "");
}

/** Globs that match every file: as in VS Code, they apply to every request, even one with no file in play. */
const everyFile: readonly string[] = ["**", "**/*", "*"];

/**
 * The instructions that apply to any of `paths`, in their order. Paths are the chat's (relative
 * to the folder; `folder/relative` when the workspace has several, as `folderNames` lists them).
 */
export function instructionsFor(all: readonly ScopedInstructions[], paths: readonly string[], folderNames: readonly string[] = []): ScopedInstructions[] {
  // One folder: a path is that folder's. Several: the folder it names, else any (a bare `cart.py` the question mentions).
  const places = paths.flatMap((path): { folder?: number; relative: string }[] => (folderNames.length > 1 ? folderPathCandidates(path, folderNames) : [{ relative: path }]));
  const applying = all.filter((file) => {
    if (file.text === "") return false;
    const own = places.filter((p) => file.folder === undefined || p.folder === undefined || p.folder === file.folder);
    // Every file of its folder: with no file in play, or one of its folder.
    if (file.applyTo.some((glob) => everyFile.includes(glob))) return places.length === 0 || own.length > 0;
    const matches = globMatcher(file.applyTo);
    return own.some((p) => matches(p.relative));
  });
  return withLinked(applying, all, folderNames);
}

/**
 * The instructions files the project's rules link (`.github/copilot-instructions.md` saying `see
 * [the Python rules](instructions/python.instructions.md)`), and those these link, as VS Code adds
 * them. Rule paths are the chat's (`beta/AGENTS.md` with several folders).
 */
export function instructionsLinkedBy(rules: readonly { readonly path: string; readonly text: string }[], all: readonly ScopedInstructions[], folderNames: readonly string[] = []): ScopedInstructions[] {
  const linking: ScopedInstructions[] = rules.map((rule) => ({ source: rule.path, applyTo: [], text: rule.text, links: linkedFiles(rule.text), problems: [] }));
  return withLinked(linking, all, folderNames).filter((file) => !linking.includes(file));
}

/**
 * The files, each followed by the instructions files it links (and those they link), each once:
 * `Apply the [general rules](./general.instructions.md)` brings that file along, as in VS Code.
 */
function withLinked(applying: readonly ScopedInstructions[], all: readonly ScopedInstructions[], folderNames: readonly string[]): ScopedInstructions[] {
  const out: ScopedInstructions[] = [];
  const visit = (file: ScopedInstructions) => {
    if (out.includes(file) || file.text === "") return;
    out.push(file);
    for (const link of file.links ?? []) {
      const path = linkedPath(file, link, folderNames);
      const linked = path === undefined ? undefined : all.find((other) => slashed(other.source) === path);
      if (linked) visit(linked);
    }
  };
  for (const file of applying) visit(file);
  return out;
}

/** Where a link of an instructions file leads, written as sources are: beside the file, or (a leading `/`) from its workspace folder. */
function linkedPath(file: ScopedInstructions, link: string, folderNames: readonly string[]): string | undefined {
  const target = slashed(link);
  if (!target.startsWith("/")) return resolveSegments(slashed(file.source).split("/").slice(0, -1), target);
  if (file.folder === undefined && folderNames.length > 1) return undefined;
  return resolveSegments(file.folder !== undefined && folderNames.length > 1 ? [folderNames[file.folder]!] : [], target);
}

function resolveSegments(base: string[], target: string): string {
  const segments = [...base];
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

function slashed(path: string): string {
  return path.replace(/\\/g, "/");
}
