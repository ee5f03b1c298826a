/**
 * A prompt file's body made into the message: its variables resolved (`${selection}`, `${file}`,
 * `${input:name:placeholder}` …), its Markdown links to files found (they are attached), and the
 * text typed after `/name` added.
 */
import { folderBasename } from "../context/workspace-paths";

export interface InputVariable {
  readonly name: string;
  /** Shown in the input box; the first placeholder given for a name is used. */
  readonly placeholder?: string;
}

export interface EditorFacts {
  /** The active editor's selected text ("" when nothing is selected or no editor is open). */
  readonly selection: string;
  /** The active editor's file: workspace-relative path when it is in the workspace, else absolute. */
  readonly file?: string;
  /** The workspace folder's absolute path. */
  readonly workspaceFolder?: string;
}

const variablePattern = /\$\{([A-Za-z]+)(?::([^}:]+)(?::([^}]*))?)?\}/g;

/** The `${input:…}` variables of a body, each name once, in order. */
export function inputVariables(body: string): InputVariable[] {
  const found = new Map<string, InputVariable>();
  for (const match of body.matchAll(variablePattern)) {
    const [, kind, name, placeholder] = match;
    if (kind !== "input" || name === undefined) continue;
    const key = name.trim();
    const existing = found.get(key);
    if (existing === undefined || (existing.placeholder === undefined && placeholder)) found.set(key, { name: key, ...(placeholder?.trim() ? { placeholder: placeholder.trim() } : {}) });
  }
  return [...found.values()];
}

/**
 * Takes `name=value` words for the prompt's inputs out of the text typed after `/name` (as Copilot
 * does: `/new-form formName=Signup`); the rest stays the argument.
 */
export function inputsFromArgument(argument: string, inputs: readonly InputVariable[]): { values: Record<string, string>; rest: string } {
  const names = new Set(inputs.map((i) => i.name));
  const values: Record<string, string> = {};
  const rest = argument.replace(/(^|\s)([\w-]+)=("([^"]*)"|\S+)/g, (whole, space: string, name: string, raw: string, quoted: string | undefined) => {
    if (!names.has(name)) return whole;
    values[name] = quoted ?? raw;
    return space;
  });
  return { values, rest: rest.replace(/\s{2,}/g, " ").trim() };
}

/** The body with its variables replaced; unknown variables stay as written. */
export function resolveVariables(body: string, facts: EditorFacts, inputs: Readonly<Record<string, string>>): string {
  const file = facts.file ?? "";
  // A file outside the workspace keeps its own separators (`C:\tmp\notes.txt` on Windows).
  const slash = Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\"));
  const base = file.slice(slash + 1);
  // As path.parse: a leading dot starts the name, not an extension (`.eslintrc`).
  const dot = base.lastIndexOf(".");
  const known: Record<string, string> = {
    selection: facts.selection,
    selectedText: facts.selection,
    file,
    fileBasename: base,
    fileBasenameNoExtension: dot > 0 ? base.slice(0, dot) : base,
    fileDirname: slash < 0 ? "" : file.slice(0, slash),
    workspaceFolder: facts.workspaceFolder ?? "",
    workspaceFolderBasename: facts.workspaceFolder === undefined ? "" : folderBasename(facts.workspaceFolder),
  };
  return body.replace(variablePattern, (whole, kind: string, name: string | undefined) => {
    if (kind === "input") return name !== undefined && Object.hasOwn(inputs, name.trim()) ? inputs[name.trim()]! : whole;
    return name === undefined && Object.hasOwn(known, kind) ? known[kind]! : whole;
  });
}

/** The message a prompt file sends: its resolved body, then what was typed after `/name`. */
export function promptMessage(resolvedBody: string, argument: string): string {
  const body = resolvedBody.trim();
  const extra = argument.trim();
  if (extra === "") return body;
  return body === "" ? extra : `${body}\n\n${extra}`;
}

/**
 * The files the body refers to, as VS Code attaches them: `#file:path` references and the targets
 * of Markdown links that may be files (relative or absolute paths, spaces and `<…>` allowed; not
 * web addresses, anchors, mail or images: `![…](…)`), each once, in the body's order.
 */
export function linkedFiles(body: string): string[] {
  const found: { at: number; target: string }[] = [];
  for (const match of body.matchAll(/(!?)\[[^\]]*\]\(\s*(?:<([^>\n]*)>|([^)\n]*?))(?:\s+"[^"\n]*")?\s*\)/g)) {
    if (match[1] !== "") continue;
    found.push({ at: match.index, target: match[2] ?? match[3]! });
  }
  // The path runs to the next space; a sentence's closing punctuation is not part of it.
  for (const match of body.matchAll(/(?<=^|\s)#file:([^\s]+?)[.,;:!?)]*(?=\s|$)/g)) found.push({ at: match.index, target: match[1]! });
  const targets = new Set<string>();
  for (const { target: raw } of found.sort((a, b) => a.at - b.at)) {
    const target = raw.trim().split("#")[0]!;
    if (target === "" || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    try {
      targets.add(decodeURIComponent(target));
    } catch {
      targets.add(target);
    }
  }
  return [...targets];
}
