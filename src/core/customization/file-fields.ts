/**
 * Reading the front matter's fields by the format of each kind of file: the values Wisp uses, a
 * problem at the key for a value of the wrong type (an error: the file is not used), a warning for
 * a key Wisp does not know, and silence for the keys Copilot reads that Wisp leaves aside.
 */
import type { FilePosition, FileProblem, FrontMatter } from "./front-matter";

/**
 * `text`: a string; `list`: a list of strings (a comma-separated string, or keys set to true, are
 * taken too); `globs`: a string or a list of strings, kept whole (a glob's braces may hold
 * commas); `handoffs`: a list of { label, agent, prompt, send }.
 */
export type FieldKind = "text" | "list" | "globs" | "handoffs";

export interface FileFormat {
  /** What the user reads the file as ("prompt file", "agent file", ...). */
  readonly what: string;
  readonly fields: Readonly<Record<string, FieldKind>>;
  /** Keys other tools read that Wisp ignores on purpose (no warning). */
  readonly ignored: readonly string[];
}

export interface Handoff {
  /** The button's text. */
  readonly label: string;
  /** The agent that goes on: ask, agent, plan or a custom agent's name. */
  readonly agent: string;
  readonly prompt: string;
  /** Sent at once; otherwise the prompt waits in the prompt box. */
  readonly send: boolean;
}

export interface FieldValues {
  readonly text: Readonly<Record<string, string>>;
  readonly lists: Readonly<Record<string, readonly string[]>>;
  readonly handoffs: readonly Handoff[];
}

export function readFields(front: FrontMatter, format: FileFormat): { values: FieldValues; problems: FileProblem[] } {
  const text: Record<string, string> = {};
  const lists: Record<string, string[]> = {};
  let handoffs: Handoff[] = [];
  const problems: FileProblem[] = [];
  const at = (key: string) => front.keys.get(key) ?? { start: { line: 0, column: 0 } as FilePosition, end: { line: 0, column: 3 } as FilePosition };
  const problem = (key: string, message: string, severity: FileProblem["severity"] = "error") => problems.push({ message, severity, ...at(key) });
  for (const [key, value] of Object.entries(front.attributes)) {
    const kind = Object.hasOwn(format.fields, key) ? format.fields[key] : undefined;
    if (kind === undefined) {
      if (!format.ignored.includes(key)) problem(key, `Wisp does not know the key "${key}" in a ${format.what}; it is ignored.`, "warning");
      continue;
    }
    if (value === null || value === undefined) continue;
    if (kind === "text") {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") text[key] = String(value).trim();
      else problem(key, `"${key}" must be text, not ${describe(value)}.`);
    } else if (kind === "list" || kind === "globs") {
      const list = kind === "globs" && typeof value === "string" ? [value] : stringList(value);
      if (list === undefined) problem(key, `"${key}" must be a list of names (for example [a, b]), not ${describe(value)}.`);
      else lists[key] = list;
    } else {
      const read = readHandoffs(value);
      if (typeof read === "string") problem(key, read);
      else {
        handoffs = read.handoffs;
        for (const skipped of read.skipped) problem(key, skipped, "warning");
      }
    }
  }
  return { values: { text, lists, handoffs }, problems };
}

function stringList(value: unknown): string[] | undefined {
  // VS Code also takes `tools: {read: true, edit: false}`: the keys set to true.
  if (typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === "boolean")) {
    return Object.entries(value).filter(([, on]) => on).map(([name]) => name.trim()).filter((s) => s !== "");
  }
  if (typeof value === "string") return value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return undefined;
  return value.map((s) => s.trim()).filter((s) => s !== "");
}

/** The well-formed handoffs, and why each other one is skipped (as VS Code skips it, using the rest). */
function readHandoffs(value: unknown): { handoffs: Handoff[]; skipped: string[] } | string {
  if (!Array.isArray(value)) return `"handoffs" must be a list of { label, agent, prompt }, not ${describe(value)}.`;
  const handoffs: Handoff[] = [];
  const skipped: string[] = [];
  for (const [i, item] of value.entries()) {
    const problem = handoffProblem(item, i + 1);
    if (problem !== undefined) {
      skipped.push(`${problem} It is left out.`);
      continue;
    }
    const entry = item as { label: string; agent: string; prompt?: string; send?: boolean };
    handoffs.push({ label: entry.label.trim(), agent: entry.agent.trim(), prompt: entry.prompt ?? "", send: entry.send === true });
  }
  return { handoffs, skipped };
}

function handoffProblem(item: unknown, n: number): string | undefined {
  const entry = item as Record<string, unknown>;
  if (typeof item !== "object" || item === null || Array.isArray(item)) return `handoff ${n} must be { label, agent, prompt }, not ${describe(item)}.`;
  if (typeof entry.label !== "string" || entry.label.trim() === "") return `handoff ${n} needs a "label" (the button's text).`;
  if (typeof entry.agent !== "string" || entry.agent.trim() === "") return `handoff ${n} ("${entry.label}") needs an "agent" to continue in.`;
  if (entry.prompt !== undefined && typeof entry.prompt !== "string") return `handoff ${n} ("${entry.label}"): "prompt" must be text.`;
  if (entry.send !== undefined && typeof entry.send !== "boolean") return `handoff ${n} ("${entry.label}"): "send" must be true or false.`;
  return undefined;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "nothing";
  if (typeof value === "object") return "a set of keys";
  return `${typeof value} ${JSON.stringify(value)}`;
}
